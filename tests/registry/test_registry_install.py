"""install: version selection, digest checks before unpacking, safe unpacking, layout.
Selection and the digest checks run against every registry backend (`any_store`); unpacking
and the runtime checks do not depend on the backend and run on the directory one."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from opkg.core.bundle import FIXED_MTIME
from opkg.core.errors import RegistryError, ToolchainError, UsageError
from opkg.registry.install import install, parse_requirement
from opkg.registry.publish import publish_bundles
from opkg.registry.store import Store
from opkg.registry.records import canonical_json, index_add
from opkg.registry.yank import yank
from registry_testlib import cann_standin


@pytest.fixture
def store(registry):
    return Store(registry)


@pytest.fixture
def any_store(backend):
    return backend.open()


def publish(store, bundles, *versions, **kw):
    for v in versions:
        publish_bundles(store, [bundles(version=v, subdir=v, **kw)])


def test_picks_highest_matching_version(any_store, bundles, tmp_path):
    publish(any_store, bundles, "1.0.0", "1.2.0", "2.0.0")
    dest = tmp_path / "ops"
    assert install(any_store, "add_custom", soc="Ascend910B1", dest=dest).version == "2.0.0"
    assert install(any_store, "add_custom<2", soc="Ascend910B1", dest=dest).version == "1.2.0"
    assert install(any_store, "add_custom~=1.0.0", soc="Ascend910B1", dest=dest).version == "1.0.0"


def test_prerelease_only_when_asked(any_store, bundles, tmp_path):
    publish(any_store, bundles, "1.0.0", "1.1.0rc1")
    dest = tmp_path / "ops"
    assert install(any_store, "add_custom", soc="Ascend910B1", dest=dest).version == "1.0.0"
    assert install(any_store, "add_custom>=1.1.0rc1", soc="Ascend910B1", dest=dest).version == "1.1.0rc1"


def test_yanked_skipped_unless_pinned_exactly(any_store, bundles, tmp_path):
    publish(any_store, bundles, "1.0.0", "1.1.0")
    yank(any_store, "add_custom", "1.1.0", "wrong results")
    dest = tmp_path / "ops"
    r = install(any_store, "add_custom", soc="Ascend910B1", dest=dest)
    assert r.version == "1.0.0" and r.warnings == [
        "add_custom 1.0.0 (Ascend910B1/sim) is a sim bundle: its libraries run the kernel on the "
        "CPU emulation and hold no device binary, so nothing of it runs on an NPU; for that, "
        "publish and install a bundle built with CANN (--toolchain cann-<version>; `opkg info "
        "add_custom` lists the bundles)"]
    with pytest.raises(RegistryError, match=r"add_custom: every published version matching "
                       r">=1.1 is yanked \(1.1.0\)") as exc:
        install(any_store, "add_custom>=1.1", soc="Ascend910B1", dest=dest)
    assert "pinned exactly, with a warning: add_custom==1.1.0" in exc.value.hint
    assert "`opkg info add_custom` says why" in exc.value.hint
    r = install(any_store, "add_custom==1.1.0", soc="Ascend910B1", dest=dest)
    assert r.version == "1.1.0"
    assert r.warnings and "yanked: wrong results" in r.warnings[0]


def test_bad_requirements(any_store, bundles, tmp_path):
    publish(any_store, bundles, "1.0.0")
    with pytest.raises(UsageError, match="unknown version spec"):
        install(any_store, "add_custom=>1", soc="Ascend910B1", dest=tmp_path)
    with pytest.raises(UsageError):
        parse_requirement("")
    with pytest.raises(RegistryError, match="no package 'add_custon'") as exc:
        install(any_store, "add_custon", soc="Ascend910B1", dest=tmp_path)
    assert exc.value.hint == "did you mean 'add_custom'?"
    with pytest.raises(RegistryError, match="no version matches") as exc:
        install(any_store, "add_custom==3.0", soc="Ascend910B1", dest=tmp_path)
    assert "published: 1.0.0" in exc.value.hint


def test_soc_and_toolchain_selection(any_store, bundles, tmp_path):
    publish_bundles(any_store, [bundles(version="1.0.0", subdir="a"),
                            bundles(version="1.0.0", soc="Ascend310P3", subdir="a")])
    publish_bundles(any_store, [bundles(version="2.0.0", soc="Ascend310P3", subdir="b")])
    dest = tmp_path / "ops"
    # the highest version lacks the SoC: fall back to the highest that has it, like pip
    assert install(any_store, "add_custom", soc="Ascend910B1", dest=dest).version == "1.0.0"
    with pytest.raises(RegistryError, match="has a bundle for Ascend910B4") as exc:
        install(any_store, "add_custom", soc="Ascend910B4", dest=dest)
    assert "2.0.0: Ascend310P3/sim" in exc.value.hint
    with pytest.raises(RegistryError, match="Ascend910B1/cann-8.0.RC2"):
        install(any_store, "add_custom", soc="Ascend910B1", toolchain="cann-8.0.RC2", dest=dest)


def test_ambiguous_toolchain_asks_for_one(any_store, bundles, tmp_path):
    publish_bundles(any_store, [bundles(subdir="a"), bundles(toolchain="cann-8.0.RC2", subdir="a")])
    with pytest.raises(UsageError, match="several toolchains: cann-8.0.RC2, sim"):
        install(any_store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops")
    r = install(any_store, "add_custom", soc="Ascend910B1", toolchain="sim", dest=tmp_path / "ops")
    assert r.toolchain == "sim"


def test_layout_receipt_and_noop(any_store, bundles, tmp_path):
    publish(any_store, bundles, "1.0.0")
    dest = tmp_path / "ops"
    r = install(any_store, "add_custom", soc="Ascend910B1", dest=dest)
    assert r.status == "installed"
    assert (dest / "add_custom" / "lib" / "libadd_custom_float32.so").is_file()
    assert json.loads((dest / "add_custom" / "opkg-bundle.json").read_text())["version"] == "1.0.0"
    receipt = json.loads((dest / ".opkg" / "installed" / "add_custom.json").read_text())
    assert receipt["version"] == "1.0.0" and "add_custom/opkg.yaml" in receipt["files"]
    lib = dest / "add_custom" / "lib" / "libadd_custom_float32.so"
    mtime = lib.stat().st_mtime_ns
    assert install(any_store, "add_custom", soc="Ascend910B1", dest=dest).status == "unchanged"
    assert lib.stat().st_mtime_ns == mtime
    # a damaged install is not "the same thing": it is reinstalled
    lib.write_bytes(b"edited")
    assert install(any_store, "add_custom", soc="Ascend910B1", dest=dest).status == "installed"
    assert lib.read_bytes() != b"edited"
    assert not list((dest / ".opkg").glob("tmp-*"))


def test_upgrade_removes_files_the_new_version_lacks(any_store, bundles, tmp_path):
    publish_bundles(any_store, [bundles(version="1.0.0", subdir="a",
                                    extra_files={"lib/old_helper.so": b"old"})])
    publish(any_store, bundles, "1.1.0")
    dest = tmp_path / "ops"
    install(any_store, "add_custom==1.0.0", soc="Ascend910B1", dest=dest)
    assert (dest / "add_custom" / "lib" / "old_helper.so").exists()
    install(any_store, "add_custom", soc="Ascend910B1", dest=dest)
    assert not (dest / "add_custom" / "lib" / "old_helper.so").exists()


def test_tampered_blob_is_refused_before_unpacking(backend, bundles, tmp_path):
    store = backend.open()
    publish_bundles(store, [bundles()])
    record = store.read_record("add_custom", "1.0.0")
    # a different but valid bundle under the old name: only the digest can tell
    backend.damage_blob(record["bundles"][0]["blob"],
                        bundles(payload=b"evil kernel", subdir="evil").read_bytes())
    dest = tmp_path / "ops"
    with pytest.raises(RegistryError, match="does not match its published digest"):
        install(store, "add_custom", soc="Ascend910B1", dest=dest)
    assert not (dest / "add_custom").exists()
    assert not (dest / ".opkg" / "installed" / "add_custom.json").exists()


def test_truncated_blob_is_refused_before_unpacking(backend, bundles, tmp_path):
    store = backend.open()
    b = bundles()
    publish_bundles(store, [b])
    record = store.read_record("add_custom", "1.0.0")
    backend.damage_blob(record["bundles"][0]["blob"], b.read_bytes()[:200])
    dest = tmp_path / "ops"
    with pytest.raises(RegistryError, match="does not match its published digest"):
        install(store, "add_custom", soc="Ascend910B1", dest=dest)
    assert not (dest / "add_custom").exists()


def test_tampered_record_is_refused(store, bundles, tmp_path):
    publish(store, bundles, "1.0.0")
    path = store.records / "add_custom" / "1.0.0.json"
    record = json.loads(path.read_text())
    record["bundles"][0]["verification"]["passed"] = True
    record["summary"] = "now with extra trust"
    path.chmod(0o644)
    path.write_bytes(canonical_json(record))
    with pytest.raises(RegistryError, match="does not match the digest in the index"):
        install(store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops")


def _publish_raw(store, name, version, tar_bytes):
    """Put an arbitrary archive into the registry as if it were a published bundle, with a
    correct digest: the installer's own checks must stop it, not the digest check."""
    digest, size = store.put_blob(data=tar_bytes)
    record = {"format": 1, "name": name, "version": version, "summary": "", "op": None,
              "socs": ["Ascend910B1"],
              "bundles": [{"soc": "Ascend910B1", "toolchain": {"id": "sim"}, "blob": digest,
                           "size": size, "variants": []}],
              "published": {}}
    store.ensure_writable()
    _, rec_digest = store.commit_record(name, version, record)
    store.update_index(lambda index: index_add(index, record, rec_digest))


def _tar(*members) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        meta = json.dumps({"format": 1, "name": "evil", "version": "1.0.0", "soc": "Ascend910B1",
                           "toolchain": {"id": "sim"}}).encode()
        info = tarfile.TarInfo("opkg-bundle.json")
        info.size, info.mtime = len(meta), FIXED_MTIME
        tar.addfile(info, io.BytesIO(meta))
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return raw.getvalue()


def _member(name, type_=tarfile.REGTYPE, data=b"x", linkname=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = type_, linkname
    info.size = len(data) if type_ == tarfile.REGTYPE else 0
    return info, (data if type_ == tarfile.REGTYPE else None)


@pytest.mark.parametrize("member,why", [
    (_member("/etc/evil"), "unsafe path"),
    (_member("../../evil"), "unsafe path"),
    (_member("lib/../../evil"), "unsafe path"),
    (_member("lib/link", tarfile.SYMTYPE, linkname="/etc/passwd"), "link or device"),
    (_member("lib/hard", tarfile.LNKTYPE, linkname="opkg-bundle.json"), "link or device"),
    (_member("lib/dev", tarfile.CHRTYPE), "link or device"),
    (_member("lib/fifo", tarfile.FIFOTYPE), "link or device"),
])
def test_unsafe_archives_are_refused(store, tmp_path, member, why):
    _publish_raw(store, "evil", "1.0.0", _tar(member))
    dest = tmp_path / "ops"
    with pytest.raises(RegistryError, match=why):
        install(store, "evil", soc="Ascend910B1", dest=dest)
    # Refused before anything was unpacked: no file anywhere under DEST, none beside it.
    assert not [p for p in dest.rglob("*") if p.is_file()]
    assert not (tmp_path / "evil").exists() and not Path("/etc/evil").exists()


CANN_FILES = {
    "opp/vendors/opkg_add_custom/op_impl/ai_core/tbe/kernel/ascend910b/add_custom.o": b"obj",
    "opp/vendors/opkg_add_custom/op_proto/lib/linux/x86_64/libcust_opsproto_rt2.0.so": b"so",
    "opp/vendors/opkg_add_custom/version.info": b"custom_opp_compiler_version=8.0.RC2\n",
}


def test_cann_bundle_lands_where_ascend_custom_opp_path_expects(store, bundles, tmp_path):
    publish_bundles(store, [bundles(toolchain="cann-8.0.RC2", extra_files=CANN_FILES)])
    seen = []
    r = install(store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops",
                runtime_check=lambda pkg, tc, soc, pin: seen.append((pkg, tc["id"], soc, pin)))
    assert seen == [("add_custom", "cann-8.0.RC2", "Ascend910B1", None)]
    vendor = tmp_path / "ops" / "vendors" / "opkg_add_custom"
    assert (vendor / "op_impl/ai_core/tbe/kernel/ascend910b/add_custom.o").read_bytes() == b"obj"
    assert not (tmp_path / "ops" / "add_custom" / "opp").exists()
    assert r.env == {"ASCEND_CUSTOM_OPP_PATH": f"{vendor.resolve()}:${{ASCEND_CUSTOM_OPP_PATH}}"}


def test_cann_bundle_refused_when_the_machine_cannot_run_it(store, bundles, tmp_path):
    publish_bundles(store, [bundles(toolchain="cann-8.2.RC1", extra_files=CANN_FILES)])

    def too_old(pkg, tc, soc, pin):
        raise ToolchainError("CANN 8.2.RC1 needs driver >= 25.0.rc1; found 24.1.rc2")
    with pytest.raises(ToolchainError) as exc:
        install(store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops",
                runtime_check=too_old)
    assert exc.value.exit_code == 3
    assert not (tmp_path / "ops" / "vendors").exists()
    r = install(store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops",
                runtime_check=too_old, force=True)
    assert r.status == "installed" and "--force" in r.warnings[0]
    assert not any("sim bundle" in w for w in r.warnings)     # a CANN bundle: no such warning


def test_two_packages_may_not_overwrite_each_others_files(store, bundles, tmp_path):
    publish_bundles(store, [bundles(toolchain="cann-8.0.RC2", extra_files=CANN_FILES),
                            bundles(name="other", toolchain="cann-8.0.RC2",
                                    extra_files=CANN_FILES)])
    ok = lambda pkg, tc, soc, pin: None  # noqa: E731
    dest = tmp_path / "ops"
    install(store, "add_custom", soc="Ascend910B1", dest=dest, runtime_check=ok)
    with pytest.raises(RegistryError, match="installed by add_custom"):
        install(store, "other", soc="Ascend910B1", dest=dest, runtime_check=ok)
    assert not (dest / "other").exists()


# -- the real runtime check, against stand-in CANN installs (tests/cann_standin.py) ----------

@pytest.mark.parametrize("toolkits,driver,bundle_tc,pin,error", [
    (["8.0.RC2"], "24.1.rc2", "cann-8.0.RC2", None, None),
    (["8.1.RC1"], "24.1.rc2", "cann-8.0.RC2", None, "cann-8.0.RC2 (the bundle) is not installed"),
    (["8.2.RC1"], "24.1.rc2", "cann-8.2.RC1", None, "CANN 8.2.RC1 needs driver>=25.0.rc1"),
    (["8.0.RC2"], None, "cann-8.0.RC2", None, "no NPU driver found"),
    (["8.0.RC2"], "24.1.rc2", "cann-8.0.RC2", ">=25.0.rc1", "add_custom pins driver>=25.0.rc1"),
])
def test_default_runtime_check_on_stand_in_installs(store, bundles, tmp_path, monkeypatch,
                                                    toolkits, driver, bundle_tc, pin, error):
    standin = cann_standin()
    root = tmp_path / "Ascend"
    for v in toolkits:
        standin.make_toolkit(root, v)
    if driver:
        standin.make_driver(root, driver)
    standin.use_stand_in_roots(monkeypatch, root)
    manifest = "name: add_custom\nversion: 1.0.0\n" + (
        f"toolchain: {{driver: '{pin}'}}\n" if pin else "")
    publish_bundles(store, [bundles(toolchain=bundle_tc, extra_files=dict(
        CANN_FILES, **{"opkg.yaml": manifest.encode()}))])
    dest = tmp_path / "ops"
    if error is None:
        assert install(store, "add_custom", soc="Ascend910B1", dest=dest).status == "installed"
        return
    with pytest.raises(ToolchainError) as exc:
        install(store, "add_custom", soc="Ascend910B1", dest=dest)
    assert error in exc.value.message and exc.value.exit_code == 3
    assert not (dest / "vendors").exists()


def test_only_vendor_trees_leave_the_package_directory(store, bundles, tmp_path):
    sneaky = {"opp/.opkg/installed/other.json": b'{"files": {}}',
              "opp/other/lib/x.so": b"x",
              "opp/vendors/add_custom/version.info": b"v"}
    publish_bundles(store, [bundles(toolchain="cann-8.0.RC2", extra_files=sneaky)])
    dest = tmp_path / "ops"
    install(store, "add_custom", soc="Ascend910B1", dest=dest,
            runtime_check=lambda *a: None)
    assert (dest / "vendors" / "add_custom" / "version.info").read_bytes() == b"v"
    assert (dest / "add_custom" / "opp" / ".opkg" / "installed" / "other.json").is_file()
    assert (dest / "add_custom" / "opp" / "other" / "lib" / "x.so").is_file()
    assert not (dest / ".opkg" / "installed" / "other.json").exists()
    assert not (dest / "other").exists()


def test_registry_files_are_readable_by_others(store, bundles):
    publish_bundles(store, [bundles()])
    yank(store, "add_custom", "1.0.0", "r")
    for path in store.root.rglob("*"):
        if path.is_file() and path.name != ".lock":
            assert path.stat().st_mode & 0o444 == 0o444, path


# runtime/version.info of CANN 8.1.RC1 (leideng/CANN-8.1.RC1 mirror, Ascend/ascend-toolkit/
# 8.1.RC1/runtime/version.info): the runtime loads custom-op packages whose compiler version
# (custom_opp_compiler_version, major.minor) is in required_opp_abi_version
RUNTIME_VERSION_INFO = ('Version=7.7.0.1.238\nversion_dir=8.1.RC1\n'
                        'required_opp_abi_version=">=6.3, <=7.7"\n'
                        'required_package_compiler_version="7.7"\n')


@pytest.mark.parametrize("compiler_version,error", [
    ("7.6.0.1.220", None),          # built with an older compiler: 8.1.RC1's runtime loads it
    ("7.7.0.1.238", None),
    ("7.8.0.1.100", "no installed CANN runtime loads it: cann-8.1.RC1 loads >=6.3, <=7.7"),
])
def test_runtime_check_follows_required_opp_abi_version(store, bundles, tmp_path, monkeypatch,
                                                        compiler_version, error):
    """A bundle built with CANN 8.0.RC3 (not installed) runs where CANN itself would load it:
    an installed runtime whose required_opp_abi_version range holds the bundle's ABI."""
    standin = cann_standin()
    root = tmp_path / "Ascend"
    home = standin.make_toolkit(root, "8.1.RC1")
    (home / "runtime").mkdir()
    (home / "runtime/version.info").write_text(RUNTIME_VERSION_INFO)
    standin.make_driver(root, "24.1.rc2")
    standin.use_stand_in_roots(monkeypatch, root)
    files = {k: v for k, v in CANN_FILES.items() if not k.endswith("version.info")}
    files["opp/vendors/opkg_add_custom/version.info"] = \
        f"custom_opp_compiler_version={compiler_version}\n".encode()
    files["opkg.yaml"] = b"name: add_custom\nversion: 1.0.0\n"
    publish_bundles(store, [bundles(toolchain="cann-8.0.RC3", extra_files=files)])
    dest = tmp_path / "ops"
    if error is None:
        assert install(store, "add_custom", soc="Ascend910B1", dest=dest).status == "installed"
        return
    with pytest.raises(ToolchainError) as exc:
        install(store, "add_custom", soc="Ascend910B1", dest=dest)
    assert error in exc.value.message and "custom-op ABI 7.8" in exc.value.message
    assert exc.value.exit_code == 3
