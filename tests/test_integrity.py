"""Nothing corrupt is restored, kept or published: cache entries and build outputs carry the
digest of what was written and are checked against it (issue 10, item 1).

Every test starts from a copy of one real build of the example `add_custom` package (workspace
and build cache), damages one file the way a disk, a careless tool or a killed copy would, and
then runs the real command line."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOC = "Ascend910B1"
BUNDLE = f"out/bundles/add_custom-1.0.0-{SOC}-sim.opkg.tgz"
REPORT = f"out/sim/add_custom/{SOC}/float16/verification.json"

# one worker runs the whole file (make test: --dist loadgroup), so its module fixture builds
# once per run, not once per worker
pytestmark = [pytest.mark.skipif(shutil.which("g++") is None, reason="the sim toolchain needs g++"),
              pytest.mark.xdist_group("test_integrity")]


def opkg(*args, cwd, check=None):
    """The real command line in a subprocess (`conftest` is ambiguous with tests/registry/)."""
    r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                       text=True, timeout=900)
    if check is not None:
        assert r.returncode == check, r.stdout + r.stderr
    return r


@pytest.fixture(scope="module")
def built(tmp_path_factory, _add_custom_cache):
    """One real build (workspace + cache), copied by every test. Its cache starts as a copy of
    the run's shared add_custom build (conftest), so the build restores what that one compiled
    and verified: what the tests damage is this copy."""
    root = tmp_path_factory.mktemp("built")
    shutil.copytree(_add_custom_cache / "scons", root / "cache" / "scons")
    ws = root / "ws"
    (ws / "packages").mkdir(parents=True)
    shutil.copytree(REPO / "packages" / "add_custom", ws / "packages" / "add_custom")
    shutil.copytree(REPO / "toolchains", ws / "toolchains")
    (ws / "opkg-workspace.yaml").write_text(
        f"package_roots: [packages]\ndefault_toolchain: sim\ndefault_socs: [{SOC}]\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPKG_CACHE_DIR", str(root / "cache"))
        opkg("build", cwd=ws, check=0)
    return root


@pytest.fixture
def ws(built, tmp_path, monkeypatch) -> Path:
    shutil.copytree(built / "ws", tmp_path / "ws", symlinks=True)
    shutil.copytree(built / "cache", tmp_path / "cache", symlinks=True)
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPKG_REGISTRY", str(tmp_path / "registry"))
    return tmp_path / "ws"


def _entry_holding(cache: Path, data: bytes) -> Path:
    """The build-cache entry that stores `data` (an entry may add its own framing after it)."""
    found = [p for p in (cache / "scons").rglob("*") if p.is_file()
             and p.stat().st_size >= len(data) and p.read_bytes()[:len(data)] == data]
    assert len(found) == 1, found
    return found[0]


def _flip(path: Path, at: int | None = None, keep_times: bool = True) -> None:
    """Change one byte in place, keeping size and (by default) the modification time."""
    st = path.stat()
    os.chmod(path, 0o644)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if at is None else at] ^= 0x20
    path.write_bytes(bytes(data))
    if keep_times:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _intact(path: Path) -> bool:
    """A full read of the gzip stream (its CRC) and the tar inside it."""
    try:
        with gzip.open(path) as fh:
            data = fh.read()
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.getmembers()
        return True
    except (OSError, EOFError, tarfile.TarError):
        return False


def _no_traceback(r) -> None:
    assert "Traceback" not in r.stderr and "zlib.error" not in r.stderr, r.stderr


def test_a_damaged_cache_entry_is_a_miss_evicted_with_one_warning(ws):
    good = (ws / BUNDLE).read_bytes()
    entry = _entry_holding(ws.parent / "cache", good)
    _flip(entry)
    opkg("clean", cwd=ws, check=0)
    r = opkg("build", cwd=ws, check=0)
    _no_traceback(r)
    assert r.stderr.count("warning:") == 1, r.stderr
    assert f"damaged build cache entry {entry}" in r.stderr
    # the bundle step ran again and wrote what the cache should have held
    assert (ws / BUNDLE).read_bytes() == good and _intact(ws / BUNDLE)
    assert "; 1 steps ran, " in r.stdout, r.stdout
    # the damaged entry was replaced by a good one: the next clean build restores everything
    opkg("clean", cwd=ws, check=0)
    r = opkg("build", cwd=ws, check=0)
    assert "warning" not in r.stderr and "; 0 steps ran, " in r.stdout, r.stdout + r.stderr
    assert (ws / BUNDLE).read_bytes() == good


def _results(report) -> dict:
    """A verification report as results: each case's measured wall time left out."""
    from opkg.core.bundle import without_timings

    return without_timings(json.loads(report.read_bytes() if isinstance(report, Path) else report))


def test_a_report_is_the_same_bytes_for_the_same_results_and_keeps_its_timings_beside_it(tmp_path):
    """Two runs of the same verification differ only in wall time, which goes beside the report:
    a report on which the bundle step is keyed must not differ between two checkouts sharing a
    remote cache (they uploaded bundles keyed on each other's timings before)."""
    from opkg.core.report_schema import read_report, timings_path
    from opkg.verify.runner import write_report

    def report(seconds):
        case = {"case": "even", "passed": True, "error": None, "outputs": {}, "seconds": seconds}
        return {"package": "p", "variant": "float16", "soc": "Ascend910B1", "passed": True,
                "cases": 1, "failed": 0, "error": None, "results": [case]}

    a, b = tmp_path / "a" / "verification.json", tmp_path / "b" / "verification.json"
    for path, seconds in ((a, 0.25), (b, 0.5)):
        path.parent.mkdir()
        write_report(path, report(seconds))
    assert a.read_bytes() == b.read_bytes() and b"seconds" not in a.read_bytes()
    assert read_report(b)[0]["results"][0]["seconds"] == 0.5
    # the timings are informational: damaged or missing, the report still reads, without them
    timings_path(a).write_text("{not json")
    timings_path(b).unlink()
    for path in (a, b):
        got, problem = read_report(path)
        assert problem is None and "seconds" not in got["results"][0]


def test_a_truncated_cached_report_is_a_miss_not_a_broken_build(ws):
    report = (ws / REPORT).read_bytes()
    entry = _entry_holding(ws.parent / "cache", report)
    os.chmod(entry, 0o644)
    os.truncate(entry, 100)
    opkg("clean", cwd=ws, check=0)
    r = opkg("build", cwd=ws, check=0)
    _no_traceback(r)
    assert f"damaged build cache entry {entry}" in r.stderr, r.stderr
    assert json.loads((ws / REPORT).read_bytes())["passed"] is True
    assert _results(ws / REPORT) == _results(report)


def test_a_cached_report_with_a_valid_trailer_but_no_cases_is_evicted_and_rebuilt(ws, tmp_path):
    """The entry's digest matches its bytes, but the bytes are not a report (no 'cases'): a
    miss, evicted with one warning, the step runs; never a KeyError on every later build."""
    from opkg.build import cache

    report = (ws / REPORT).read_bytes()
    entry = _entry_holding(ws.parent / "cache", report)
    bogus = tmp_path / "bogus.json"
    bogus.write_text(json.dumps({"passed": True, "results": []}))
    os.chmod(entry, 0o644)
    cache.write_entry(bogus, entry)
    opkg("clean", cwd=ws, check=0)
    r = opkg("build", cwd=ws, check=0)
    _no_traceback(r)
    assert r.stderr.count("warning:") == 1, r.stderr
    assert f"damaged build cache entry {entry} (not a verification report: no 'cases')" \
        in r.stderr, r.stderr
    assert _results(ws / REPORT) == _results(report)
    rebuilt = (ws / REPORT).read_bytes()
    opkg("clean", cwd=ws, check=0)
    r = opkg("build", cwd=ws, check=0)
    assert "warning" not in r.stderr, r.stderr
    assert (ws / REPORT).read_bytes() == rebuilt     # the good entry that replaced the bad one


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_a_damaged_bundle_in_out_is_restored_with_a_warning(ws, damage):
    good = (ws / BUNDLE).read_bytes()
    if damage == "truncate":
        os.truncate(ws / BUNDLE, 1000)
    else:
        _flip(ws / BUNDLE)          # same size, same mtime: only the content differs
    r = opkg("build", cwd=ws, check=0)
    _no_traceback(r)
    assert r.stderr.count("warning:") == 1, r.stderr
    assert f"{BUNDLE} does not hold what the build wrote" in r.stderr, r.stderr
    assert (ws / BUNDLE).read_bytes() == good
    r = opkg("publish", cwd=ws, check=0)
    assert "published add_custom 1.0.0" in r.stdout


def test_a_damaged_report_in_out_is_restored(ws):
    good = (ws / REPORT).read_bytes()
    os.truncate(ws / REPORT, 50)
    r = opkg("build", cwd=ws, check=0)
    assert f"{REPORT} does not hold what the build wrote" in r.stderr, r.stderr
    assert (ws / REPORT).read_bytes() == good


def test_publish_refuses_a_bundle_with_a_broken_gzip_stream(ws, tmp_path):
    copy = tmp_path / "add_custom.opkg.tgz"
    shutil.copy(ws / BUNDLE, copy)
    _flip(copy)
    assert not _intact(copy)
    r = opkg("publish", "--bundle", str(copy), cwd=ws)
    _no_traceback(r)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"{copy}: damaged bundle" in r.stderr, r.stderr
    assert "hint:" in r.stderr
    assert not (tmp_path / "registry" / "records").exists()


def test_publish_refuses_a_bundle_that_is_not_what_the_build_wrote(ws):
    """A valid archive with the same members, recompressed: gzip is happy, but these are not
    the bytes the build recorded, so the bundle in out/ was replaced after the build."""
    with gzip.open(ws / BUNDLE) as fh:
        tar = fh.read()
    st = (ws / BUNDLE).stat()
    (ws / BUNDLE).write_bytes(gzip.compress(tar, compresslevel=1, mtime=0))
    os.utime(ws / BUNDLE, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = opkg("publish", "--bundle", BUNDLE, cwd=ws)
    _no_traceback(r)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "is not the bundle the build wrote" in r.stderr, r.stderr
    # publishing through a build restores the bundle first, then publishes it
    r = opkg("publish", cwd=ws, check=0)
    assert "does not hold what the build wrote" in r.stderr


def _rewrite(src: Path, dest: Path, change) -> None:
    """Copy a bundle, passing each member's bytes through change(name, data)."""
    with tarfile.open(src, "r:gz") as tin:
        members = [(m, tin.extractfile(m).read() if m.isfile() else None) for m in tin]
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tout:
        for m, data in members:
            if data is not None:
                data = change(m.name, data)
                m.size = len(data)
            tout.addfile(m, io.BytesIO(data) if data is not None else None)
    dest.write_bytes(gzip.compress(raw.getvalue(), mtime=0))


def test_publish_refuses_a_bundle_whose_report_failed_whatever_its_metadata_says(ws, tmp_path):
    def fail_first_case(name, data):
        if name != "verification/float16.json":
            return data
        report = json.loads(data)
        report["results"][0]["passed"] = False
        report["results"][0]["error"] = "written by hand"
        return json.dumps(report).encode()

    forged = tmp_path / "forged.opkg.tgz"
    _rewrite(ws / BUNDLE, forged, fail_first_case)
    meta = json.loads(tarfile.open(forged, "r:gz").extractfile("opkg-bundle.json").read())
    assert meta["verification"]["passed"] is True          # the metadata still says pass
    r = opkg("publish", "--bundle", str(forged), cwd=ws)
    _no_traceback(r)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "verification/float16.json" in r.stderr and "written by hand" in r.stderr, r.stderr
    assert not (tmp_path / "registry" / "records").exists()


def test_registry_check_and_install_name_a_published_bundle_that_is_not_a_readable_archive(
        ws, tmp_path):
    """A registry written by an opkg that did not check archives: the blob matches its digest,
    but its gzip stream is broken. `registry check` reports it; install refuses it clearly."""
    from opkg.registry.store import Store

    opkg("publish", cwd=ws, check=0)
    store = Store(tmp_path / "registry")
    [(name, key, path)] = store.record_files()
    record = json.loads(path.read_bytes())
    [bundle] = [b for b in record["bundles"] if b["soc"] == SOC]
    bad = bytearray(store.blob_path(bundle["blob"]).read_bytes())
    bad[len(bad) // 2] ^= 0x20
    digest, size = store.put_blob(data=bytes(bad))
    record["version"] = "1.0.1"
    record["bundles"] = [dict(bundle, blob=digest, size=size)]
    assert store.commit_record(name, "1.0.1", record)[0]
    store.update_index()

    r = opkg("registry", "check", cwd=ws)
    _no_traceback(r)
    assert r.returncode == 1, r.stdout + r.stderr
    assert str(store.blob_path(digest)) in r.stdout + r.stderr
    assert "not a readable bundle" in r.stdout + r.stderr
    r = opkg("install", "add_custom==1.0.1", "--soc", SOC, "--dest", str(tmp_path / "ops"),
             cwd=ws)
    _no_traceback(r)
    assert r.returncode == 1 and "damaged bundle" in r.stderr, r.stderr
    assert not list((tmp_path / "ops").rglob("*.so"))


def test_republishing_restores_a_blob_that_registry_check_found_damaged(ws, tmp_path):
    from opkg.registry.store import Store

    opkg("publish", cwd=ws, check=0)
    store = Store(tmp_path / "registry")
    [(_, _, path)] = store.record_files()
    [bundle] = [b for b in json.loads(path.read_bytes())["bundles"] if b["soc"] == SOC]
    blob = store.blob_path(bundle["blob"])
    _flip(blob)
    r = opkg("registry", "check", cwd=ws)
    assert r.returncode == 1 and "corrupt" in r.stdout + r.stderr
    r = opkg("publish", "--bundle", BUNDLE, cwd=ws, check=0)
    assert "restored" in r.stdout, r.stdout
    opkg("registry", "check", cwd=ws, check=0)
    opkg("install", "add_custom", "--soc", SOC, "--dest", str(tmp_path / "ops"), cwd=ws, check=0)


# -- `opkg clean` and the registry (issue 10, item 7) -------------------------------------------

def test_a_registry_inside_the_output_directory_is_refused_at_load(workspace):
    workspace.operator("addone")
    (workspace.root / "opkg-workspace.yaml").write_text(
        "output_dir: out\nregistry: out/registry\n")
    for command in (["clean"], ["query", "packages"]):
        r = opkg(*command, cwd=workspace.root)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "opkg-workspace.yaml:2:11: error: registry: " in r.stderr, r.stderr
        assert "hint:" in r.stderr and "Traceback" not in r.stderr


def test_clean_never_deletes_a_registry(workspace, tmp_path, monkeypatch):
    """Whatever points there (OPKG_REGISTRY, --registry on an earlier publish), a registry that
    ended up inside out/ stops `opkg clean` instead of going with it."""
    import importlib.util

    from opkg.registry.publish import publish_bundles
    from opkg.registry.store import Store

    workspace.operator("addone")
    out = workspace.root / "out"
    (out / ".opkg").mkdir(parents=True)
    registry = out / "shared" / "registry"
    spec = importlib.util.spec_from_file_location(
        "registry_testlib_for_clean", REPO / "tests" / "registry" / "registry_testlib.py")
    testlib = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(testlib)
    publish_bundles(Store(registry), [testlib.make_bundle(tmp_path)])
    r = opkg("clean", cwd=workspace.root)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"refusing to delete {out}: it holds the registry {registry}" in r.stderr, r.stderr
    assert "hint:" in r.stderr
    assert (registry / "index.json").is_file() and list((registry / "records").rglob("*.json"))
    monkeypatch.setenv("OPKG_REGISTRY", str(registry))
    r = opkg("clean", cwd=workspace.root)
    assert r.returncode == 2 and "OPKG_REGISTRY" in r.stderr, r.stderr
    assert (registry / "index.json").is_file()


# -- the two records on their own --------------------------------------------------------------

def test_cache_entries_restore_only_the_bytes_they_were_given(tmp_path):
    from opkg.build import cache

    src = tmp_path / "lib.so"
    src.write_bytes(b"\x7fELF" + bytes(range(256)) * 50)
    entry = tmp_path / "entry"
    digest = cache.write_entry(src, entry)
    assert cache.restore_entry(entry, tmp_path / "out.so") == (digest, None)
    assert (tmp_path / "out.so").read_bytes() == src.read_bytes()
    for damage in ("flip", "truncate", "legacy"):
        cache.write_entry(src, entry)
        if damage == "flip":
            _flip(entry, at=7)
        elif damage == "truncate":
            os.truncate(entry, entry.stat().st_size - 5)
        else:                           # an entry as SCons writes it: the bytes alone
            shutil.copy(src, entry)
        target = tmp_path / f"{damage}.so"
        digest, problem = cache.restore_entry(entry, target)
        assert digest is None and problem, damage
        assert not target.exists(), "nothing is written from a damaged entry"
        assert [p.name for p in tmp_path.iterdir() if ".restore-" in p.name] == []


def test_output_record_rehashes_only_what_changed(tmp_path):
    from opkg.build.outputs import OutputRecord

    out = tmp_path / "out"
    a, b, c = (out / n for n in ("a.o", "b.o", "c.o"))
    out.mkdir()
    for p in (a, b, c):
        p.write_bytes(p.name.encode() * 100)
    record = OutputRecord(out)
    record.note(a)
    record.note(b)
    os.utime(a, (1, 1))                                    # touched: same bytes
    b.write_bytes(b"different")
    damaged, unknown = record.check([a, b, c, out / "missing.o"])
    assert [p for p, _ in damaged] == [b] and unknown == [c]
    assert record.unverified([a, b]) == [b], "a touched output is recorded again"
    # the log is compacted once it is mostly superseded lines
    for _ in range(1100):
        record.note(a)
    record.check([a])
    assert len(record.path.read_text().splitlines()) == 2
    assert record.digest_of(a) == record.digest_of(out / "a.o") is not None
