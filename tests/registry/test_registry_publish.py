"""publish_bundles: what a publish writes, immutability, and the verification gate (the
guarantees on every registry backend; the directory layout on the directory one)."""

from __future__ import annotations

import json

import pytest

from opkg.core.errors import RegistryError, VerificationError
from opkg.registry.publish import publish_bundles
from opkg.registry.store import Store
from opkg.registry.records import sha256_file


def test_publish_writes_blobs_record_and_index(bundles, registry):
    b = bundles()
    [o] = publish_bundles(Store(registry), [b], publisher="ci@build1", now="2026-01-02T03:04:05Z")
    assert (o.name, o.version, o.status) == ("add_custom", "1.0.0", "published")

    digest = sha256_file(b)
    blob = registry / "blobs" / "sha256" / digest.split(":")[1]
    assert blob.read_bytes() == b.read_bytes()

    record = json.loads((registry / "records" / "add_custom" / "1.0.0.json").read_text())
    assert record["published"] == {"time": "2026-01-02T03:04:05Z", "by": "ci@build1",
                                   "opkg_version": "0.1.0"}
    [entry] = record["bundles"]
    assert entry["blob"] == digest and entry["size"] == b.stat().st_size
    assert entry["toolchain"]["id"] == "sim" and entry["toolchain"]["fingerprint"].startswith("sha256:")
    assert entry["provenance"]["git_commit"] == "abc123def456"
    assert [v["name"] for v in entry["variants"]] == ["float32", "float16"]
    for v in entry["variants"]:
        assert v["verification"]["passed"] == v["verification"]["cases"] == 3
        report = registry / "blobs" / "sha256" / v["report"].split(":")[1]
        assert json.loads(report.read_text())["variant"] == v["name"]

    index = json.loads((registry / "index.json").read_text())
    row = index["packages"]["add_custom"]["versions"]["1.0.0"]
    assert row["record"] == sha256_file(registry / "records" / "add_custom" / "1.0.0.json")
    assert row["yanked"] is False and row["socs"] == ["Ascend910B1"]
    assert list((registry / "tmp").iterdir()) == []


def record_digest(backend, name="add_custom", key="1.0.0"):
    return backend.open().catalog()[name][key].record_digest


def test_republish_identical_is_a_noop(bundles, backend):
    b = bundles()
    publish_bundles(backend.open(), [b])
    before = record_digest(backend)
    [o] = publish_bundles(backend.open(), [b])
    assert o.status == "unchanged"
    assert record_digest(backend) == before


def test_republish_after_an_unrelated_commit_is_a_noop(bundles, backend):
    publish_bundles(backend.open(), [bundles()])
    before = record_digest(backend)
    rebuilt = bundles(git_commit="fedcba987654", subdir="later")   # same sources, new commit
    published = backend.open().read_record("add_custom", "1.0.0")
    assert sha256_file(rebuilt) != published["bundles"][0]["blob"]
    [o] = publish_bundles(backend.open(), [rebuilt])
    assert o.status == "unchanged"
    assert record_digest(backend) == before


def test_a_bundle_with_unsafe_entries_is_never_stored(bundles, registry):
    import io
    import tarfile

    good = bundles()
    raw = io.BytesIO()
    with tarfile.open(good, "r:gz") as src, tarfile.open(fileobj=raw, mode="w:gz") as dst:
        for m in src:
            dst.addfile(m, src.extractfile(m))
        link = tarfile.TarInfo("lib/evil.so")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        dst.addfile(link)
    evil = good.parent / "evil" / good.name
    evil.parent.mkdir()
    evil.write_bytes(raw.getvalue())
    with pytest.raises(RegistryError, match="link or device"):
        publish_bundles(Store(registry), [evil])
    assert not (registry / "records").exists() or not any((registry / "records").rglob("*.json"))


def test_republish_changed_contents_is_refused(bundles, backend):
    publish_bundles(backend.open(), [bundles()])
    changed = bundles(payload=b"a different kernel", subdir="v2")
    with pytest.raises(RegistryError) as exc:
        publish_bundles(backend.open(), [changed])
    assert "already published with different contents" in exc.value.message
    assert "bump 'version'" in exc.value.hint
    assert exc.value.exit_code == 1


def test_adding_a_soc_to_a_published_version_is_refused(bundles, backend):
    publish_bundles(backend.open(), [bundles()])
    with pytest.raises(RegistryError, match="Ascend310P3/sim is not part of the published"):
        publish_bundles(backend.open(), [bundles(soc="Ascend310P3")])


def test_equal_versions_spelled_differently_are_the_same_version(bundles, backend):
    publish_bundles(backend.open(), [bundles(version="1.0.0")])
    with pytest.raises(RegistryError, match="already published"):
        publish_bundles(backend.open(), [bundles(version="1.0.0.0", payload=b"other")])


def test_several_socs_and_packages_in_one_publish(bundles, backend):
    paths = [bundles(soc="Ascend910B1"), bundles(soc="Ascend310P3"),
             bundles(name="layernorm", summary="LayerNorm")]
    outcomes = publish_bundles(backend.open(), paths)
    assert [(o.name, o.status) for o in outcomes] == [("add_custom", "published"),
                                                      ("layernorm", "published")]
    record = backend.open().read_record("add_custom", "1.0.0")
    assert record["socs"] == ["Ascend310P3", "Ascend910B1"]
    assert len(record["bundles"]) == 2


def test_failing_verification_is_refused_listing_the_case(bundles, backend):
    bad = bundles(failed_case="rows_odd")
    with pytest.raises(VerificationError) as exc:
        publish_bundles(backend.open(), [bad])
    assert "variant float16: 1 of 3 case(s) failed: rows_odd" in exc.value.message
    assert "rows_odd (z: max_abs_error=0.5, mismatch_ratio=0.25)" in exc.value.message
    assert backend.untouched()  # nothing written, not even the directory


def test_one_failing_bundle_blocks_the_whole_publish(bundles, backend):
    with pytest.raises(VerificationError):
        publish_bundles(backend.open(), [bundles(), bundles(name="layernorm", failed_case="c")])
    assert backend.untouched()


def test_bundle_without_cases_is_refused(bundles, registry):
    with pytest.raises(VerificationError, match="no verification cases ran"):
        publish_bundles(Store(registry), [bundles(cases=0)])


def test_not_a_bundle_is_refused(tmp_path, registry):
    junk = tmp_path / "junk.opkg.tgz"
    junk.write_bytes(b"not a tarball")
    with pytest.raises(RegistryError, match="unreadable bundle"):
        publish_bundles(Store(registry), [junk])
    with pytest.raises(RegistryError, match="no such bundle file"):
        publish_bundles(Store(registry), [tmp_path / "missing.opkg.tgz"])


def test_dry_run_writes_nothing_on_any_backend(bundles, backend):
    [o] = publish_bundles(backend.open(), [bundles()], dry_run=True)
    assert o.status == "would-publish" and o.writes
    assert backend.untouched()


def test_dry_run_writes_nothing(bundles, registry):
    [o] = publish_bundles(Store(registry), [bundles()], dry_run=True)
    assert o.status == "would-publish"
    assert any(w.endswith("records/add_custom/1.0.0.json") for w in o.writes)
    assert not registry.exists()
