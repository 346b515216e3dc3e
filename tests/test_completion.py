"""`opkg completion`: the script a shell sources, completing labels, names, SoCs, commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import opkg


@pytest.fixture
def opkg_on_path(tmp_path):
    """An `opkg` executable on PATH, as an installed opkg is: the script calls it by name."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "opkg"
    exe.write_text(f'#!/bin/sh\nexec {sys.executable} -m opkg "$@"\n')
    exe.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def bash_complete(words: str, cwd, env) -> list[str]:
    """What bash offers for `words` + Tab, through the script `opkg completion bash` prints."""
    script = ('eval "$(opkg completion bash)"\n'
              f'COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n'
              '_opkg_completion opkg\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
    r = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [l for l in r.stdout.splitlines() if l]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_labels_names_socs_and_commands(workspace, opkg_on_path):
    workspace.operator("addone")
    workspace.operator("softmax", op_type="Softmax")
    workspace.library("common")
    root = workspace.root
    assert bash_complete("opkg build //packages/so", root, opkg_on_path) == ["//packages/softmax"]
    assert bash_complete("opkg test add", root, opkg_on_path) == ["addone"]
    assert set(bash_complete("opkg build //", root, opkg_on_path)) == {
        "//packages/addone", "//packages/common", "//packages/softmax", "//...",
        "//packages/..."}
    assert bash_complete("opkg build packages/so", root, opkg_on_path) == ["packages/softmax"]
    socs = bash_complete("opkg build --soc Ascend910B", root, opkg_on_path)
    assert "Ascend910B1" in socs and all(s.startswith("Ascend910B") for s in socs)
    assert "Ascend310P3" in bash_complete("opkg toolchain check --soc Ascend310P", root,
                                          opkg_on_path)
    assert bash_complete("opkg bui", root, opkg_on_path) == ["build"]
    assert "completion" in bash_complete("opkg comp", root, opkg_on_path)
    # outside a workspace: no labels, no error on the terminal
    assert bash_complete("opkg build //", root.parent, opkg_on_path) == []


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o nosort -F _opkg_completion opkg"),
                                           ("zsh", "#compdef opkg"),
                                           ("fish", "complete --no-files --command opkg")])
def test_completion_scripts(workspace, shell, marker):
    r = opkg("completion", shell, cwd=workspace.root)
    assert r.returncode == 0 and marker in r.stdout and "_OPKG_COMPLETE" in r.stdout
    # the alias command completes too
    assert marker.replace("opkg", "ascend-opkg").replace("_ascend-opkg", "_ascend_opkg") \
        in r.stdout


# parameters whose values opkg knows, by name: each must complete
KNOWN = {"targets", "target", "patterns", "--soc", "--toolchain", "--case", "--variant",
         "requirement", "package"}


def _params():
    import click

    from opkg.cli import COMMANDS, cli

    ctx = click.Context(cli, info_name="opkg")
    out = []

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for n in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, n), f"{path} {n}")
            return
        for p in cmd.params:
            key = p.opts[-1] if isinstance(p, click.Option) else p.name
            long = [o for o in p.opts if o.startswith("--")]
            out.append((path, long[0] if long else key, p))

    for n in COMMANDS:
        walk(cli.get_command(ctx, n), n)
    return out


def test_every_parameter_with_known_values_completes():
    import click

    missing = [f"{path} {name}" for path, name, p in _params()
               if name in KNOWN and p._custom_shell_complete is None
               and not isinstance(p.type, click.Choice)]
    assert missing == []
    assert len([1 for _, name, _ in _params() if name in KNOWN]) > 25


def complete(args: str, incomplete: str) -> list[str]:
    from click.shell_completion import ShellComplete

    from opkg.cli import cli

    return [c.value for c in ShellComplete(cli, {}, "opkg", "_OPKG_COMPLETE")
            .get_completions(args.split(), incomplete)]


def test_labels_patterns_paths_cases_variants_toolchains(workspace, monkeypatch):
    workspace.operator("addone")
    workspace.operator("softmax", op_type="Softmax")
    (workspace.root / "packages" / "nn").mkdir()
    workspace.write("packages/nn/relu/opkg.yaml", "name: relu\nversion: 0.1.0\n")
    monkeypatch.chdir(workspace.root)
    assert complete("build", "//packages/n") == ["//packages/nn/relu", "//packages/nn/..."]
    assert complete("build", "//") == ["//packages/addone", "//packages/nn/relu",
                                       "//packages/softmax", "//...", "//packages/...",
                                       "//packages/nn/..."]
    assert complete("test", "packages/s") == ["packages/softmax"]      # a path from here
    monkeypatch.chdir(workspace.root / "packages")
    assert complete("query deps", "nn") == ["nn/relu"]
    monkeypatch.chdir(workspace.root)
    assert complete("query rdeps", "add") == ["addone"]
    assert complete("report --soc", "Ascend310P") == ["Ascend310P1", "Ascend310P3"]
    assert complete("test //packages/addone --case", "") == ["small"]
    assert complete("test //packages/addone --variant", "float") == ["float16", "float32"]
    assert complete("build --toolchain", "") == ["sim", "cann"]
    assert complete("init --soc", "Ascend910B") and complete("new x --soc", "Ascend910B")


def test_published_names_and_versions_complete_from_a_directory_registry(tmp_path, monkeypatch):
    from tests.registry.registry_testlib import make_bundle
    from opkg.registry.publish import publish_bundles
    from opkg.registry.store import Store

    store = Store(tmp_path / "reg")
    for version in ("1.0.0", "1.1.0"):
        bundle = make_bundle(tmp_path / version, "add_custom", version)
        publish_bundles(store, [bundle])
    monkeypatch.setenv("OPKG_REGISTRY", str(tmp_path / "reg"))
    monkeypatch.chdir(tmp_path)
    assert complete("install", "add") == ["add_custom"]
    assert complete("yank", "add_custom") == ["add_custom", "add_custom==1.0.0",
                                              "add_custom==1.1.0"]
    assert complete("info --registry " + str(tmp_path / "reg"), "add_custom==1.1") == [
        "add_custom==1.1.0"]
    monkeypatch.setenv("OPKG_REGISTRY", "oci://registry.invalid/ns")     # never asked
    assert complete("install", "add") == []


def test_unknown_shell_is_a_usage_error(workspace):
    r = opkg("completion", "tcsh", cwd=workspace.root)
    assert r.returncode == 2 and "'tcsh' is not one of 'bash', 'zsh', 'fish'" in r.stderr
