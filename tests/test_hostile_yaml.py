"""Hostile YAML: alias bombs, deep nesting, huge files and odd scalars are refused with a
file:line error and a hint, through every file opkg reads, and never expanded first."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.conftest import MINIMAL_MANIFEST, REPO

# 9 levels of 9 aliases: ~387 million strings once expanded (24 GB as Python lists).
BOMB = "l: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n" + "".join(
    f"l{i}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))


def opkg_limited(*args, cwd):
    """The real CLI with a 1 GiB address-space cap, so a regression fails fast instead of
    taking the machine down with it."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, preexec_fn=cap)


def manifest(extra: str = "") -> str:
    return MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]") + extra


def assert_refused(r, file: str, line: int, message: str, hint: str):
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    first = r.stderr.strip().splitlines()[0]
    assert f"{file}:{line}:" in first and message in first, r.stderr
    assert "hint: " in r.stderr and hint in r.stderr.split("hint: ", 1)[1]


def test_alias_bomb_in_a_manifest_is_refused_without_expanding_it(workspace):
    assert len(BOMB) < 400
    workspace.operator("addone", manifest=manifest("x_bomb:\n" + "".join(
        "  " + line + "\n" for line in BOMB.splitlines())))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    bomb_line = manifest().count("\n") + 1 + 6   # the level whose expansion crosses the cap
    assert_refused(r, "packages/addone/opkg.yaml", bomb_line, "expands to more than 100000 values",
                   "YAML aliases (*name) are copied at every use")


def test_alias_bomb_in_the_workspace_file_is_refused(workspace):
    (workspace.root / "opkg-workspace.yaml").write_text(
        "package_roots: [packages]\n" + BOMB)
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert_refused(r, "opkg-workspace.yaml", 7, "expands to more than", "aliases")


def test_alias_bomb_in_the_soc_table_is_refused(workspace):
    workspace.operator("addone")
    table = (REPO / "toolchains" / "socs.yaml").read_text()
    workspace.write("toolchains/socs.yaml", table + "\n" + BOMB)
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert_refused(r, "toolchains/socs.yaml", table.count("\n") + 1 + 6, "expands to more than",
                   "aliases")


def test_alias_bomb_in_the_pins_file_is_refused(workspace):
    workspace.operator("addone")
    workspace.write("toolchains/pins.yaml", BOMB)
    r = opkg_limited("lock", cwd=workspace.root)
    assert_refused(r, "toolchains/pins.yaml", 6, "expands to more than", "aliases")


def test_deeply_nested_deps_are_refused_not_a_recursion_error(workspace):
    workspace.operator("addone", manifest=manifest().replace(
        "deps: []", "deps: " + "[" * 5000 + "]" * 5000))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    line = manifest().splitlines().index("deps: []") + 1
    assert_refused(r, "packages/addone/opkg.yaml", line, "nesting deeper than 64 levels",
                   "flatten the structure")


def test_recursive_alias_is_refused(workspace):
    workspace.operator("addone", manifest=manifest("loop: &x [a, *x]\n"))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert_refused(r, "packages/addone/opkg.yaml", manifest().count("\n") + 1,
                   "alias *x refers to a value that contains it", "write the value out")


def test_a_huge_manifest_is_refused_before_it_is_parsed(workspace):
    workspace.operator("addone", manifest=manifest("# " + "x" * (2 << 20) + "\n"))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "packages/addone/opkg.yaml: error: file is larger than 1 MiB" in r.stderr


@pytest.mark.parametrize("value, message", [
    ("!!python/object:os.system x", "could not determine a constructor"),
    ("2001-02-30", "day is out of range"),
])
def test_unreadable_scalars_name_their_place(workspace, value, message):
    workspace.operator("addone", manifest=manifest().replace("summary: a test operator",
                                                             f"summary: {value}"))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert_refused(r, "packages/addone/opkg.yaml", 3, message, "quote it")


def test_a_control_character_names_its_place(workspace):
    workspace.operator("addone", manifest=manifest().replace("a test operator", "a test\x1f"))
    r = opkg_limited("query", "packages", cwd=workspace.root)
    assert_refused(r, "packages/addone/opkg.yaml", 3, "invalid YAML: control character U+001F",
                   "printable text only")


def test_moderate_aliases_still_work(workspace):
    text = manifest().replace("formats: [ND]}\n  outputs", "formats: &nd [ND]}\n  outputs")
    text = text.replace("{name: z, dtypes: [float32, float16], formats: [ND]}",
                        "{name: z, dtypes: [float32, float16], formats: *nd}")
    workspace.operator("addone", manifest=text)
    pkg = workspace.load().packages["//packages/addone"]
    assert pkg.op.outputs[0].formats == ("ND",)
