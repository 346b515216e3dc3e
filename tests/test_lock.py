"""opkg.lock: format, merge, differences, `opkg lock` and the --locked check."""

from pathlib import Path

import pytest

from cann_standin import make_toolkit, make_workspace, use_stand_in_roots
from opkg.cli import main
from opkg.core.errors import ManifestError, ToolchainError
from opkg.toolchains import lock as lockfile
from opkg.toolchains.lock import LockEntry


def E(pkg, soc, tc="cann-8.0.RC2", v="8.0.RC2", fp="sha256:aa"):
    return LockEntry(pkg, soc, tc, v, fp)


def test_render_is_sorted_stable_and_round_trips(tmp_path):
    entries = [E("//packages/b", "Ascend910B1"), E("//packages/a", "Ascend310P3"),
               E("//packages/a", "Ascend910B1", "sim", "0.1.0", 'sha256:"q"')]
    text = lockfile.render(entries)
    assert text == lockfile.render(list(reversed(entries)))
    groups = text.split("\n\n")[1:]
    assert [g.splitlines()[1] for g in groups] == [
        'package = "//packages/a"', 'package = "//packages/a"', 'package = "//packages/b"']
    assert lockfile.parse(text, tmp_path / "opkg.lock") == sorted(entries)


def test_lock_is_valid_toml(tmp_path):
    import tomllib  # Python 3.11+; the lock stays plain TOML so other tools can read it
    data = tomllib.loads(lockfile.render([E("//packages/a", "Ascend910B1")]))
    assert data["version"] == 1 and data["target"][0]["toolchain"] == "cann-8.0.RC2"


@pytest.mark.parametrize("text, line", [
    ('version = 1\n[[target]]\npackage = "//p"\n', 2),
    ('version = 1\n[[target]]\npackage = //p\n', 3),
    ('version = 1\n[[target]]\nfoo = "x"\n', 3),
    ('package = "x"\n', 1),
])
def test_malformed_lock_names_the_line(tmp_path, text, line):
    with pytest.raises(ManifestError) as info:
        lockfile.parse(text, tmp_path / "opkg.lock")
    assert info.value.location.line == line and "opkg lock" in info.value.hint


def test_any_valid_toml_of_the_locks_shape_reads(tmp_path):
    """Hand-edited or tool-written TOML: literal strings, other spacing and order, comments
    after values, an inline array of tables; all read as the canonical file does."""
    canonical = lockfile.render([E("//packages/a", "Ascend910B1"),
                                 E("//packages/b", "Ascend310P3", "sim", "0.1.0", "sha256:bb")])
    edited = (
        "# edited by hand\nversion=1   # the format\n\n"
        "[[ target ]]\nsoc='Ascend910B1'\npackage   =   '//packages/a'\n"
        'toolchain = "cann-8.0.RC2"\nversion = """8.0.RC2"""\nfingerprint = "sha256:aa"\n')
    inline = ('version = 1\ntarget = [\n  {package = "//packages/b", soc = "Ascend310P3", '
              'toolchain = "sim", version = "0.1.0", fingerprint = "sha256:bb"},\n]\n')
    path = tmp_path / "opkg.lock"
    assert lockfile.parse(edited, path) + lockfile.parse(inline, path) == \
        lockfile.parse(canonical, path)
    # writing stays byte-for-byte deterministic whatever was read
    assert lockfile.render(lockfile.parse(edited, path) + lockfile.parse(inline, path)) == \
        canonical


@pytest.mark.parametrize("text, line, words", [
    ('version = 1\n\n[[target]]\npackage = "//p"\nsoc = "S"\nsoc = "T"\n', 6, "not valid TOML"),
    ('version = 1\n[[target]]\npackage = "//p"\nsoc = 3\ntoolchain = "sim"\n', 2,
     "soc must be a string"),
    ('version = 1\n[[target]]\n' + "".join(f'{f} = "x"\n' for f in lockfile.FIELDS)
     + '[[target]]\npackage = "//q"\n', 8, "lacks soc"),
])
def test_bad_lock_contents_name_the_line(tmp_path, text, line, words):
    with pytest.raises(ManifestError) as info:
        lockfile.parse(text, tmp_path / "opkg.lock")
    assert info.value.location.line == line and words in info.value.message


def test_wrong_format_version(tmp_path):
    with pytest.raises(ManifestError, match="lock format version '2'"):
        lockfile.parse("version = 2\n", tmp_path / "opkg.lock")


def test_merge_replaces_only_the_same_targets():
    old = [E("//p/a", "S1"), E("//p/b", "S1")]
    new = [E("//p/a", "S1", "cann-8.1.RC1", "8.1.RC1")]
    assert lockfile.merge(old, new) == [new[0], old[1]]


def test_differences_name_each_target():
    locked = [E("//p/a", "S1"), E("//p/b", "S1"), E("//p/c", "S1")]
    current = [E("//p/a", "S1"), E("//p/b", "S1", "cann-8.1.RC1", "8.1.RC1"),
               E("//p/c", "S1", fp="sha256:bb"), E("//p/d", "S1")]
    diffs = lockfile.differences(locked, current)
    assert diffs == [
        "//p/b (S1): locked cann-8.0.RC2 8.0.RC2, resolves to cann-8.1.RC1 8.1.RC1",
        diffs[1], "//p/d (S1): not in opkg.lock (resolves to cann-8.0.RC2)"]
    assert diffs[1].startswith("//p/c (S1): cann-8.0.RC2 fingerprint changed")


def test_verify_without_lock(tmp_path):
    with pytest.raises(ToolchainError, match="opkg.lock not found") as info:
        lockfile.verify(tmp_path / "opkg.lock", [E("//p/a", "S1")])
    assert info.value.exit_code == 3


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def cann_ws(tmp_path, monkeypatch):
    ascend = tmp_path / "Ascend"
    ascend.mkdir()
    use_stand_in_roots(monkeypatch, ascend)
    make_toolkit(ascend, "8.0.RC3")
    root = make_workspace(tmp_path / "ws", packages=("layernorm", "add_custom"))
    monkeypatch.chdir(root)
    return root, ascend


def test_opkg_lock_writes_checks_and_detects_drift(cann_ws, capsys):
    root, ascend = cann_ws
    code, out, err = run(capsys, "lock")
    assert code == 0, err
    text = (root / "opkg.lock").read_text()
    entries = lockfile.parse(text, root / "opkg.lock")
    assert [(e.package, e.soc, e.toolchain) for e in entries] == [
        ("//packages/add_custom", "Ascend310P3", "cann-8.0.RC3"),
        ("//packages/add_custom", "Ascend910B1", "cann-8.0.RC3"),
        ("//packages/layernorm", "Ascend310P3", "cann-8.0.RC3"),
        ("//packages/layernorm", "Ascend910B1", "cann-8.0.RC3")]
    assert all(e.fingerprint.startswith("sha256:") for e in entries)
    assert run(capsys, "lock")[1].startswith("opkg.lock is up to date")
    assert run(capsys, "lock", "--check")[0] == 0

    # A newer toolkit inside the pin changes resolution: --check names every target.
    make_toolkit(ascend, "8.1.RC1")
    code, _, err = run(capsys, "lock", "--check")
    assert code == 3
    assert ("//packages/layernorm (Ascend910B1): locked cann-8.0.RC3 8.0.RC3, resolves to "
            "cann-8.1.RC1 8.1.RC1") in err
    assert err.count("resolves to cann-8.1.RC1") == 4

    # Locking one package updates only its entries.
    code, out, _ = run(capsys, "lock", "packages/layernorm")
    assert code == 0 and "2 changed" in out
    after = {(e.package, e.soc): e.toolchain for e in lockfile.read(root / "opkg.lock")}
    assert after[("//packages/layernorm", "Ascend910B1")] == "cann-8.1.RC1"
    assert after[("//packages/add_custom", "Ascend910B1")] == "cann-8.0.RC3"


def test_lock_drops_entries_of_deleted_packages(cann_ws, capsys):
    import shutil

    root, ascend = cann_ws
    assert run(capsys, "lock")[0] == 0
    shutil.rmtree(root / "packages" / "add_custom")
    code, out, err = run(capsys, "lock")
    assert code == 0, err
    packages = {e.package for e in lockfile.read(root / "opkg.lock")}
    assert packages == {"//packages/layernorm"}


def test_fingerprint_drift_is_caught(cann_ws, capsys):
    root, ascend = cann_ws
    assert run(capsys, "lock")[0] == 0
    bisheng = ascend / "ascend-toolkit/8.0.RC3/compiler/ccec_compiler/bin/bisheng"
    bisheng.write_text("#!/bin/sh\n# a different compiler build\n")
    code, _, err = run(capsys, "lock", "--check")
    assert code == 3 and "fingerprint changed" in err


def test_lock_refuses_misaligned_resolution(cann_ws, capsys):
    root, _ = cann_ws
    code, _, err = run(capsys, "lock", "--toolchain", "cann-8.2.RC1")
    assert code == 3 and "cann-8.2.RC1 (--toolchain) is not installed" in err
    assert not (root / "opkg.lock").exists()


def test_verify_locked_for_build(cann_ws, capsys):
    from opkg.toolchains.alignment import check_alignment, lock_digest, verify_locked
    from opkg.core.workspace import Workspace

    root, ascend = cann_ws
    ws = Workspace.load(root)
    assert lock_digest(ws) is None
    run(capsys, "lock")
    res = check_alignment(ws, ws.select([]))
    verify_locked(ws, res)
    assert lock_digest(ws).startswith("sha256:")
    make_toolkit(ascend, "8.1.RC1")
    with pytest.raises(ToolchainError) as info:
        verify_locked(ws, check_alignment(ws, ws.select([])))
    assert "differs from opkg.lock" in info.value.message
    assert str(info.value.location.path) == str(root / "opkg.lock")


def test_sim_entries_use_the_sim_identity(tmp_path, monkeypatch, capsys):
    from opkg.toolchains.alignment import check_alignment
    from opkg.core.workspace import Workspace

    use_stand_in_roots(monkeypatch, tmp_path / "none")
    ws = Workspace.load(make_workspace(tmp_path / "ws"))
    res = check_alignment(ws, ws.select([]))
    entries = lockfile.entries_from(res, sim_identity=lambda: ("0.1.0", "sha256:sim"))
    assert {(e.toolchain, e.version, e.fingerprint) for e in entries} == {
        ("sim", "0.1.0", "sha256:sim")}


def test_preflight_refuses_misalignment_and_lock_drift(cann_ws, capsys):
    from opkg.toolchains.alignment import preflight, toolchain_for
    from opkg.core.workspace import Workspace

    root, ascend = cann_ws
    ws = Workspace.load(root)
    pkgs = ws.select([])
    res = preflight(ws, pkgs)
    assert res.choice("//packages/layernorm", "Ascend910B1").toolchain == "cann-8.0.RC3"
    assert toolchain_for(ws, ws.packages["//packages/layernorm"], "Ascend310P3") == "cann-8.0.RC3"
    with pytest.raises(ToolchainError, match="opkg.lock not found"):
        preflight(ws, pkgs, locked=True)
    run(capsys, "lock")
    preflight(ws, pkgs, locked=True)
    with pytest.raises(ToolchainError, match="cann-8.2.RC1 \\(--toolchain\\) is not installed"):
        preflight(ws, pkgs, toolchain="cann-8.2.RC1")
    with pytest.raises(ToolchainError, match="not installed"):
        toolchain_for(ws, ws.packages["//packages/layernorm"], "Ascend910B1", "cann-8.2.RC1")
