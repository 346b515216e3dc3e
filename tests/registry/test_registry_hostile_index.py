"""A damaged or hostile index or record never crashes a reader: every command says what is
wrong and how to repair it, `registry check` reports it, and `--repair` rebuilds the index from
the immutable records. Yank marks never outlive the version they were written for."""

from __future__ import annotations

import json

import pytest

from opkg.registry.publish import publish_bundles
from opkg.registry.store import Store
from opkg.registry.records import canonical_json, index_add, sha256_bytes


@pytest.fixture
def published(bundles, registry):
    publish_bundles(Store(registry), [bundles(version="1.0.0", subdir="a")])
    publish_bundles(Store(registry), [bundles(version="1.1.0", subdir="b")])
    return registry


def edit_index(registry, change):
    path = registry / "index.json"
    index = json.loads(path.read_text())
    change(index["packages"]["add_custom"]["versions"])
    path.write_text(json.dumps(index))


def set_field(field, value):
    def change(versions):
        versions["1.1.0"][field] = value
    return change


def rekey(versions):
    versions["../../x"] = versions.pop("1.1.0")


READERS = [("search",), ("info", "add_custom"),
           ("install", "add_custom", "--soc", "Ascend910B1", "--dest", "ops"),
           ("yank", "add_custom==1.0.0", "--reason", "bad")]


@pytest.mark.parametrize("change, problem", [
    (set_field("version", "garbage"), "invalid version 'garbage'"),
    (set_field("socs", 5), "'socs' has the wrong type (int)"),
    (set_field("toolchains", None), "'toolchains' has the wrong type (NoneType)"),
    (set_field("summary", ["x"]), "'summary' has the wrong type (list)"),
    (set_field("yanked", "no"), "'yanked' has the wrong type (str)"),
    (rekey, "add_custom '../../x': is stored under a key that is not its version"),
], ids=["version", "socs", "toolchains", "summary", "yanked", "key"])
def test_a_malformed_index_entry_is_an_error_and_repair_rebuilds(published, run_opkg, change,
                                                                problem):
    edit_index(published, change)
    for args in READERS:
        code, out, err = run_opkg(*args, "--registry", published)
        assert code == 1, (args, out, err)
        assert "Traceback" not in err
        assert "malformed registry index" in err and problem in err, (args, err)
        assert "hint: run `opkg registry check --repair`" in err
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert code == 1 and problem in err and "`--repair` rebuilds it" in err, out + err

    code, out, err = run_opkg("registry", "check", "--repair", "--registry", published)
    assert code == 0, out + err
    assert "repaired: rebuilt the index from the version records" in out
    assert "digests kept for 1 well-formed entry" in out
    code, out, err = run_opkg("search", "--registry", published)
    assert code == 0 and out.split()[:2] == ["add_custom", "1.1.0"], out + err


def test_repair_keeps_the_digests_that_catch_a_tampered_record(published, run_opkg):
    # the index is damaged in one entry, and the other version's record was edited
    edit_index(published, set_field("socs", 5))
    path = published / "records" / "add_custom" / "1.0.0.json"
    record = json.loads(path.read_text())
    record["summary"] = "now with extra trust"
    path.chmod(0o644)
    path.write_bytes(canonical_json(record))
    code, out, err = run_opkg("registry", "check", "--repair", "--registry", published)
    assert code == 1
    assert "1.0.0.json: modified after publishing" in err


def _commit_hostile(registry, mutate):
    """A record written straight into the registry, digest in the index and all, by a
    publisher that skipped publish's checks."""
    store = Store(registry)
    record = json.loads((registry / "records" / "add_custom" / "1.1.0.json").read_text())
    record["version"] = "2.0.0"
    mutate(record)
    data = canonical_json(record)      # written by hand: publish itself refuses such a record
    (registry / "records" / "add_custom" / "2.0.0.json").write_bytes(data)
    store.update_index(lambda index: index_add(index, record, sha256_bytes(data)))


@pytest.mark.parametrize("mutate, problem", [
    (lambda r: r["bundles"][0].update(variants=[5]), "each variant needs a 'name'"),
    (lambda r: r["bundles"][0].update(verification="yes"), "'verification' must be an object"),
    (lambda r: r["bundles"][0].update(size=-1), "each bundle needs"),
    (lambda r: r.update(op={"type": "Add", "inputs": [{"name": "x"}]}), "'op.inputs' must list"),
    (lambda r: r["published"].update(by=5), "'published' must be an object of strings"),
], ids=["variants", "verification", "size", "op", "published"])
def test_a_malformed_record_is_an_error_for_readers_and_check(published, run_opkg, mutate,
                                                              problem):
    _commit_hostile(published, mutate)
    code, out, err = run_opkg("info", "add_custom==2.0.0", "--registry", published)
    assert code == 1 and "Traceback" not in err, err
    assert "malformed version record" in err and problem in err, err
    code, out, err = run_opkg("install", "add_custom==2.0.0", "--soc", "Ascend910B1",
                              "--dest", "ops", "--registry", published)
    assert code == 1 and problem in err, err
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert code == 1 and "2.0.0.json" in err and problem in err, err


def test_yank_of_a_version_without_a_record_is_refused(published, run_opkg):
    (published / "records" / "add_custom" / "1.1.0.json").unlink()
    code, out, err = run_opkg("yank", "add_custom==1.1.0", "--reason", "bad",
                              "--registry", published)
    assert code == 1, out + err
    assert "add_custom 1.1.0 has no record" in err and "--repair" in err
    assert not (published / "yanks" / "add_custom" / "1.1.0.json").exists()


def test_a_republish_after_repair_does_not_inherit_an_old_yank(published, bundles, run_opkg):
    code, _, err = run_opkg("yank", "add_custom==1.1.0", "--reason", "wrong results",
                            "--registry", published)
    assert code == 0, err
    # the version's record is lost (deleted by hand, a restore from an old backup, ...)
    (published / "records" / "add_custom" / "1.1.0.json").unlink()
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert "yank mark for a version that has no record" in out + err
    code, out, err = run_opkg("registry", "check", "--repair", "--registry", published)
    assert code == 0, out + err
    assert "repaired: removed yank mark add_custom/1.1.0: the version has no record" in out
    code, out, err = run_opkg("publish", "--bundle", bundles(version="1.1.0", subdir="c",
                                                             payload=b"fixed"),
                              "--registry", published)
    assert code == 0, err
    code, out, err = run_opkg("search", "--json", "--registry", published)
    versions = json.loads(out)["results"][0]["versions"]
    assert {"version": "1.1.0", "yanked": False, "yank_reason": None} in versions


def test_junk_in_yanks_does_not_crash_check(published, run_opkg):
    for rel in ("Bad_Name/1.0.0.json", "add_custom/garbage.json"):
        path = published / "yanks" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"reason": "x"}')
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert code == 0 and "Traceback" not in err, out + err
    assert out.count("yank mark whose name is not a package and version") == 2
    code, out, err = run_opkg("registry", "check", "--repair", "--registry", published)
    assert code == 0 and not list((published / "yanks").rglob("*.json")), out + err


def test_publish_never_writes_a_record_readers_would_refuse(bundles, registry, run_opkg,
                                                            tmp_path):
    from opkg.core.bundle import write_bundle

    good = bundles()
    import tarfile
    with tarfile.open(good, "r:gz") as tar:
        meta = json.loads(tar.extractfile("opkg-bundle.json").read())
        files = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()
                 and m.name != "opkg-bundle.json"}
    meta["op"]["inputs"][0].pop("dtypes")       # a prototype `opkg info` could not print
    bad = tmp_path / "bad" / good.name
    write_bundle(bad, {k: v for k, v in meta.items() if k != "format"}, files)
    # a dry run says what the real publish would say, not "would-publish"
    code, out, err = run_opkg("publish", "--bundle", bad, "--registry", registry, "--dry-run")
    assert code == 1, out + err
    assert "its record would be malformed: 'op.inputs' must list tensors" in err
    code, out, err = run_opkg("publish", "--bundle", bad, "--registry", registry)
    assert code == 1, out + err
    assert "its record would be malformed: 'op.inputs' must list tensors" in err
    assert not list((registry / "records").rglob("*.json"))
    # refused before anything is stored: no orphan blobs
    assert not [p for p in registry.rglob("*") if p.is_file() and "blobs" in p.parts]
    code, out, err = run_opkg("registry", "check", "--registry", registry)
    assert code == 0, out + err
