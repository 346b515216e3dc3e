"""The examples a newcomer copies: every `--help` example and README command that names a
package of this repository, a case or a variant names ones that exist, and the documented
numbers agree with the code."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex

import click
import pytest
import yaml

from opkg.cli import COMMANDS, cli
from opkg.core.manifest import DEFAULT_TOLERANCE, TOLERANCE_HINT
from tests.conftest import REPO


def _help_texts():
    ctx = click.Context(cli, info_name="opkg")
    out = {}

    def walk(cmd, name, parent):
        sub = click.Context(cmd, info_name=name, parent=parent)
        out[sub.command_path] = cmd.get_help(sub)
        if isinstance(cmd, click.Group):
            for child in cmd.list_commands(sub):
                walk(cmd.get_command(sub, child), child, sub)

    for name in COMMANDS:
        walk(cli.get_command(ctx, name), name, ctx)
    return out


def _example_commands(text: str) -> list[list[str]]:
    commands = []
    for line in text.splitlines():
        line = line.strip().removeprefix("$ ")
        if line.startswith("opkg "):
            line = re.split(r"\s{2,}|  #|\s#\s", line)[0]    # drop the explanation after it
            try:
                commands.append(shlex.split(line))
            except ValueError:
                continue
    return commands


def _cases_and_variants(package: str):
    manifest = yaml.safe_load((REPO / "packages" / package / "opkg.yaml").read_text())
    cases = [c["name"] for c in manifest["verify"]["cases"]]
    dtypes = {d for t in manifest["op"]["inputs"] + manifest["op"]["outputs"] for d in t["dtypes"]}
    return cases, dtypes


def _checked(commands):
    """(command, package, option, value) for each --case/--variant of a package here."""
    for argv in commands:
        packages = [m.group(1) for a in argv
                    if (m := re.fullmatch(r"(?://)?packages/([a-z_0-9]+)", a))]
        for package in packages:
            if not (REPO / "packages" / package / "opkg.yaml").is_file():
                continue
            for i, arg in enumerate(argv[:-1]):
                if arg in ("--case", "--variant"):
                    yield argv, package, arg, argv[i + 1]


HELP = _help_texts()
README = (REPO / "README.md").read_text()


def test_help_examples_name_cases_and_variants_that_exist():
    checked = 0
    for path, text in HELP.items():
        for argv, package, option, value in _checked(_example_commands(text)):
            cases, dtypes = _cases_and_variants(package)
            names = cases if option == "--case" else dtypes
            assert fnmatch.filter(names, value), f"{path}: {' '.join(argv)}: no {option} " \
                f"{value!r} in packages/{package} ({', '.join(sorted(names))})"
            checked += 1
    assert checked >= 2      # opkg test's examples select a case and a variant


def test_readme_commands_name_cases_that_exist():
    commands = [shlex.split(m) for m in re.findall(r"`(opkg [^`]+)`", README)]
    commands += _example_commands(README)
    found = list(_checked(commands))
    assert found
    for argv, package, option, value in found:
        cases, dtypes = _cases_and_variants(package)
        assert fnmatch.filter(cases if option == "--case" else dtypes, value), argv


def test_help_examples_name_packages_of_this_repository():
    for path, text in HELP.items():
        for argv in _example_commands(text):
            for a in argv:
                m = re.fullmatch(r"(?://)?packages/([a-z_0-9]+)", a)
                if m and m.group(1) not in ("my_add", "my_op", "x", "add2", "NAME") \
                        and "new" not in argv and "import" not in argv:
                    assert (REPO / "packages" / m.group(1)).is_dir(), f"{path}: {argv}"


@pytest.mark.parametrize("dtype, exponent", [("float32", 13), ("float16", 10), ("bfloat16", 7)])
def test_the_tolerance_hint_states_the_defaults(dtype, exponent):
    assert DEFAULT_TOLERANCE[dtype]["rtol"] == 2.0 ** -exponent
    m = re.search(rf"\b{dtype} 2\^-{exponent} \(([0-9.e-]+)\)", TOLERANCE_HINT)
    assert m and float(m.group(1)) == 2.0 ** -exponent


def test_no_doc_calls_1e_3_the_default():
    for path in [REPO / "README.md", REPO / "packages" / "README.md",
                 *REPO.glob("docs/*.md"), *REPO.glob("packages/*/opkg.yaml")]:
        assert not re.search(r"1(\.0)?e-3 default", path.read_text()), path


def test_readme_ci_snippets_are_valid_yaml_that_install_the_tool():
    blocks = re.findall(r"```yaml\n(.*?)```", README, re.S)
    ci = [b for b in blocks if "opkg build" in b]
    assert len(ci) == 2                                  # GitHub Actions, GitLab CI
    for block in ci:
        data = yaml.safe_load(block)
        text = json.dumps(data)
        # the installed tool on the user's own workspace, never this checkout's sources
        assert "ascend-opkg[report] @ $OPKG_WHEEL" in text and "pip install -e" not in text
        assert "opkg build //... --locked --junit-xml junit.xml -q" in text
    steps = yaml.safe_load(ci[0])["jobs"]["operators"]["steps"]
    assert any(s.get("uses", "").startswith("actions/checkout") for s in steps)
    gitlab = yaml.safe_load(ci[1])["opkg"]
    assert gitlab["artifacts"]["reports"] == {"junit": "junit.xml"}
