"""`registry check`: every kind of damage is reported, and repair touches only the index."""

from __future__ import annotations

import json

import pytest

from opkg.core.errors import RegistryError
from opkg.registry.check import check
from opkg.registry.publish import publish_bundles
from opkg.registry.store import Store


@pytest.fixture
def store(registry, bundles):
    s = Store(registry)
    publish_bundles(s, [bundles(), bundles(name="layernorm")])
    return s


def record_of(store, name="add_custom"):
    return json.loads((store.records / name / "1.0.0.json").read_text())


def errors(report):
    return [(p.where, p.message) for p in report.errors]


def test_clean_registry_passes(store):
    r = check(store)
    assert r.ok and r.versions == 2 and r.packages == 2
    # two bundles; the four reports are two distinct contents, stored once each
    assert r.blobs == 4
    assert r.problems == []


def test_corrupt_blob(store):
    blob = store.blob_path(record_of(store)["bundles"][0]["blob"])
    blob.chmod(0o644)
    data = bytearray(blob.read_bytes())
    data[100] ^= 1
    blob.write_bytes(bytes(data))
    [(where, msg)] = errors(check(store))
    assert where == str(blob) and msg.startswith("corrupt") and "add_custom 1.0.0" in msg


def test_missing_report_blob(store):
    report = record_of(store)["bundles"][0]["variants"][1]["report"]
    store.blob_path(report).unlink()
    [(where, msg)] = errors(check(store))
    assert msg.startswith("missing") and "float16 report" in msg


def test_modified_record(store):
    path = store.records / "add_custom" / "1.0.0.json"
    path.chmod(0o644)
    path.write_text(path.read_text().replace("Element-wise add", "Element-wise add, trusted"))
    [(where, msg)] = errors(check(store))
    assert where == str(path) and "modified after publishing" in msg


def test_dangling_index_entry_and_repair(store):
    (store.records / "layernorm" / "1.0.0.json").unlink()
    r = check(store)
    assert ("layernorm 1.0.0", "listed in the index but its record is missing") in errors(r)
    r = check(store, repair=True)
    assert r.ok
    assert any("dropped index entry layernorm" in x for x in r.repaired)
    assert "layernorm" not in json.loads(store.index_path.read_text())["packages"]


def test_malformed_index_is_an_error_and_repair_rebuilds_it(store):
    store.index_path.write_text("{ not json")
    with pytest.raises(RegistryError) as exc:
        store.catalog()
    assert "malformed registry index" in exc.value.message
    assert "--repair" in exc.value.hint
    assert not check(store).ok
    r = check(store, repair=True)
    assert r.ok and any(x.startswith("rebuilt the index from the version records") for x in r.repaired)
    assert set(store.catalog()) == {"add_custom", "layernorm"}


@pytest.mark.parametrize("index", [
    [], {"format": 99, "packages": {}}, {"format": 1, "packages": []},
    {"format": 1, "packages": {"x": {"versions": {"1.0": {"version": "1.0", "record": "md5:1"}}}}},
])
def test_structurally_wrong_index(store, index):
    store.index_path.write_text(json.dumps(index))
    with pytest.raises(RegistryError, match="malformed registry index"):
        store.catalog()


def test_repair_keeps_old_digests_so_tampering_stays_visible(store):
    path = store.records / "add_custom" / "1.0.0.json"
    path.chmod(0o644)
    path.write_text(path.read_text().replace("Element-wise add", "edited"))
    check(store, repair=True)
    assert not check(store).ok


def test_malformed_record(store):
    path = store.records / "add_custom" / "1.0.0.json"
    path.chmod(0o644)
    path.write_text("[]")
    assert any("malformed version record" in m or "expected a JSON object" in m
               for _, m in errors(check(store)))
    with pytest.raises(RegistryError, match="does not match the digest|malformed version record"):
        store.read_record("add_custom", "1.0.0")


def test_record_stored_under_the_wrong_name(store):
    src = store.records / "add_custom" / "1.0.0.json"
    (store.records / "add_custom" / "2.0.0.json").write_bytes(src.read_bytes())
    assert any("stored as '2.0.0'" in m for _, m in errors(check(store)))
