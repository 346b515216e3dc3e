"""The command line as a user meets it: exit codes, messages, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema

from tests.conftest import REPO


def opkg(*args, cwd):
    return subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def test_help_teaches_and_is_cheap(tmp_path):
    r = opkg("--help", cwd=tmp_path)
    assert r.returncode == 0
    assert "opkg build packages/layernorm" in r.stdout
    for command in ("build", "test", "query", "clean"):
        assert command in r.stdout
    # --help must not import NumPy or SCons (start-up time)
    probe = subprocess.run([sys.executable, "-c", "import sys; from opkg.cli import main;\n"
                            "sys.argv=['opkg','--help']\ntry: main()\nexcept SystemExit: pass\n"
                            "print(sorted(m for m in ('numpy','SCons','yaml','jinja2') "
                            "if m in sys.modules))"], capture_output=True, text=True)
    assert probe.stdout.strip().splitlines()[-1] == "[]"


def test_build_help_has_examples(tmp_path):
    r = opkg("build", "--help", cwd=tmp_path)
    assert r.returncode == 0 and "Examples:" in r.stdout and "--keep-going" in r.stdout


def _commands():
    import importlib

    import click

    from opkg.cli import COMMANDS

    def walk(cmd, path):
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                yield from walk(sub, f"{path} {name}")

    for name, (ref, _) in sorted(COMMANDS.items()):
        module, attr = ref.split(":")
        yield from walk(getattr(importlib.import_module(module), attr), f"opkg {name}")


def test_every_command_and_subcommand_help_has_examples():
    import click

    missing = [path for path, cmd in _commands()
               if "Examples:" not in cmd.get_help(click.Context(cmd, info_name=path))]
    assert missing == []


def test_outside_a_workspace(tmp_path):
    r = opkg("query", "packages", cwd=tmp_path)
    assert r.returncode == 2
    assert "no opkg-workspace.yaml" in r.stderr and "hint:" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_manifest_exits_2_with_location(workspace):
    path = workspace.operator("addone")
    path.write_text(path.read_text().replace("float16]", "flaot16]", 1))
    r = opkg("build", "//...", cwd=workspace.root)
    assert r.returncode == 2
    assert r.stderr.startswith("packages/addone/opkg.yaml:7:35: error: op.inputs[0].dtypes[1]")
    assert "did you mean 'float16'?" in r.stderr and "did you mean 'float16'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_target_and_bad_flag(workspace):
    workspace.operator("addone")
    r = opkg("build", "//packages/adone", cwd=workspace.root)
    assert r.returncode == 2 and "matches no package" in r.stderr and "addone" in r.stderr
    r = opkg("build", "--jobs", "0", cwd=workspace.root)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_query_commands(workspace):
    workspace.library("common")
    workspace.operator("addone", deps=["//packages/common"])
    r = opkg("query", "deps", "packages/addone", cwd=workspace.root)
    assert r.returncode == 0 and r.stdout.split() == ["//packages/common"]
    r = opkg("query", "rdeps", "//packages/common", "--json", cwd=workspace.root)
    assert json.loads(r.stdout) == {"schema_version": 1, "labels": ["//packages/addone"]}
    r = opkg("query", "packages", "--json", cwd=workspace.root)
    data = {p["name"]: p for p in json.loads(r.stdout)["packages"]}
    assert data["addone"]["variants"] == ["float32", "float16"]
    assert data["common"]["kind"] == "library"
    r = opkg("query", "deps", "//...", cwd=workspace.root)
    assert r.returncode == 2 and "name exactly one" in r.stderr


def test_clean_never_deletes_what_opkg_did_not_create(workspace):
    workspace.operator("addone")
    for setting in ("packages", ".", "packages/addone/out"):
        (workspace.root / "opkg-workspace.yaml").write_text(f"output_dir: {setting}\n")
        r = opkg("clean", cwd=workspace.root)
        assert r.returncode == 2, (setting, r.stderr)
        assert "opkg-workspace.yaml:1:13: error: output_dir" in r.stderr
    assert (workspace.root / "packages/addone/opkg.yaml").is_file()
    victim = workspace.root.parent / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    (workspace.root / "opkg-workspace.yaml").write_text(f"output_dir: {victim}\n")
    r = opkg("clean", cwd=workspace.root)
    assert r.returncode == 2 and "refusing to delete" in r.stderr
    assert (victim / "precious.txt").read_text() == "keep me"


def test_package_roots_outside_the_workspace(workspace):
    (workspace.root / "opkg-workspace.yaml").write_text("package_roots: [../]\n")
    r = opkg("query", "packages", cwd=workspace.root)
    assert r.returncode == 2 and "outside the workspace" in r.stderr
    assert "Traceback" not in r.stderr


def test_nothing_to_build_and_unknown_soc(workspace):
    workspace.library("common")
    r = opkg("build", "packages/common", cwd=workspace.root)
    assert r.returncode == 0 and "nothing to build" in r.stdout and "library" in r.stdout
    workspace.operator("addone")
    r = opkg("build", "--soc", "Ascend910B9", cwd=workspace.root)
    assert r.returncode == 2 and "unknown SoC 'Ascend910B9'" in r.stderr
    r = opkg("build", "--soc", "Ascend310P3", cwd=workspace.root)
    assert r.returncode == 2 and "no selected package declares Ascend310P3" in r.stderr


def test_errors_with_json_are_json_on_stdout(workspace):
    workspace.operator("addone")
    r = opkg("build", "//packages/nope", "--json", cwd=workspace.root)
    assert r.returncode == 2
    data = json.loads(r.stdout)
    assert data["ok"] is False and data["error"]["kind"] == "LabelError"
    assert "matches no package" in data["error"]["message"] and data["error"]["hint"]


def test_file_system_errors_are_reported_not_raised(workspace, tmp_path):
    workspace.operator("addone")
    (workspace.root / "out").write_text("not a directory")
    r = opkg("build", "//...", cwd=workspace.root)
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr
    assert f"output_dir {workspace.root / 'out'} overlaps an existing file" in r.stderr


def test_every_manifest_error_at_once(workspace):
    """As a compiler: every error of every manifest, each at file:line with its hint, then a
    count; not one per run. JSON lists them all, CI gets one annotation each."""
    a = workspace.operator("addone")
    a.write_text(a.read_text().replace("version: 1.0.0", "version: 1.0.x")
                 .replace("summary:", "sumary:").replace("x: [4, 64]", "x: [4, -64]"))
    b = workspace.operator("subone", op_type="SubOne")
    b.write_text(b.read_text().replace("float16]", "flaot16]", 1)
                 .replace("[Ascend910B1]", "[Ascend910B1, Ascend91B4]"))
    r = opkg("build", "//...", cwd=workspace.root)
    assert r.returncode == 2
    lines = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert [l.split(": error: ")[0] for l in lines] == [
        "packages/addone/opkg.yaml:2:10", "packages/addone/opkg.yaml:3:1",
        "packages/addone/opkg.yaml:22:37", "packages/subone/opkg.yaml:7:35",
        "packages/subone/opkg.yaml:17:21"]
    assert "did you mean 'summary'?" in r.stderr and "did you mean 'float16'?" in r.stderr
    assert "did you mean 'Ascend910B4'?" in r.stderr
    assert r.stderr.rstrip().endswith("5 errors in 2 files")
    data = json.loads(opkg("build", "//...", "--json", cwd=workspace.root).stdout)
    schema = json.loads((REPO / "docs/schema/error.schema.json").read_text())
    jsonschema.validate(data, schema)
    assert [(e["file"].rsplit("/", 2)[-2], e["line"]) for e in data["error"]["errors"]] == [
        ("addone", 2), ("addone", 3), ("addone", 22), ("subone", 7), ("subone", 17)]
    r = opkg("build", "//...", "--annotations", "github", cwd=workspace.root)
    assert sum(l.startswith("::error file=packages/") for l in r.stderr.splitlines()) == 5


def test_a_package_name_used_twice_is_reported_with_other_errors(workspace):
    workspace.operator("addone")
    twin = workspace.operator("twin", op_type="Twin")
    twin.write_text(twin.read_text().replace("name: twin", "name: addone"))
    broken = workspace.operator("broken", op_type="Broken")
    broken.write_text(broken.read_text().replace("op_host/op.cpp]", "op_host/nope.cpp]"))
    r = opkg("query", "packages", cwd=workspace.root)
    assert r.returncode == 2
    assert "packages/broken/opkg.yaml:13:13: error: tiling.sources[0]: file not found" in r.stderr
    assert ("packages/twin/opkg.yaml:1:7: error: name: package name 'addone' is already used by "
            "//packages/addone") in r.stderr
    assert r.stderr.rstrip().endswith("2 errors in 2 files")


def test_did_you_mean_compares_names_and_suggests_what_works(workspace):
    workspace.operator("addone")
    workspace.operator("softmax", op_type="Softmax")
    # the shared '//packages/' prefix made any unknown label look like some package
    r = opkg("build", "//packages/gelu", cwd=workspace.root)
    assert r.returncode == 2 and "did you mean" not in r.stderr
    r = opkg("build", "//packages/sofmax", cwd=workspace.root)
    assert "did you mean '//packages/softmax'?" in r.stderr
    r = opkg("build", "packages/adone", cwd=workspace.root)
    assert "did you mean '//packages/addone'?" in r.stderr
    r = opkg("build", "adone", cwd=workspace.root)
    assert "did you mean 'addone'?" in r.stderr
    # a SoC suggestion the packages declare, never one that fails next
    r = opkg("build", "--soc", "Ascend910b1", cwd=workspace.root)
    assert "did you mean 'Ascend910B1'?" in r.stderr
    r = opkg("build", "--soc", "Ascend910b4", cwd=workspace.root)
    assert r.returncode == 2 and "Ascend910B4" not in r.stderr
    assert "the selected packages declare: Ascend910B1" in r.stderr
    # commands are loaded lazily: click still suggests among them
    r = opkg("buidl", cwd=workspace.root)
    assert r.returncode == 2 and "Did you mean 'build'?" in r.stderr


def test_lock_clean_and_new_print_json_with_schema_version(workspace):
    """Every command that prints JSON carries schema_version (docs/schema/README.md)."""
    root = workspace.root
    r = opkg("new", "my_add", "--op-type", "MyAdd", "--json", cwd=root)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["schema_version"] == 1 and data["created"] == "packages/my_add"
    assert "opkg.yaml" in data["files"] and data["next"] == "opkg build packages/my_add"
    r = opkg("lock", "--json", cwd=root)
    data = json.loads(r.stdout)
    assert r.returncode == 0 and data["schema_version"] == 1 and data["written"] is True
    assert [(t["package"], t["soc"], t["toolchain"]) for t in data["targets"]] == [
        ("//packages/my_add", "Ascend910B1", "sim")]
    data = json.loads(opkg("lock", "--check", "--json", cwd=root).stdout)
    assert data["check"] is True and data["written"] is False
    (root / "out" / ".opkg").mkdir(parents=True)
    data = json.loads(opkg("clean", "--json", cwd=root).stdout)
    assert data == {"schema_version": 1, "removed": [str(root / "out")], "absent": []}
    data = json.loads(opkg("clean", "--json", cwd=root).stdout)
    assert data["removed"] == [] and data["absent"] == [str(root / "out")]


def test_reading_the_workspace_file_imports_no_registry_client(tmp_path):
    # The null-build fast path reads the workspace file on every build; the OCI client (and the
    # directory store it imports) are for registry commands only (docs/performance.md).
    (tmp_path / "opkg-workspace.yaml").write_text("package_roots: [packages]\n")
    probe = ("import sys; from pathlib import Path; from opkg.core.workspace import Workspace\n"
             "print(Workspace.find(Path(sys.argv[1])).settings.registry)\n"
             "print(sorted(m for m in ('opkg.registry.oci', 'opkg.registry.store') "
             "if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(tmp_path / "registry"), "[]"]
    # an oci:// registry is still checked when the file is read, at its line
    (tmp_path / "opkg-workspace.yaml").write_text("package_roots: [packages]\n"
                                                  "registry: oci://\n")
    r = opkg("query", "packages", cwd=tmp_path)
    assert r.returncode != 0
    assert "opkg-workspace.yaml:2" in r.stderr and "malformed host" in r.stderr
