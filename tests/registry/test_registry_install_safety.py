"""`opkg install` into a directory that holds other things: it never overwrites what opkg did
not install (unless --force), never writes or deletes outside DEST through a symbolic link, and
never trusts a receipt that names files outside DEST."""

from __future__ import annotations

import json

import pytest

from opkg.registry.publish import publish_bundles
from opkg.registry.store import Store

SOC = ("--soc", "Ascend910B1")


@pytest.fixture
def published(bundles, registry):
    publish_bundles(Store(registry), [bundles(version="1.0.0", subdir="a",
                                              extra_files={"lib/old_helper.so": b"old"})])
    publish_bundles(Store(registry), [bundles(version="1.1.0", subdir="b")])
    return registry


def install(run_opkg, registry, dest, *extra, spec="add_custom"):
    return run_opkg("install", spec, *SOC, "--dest", dest, "--registry", registry, *extra)


def files_under(path):
    return sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())


def test_a_users_file_inside_dest_is_not_overwritten(published, run_opkg, tmp_path):
    dest = tmp_path / "ops"
    mine = dest / "add_custom" / "opkg.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text("my own notes\n")
    code, out, err = install(run_opkg, published, dest)
    assert code == 1, out + err
    assert "would overwrite files it does not own" in err
    assert "add_custom/opkg.yaml (not installed by opkg)" in err
    assert "hint: use another --dest, or --force to overwrite" in err
    assert mine.read_text() == "my own notes\n"
    assert files_under(dest) == ["add_custom/opkg.yaml"]
    code, out, err = install(run_opkg, published, dest, "--force")
    assert code == 0, err
    assert "warning: --force: overwrote 1 file(s) owned by others" in err
    assert mine.read_text() != "my own notes\n"


def test_an_install_killed_before_its_receipt_is_redone_without_force(published, run_opkg,
                                                                      tmp_path):
    dest = tmp_path / "ops"
    assert install(run_opkg, published, dest)[0] == 0
    (dest / ".opkg" / "installed" / "add_custom.json").unlink()   # files placed, no receipt
    code, out, err = install(run_opkg, published, dest)
    assert code == 0 and "installed add_custom 1.1.0" in out, err


@pytest.mark.parametrize("link", ["add_custom", "add_custom/lib", ".opkg", ".opkg/installed"])
def test_a_link_below_dest_is_never_followed(published, run_opkg, tmp_path, link):
    dest, outside = tmp_path / "ops", tmp_path / "outside"
    outside.mkdir()
    (dest / link).parent.mkdir(parents=True, exist_ok=True)
    (dest / link).symlink_to(outside)
    code, out, err = install(run_opkg, published, dest)
    assert code == 1, out + err
    assert f"{dest / link} is a symbolic link (to {outside})" in err, err
    assert "hint: opkg never follows links out of DEST" in err
    assert files_under(outside) == []


def test_a_receipt_naming_a_file_outside_dest_is_refused(published, run_opkg, tmp_path):
    dest, victim = tmp_path / "ops", tmp_path / "victim" / "data.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    assert install(run_opkg, published, dest, spec="add_custom==1.0.0")[0] == 0
    receipt = dest / ".opkg" / "installed" / "add_custom.json"
    data = json.loads(receipt.read_text())
    data["files"]["../victim/data.txt"] = data["files"].pop("add_custom/lib/old_helper.so")
    receipt.write_text(json.dumps(data))
    code, out, err = install(run_opkg, published, dest)   # the upgrade to 1.1.0
    assert code == 1, out + err
    assert "add_custom.json: malformed install receipt: file '../victim/data.txt' is not a " \
           "plain path inside the install directory" in err
    assert "hint: it was edited or damaged" in err
    assert victim.read_text() == "precious\n"


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d.update(files=[]), "expected an object with 'files'"),
    (lambda d: d["files"].update({"/etc/passwd": "sha256:" + "0" * 64}), "'/etc/passwd'"),
    (lambda d: d["files"].update({"add_custom/./x": "sha256:" + "0" * 64}), "'add_custom/./x'"),
    (lambda d: d["files"].update({"add_custom/x": "md5"}), "not a sha256 digest"),
    (lambda d: d.update(name="other"), "names package 'other'"),
])
def test_other_malformed_receipts_are_refused(published, run_opkg, tmp_path, edit, problem):
    dest = tmp_path / "ops"
    assert install(run_opkg, published, dest, spec="add_custom==1.0.0")[0] == 0
    receipt = dest / ".opkg" / "installed" / "add_custom.json"
    data = json.loads(receipt.read_text())
    edit(data)
    receipt.write_text(json.dumps(data))
    code, out, err = install(run_opkg, published, dest)
    assert code == 1 and "Traceback" not in err, err
    assert "malformed install receipt" in err and problem in err, err
