"""The OCI backend as other OCI tools and a registry operator see it: the artifacts' layout (read
back with the registry's HTTP API and pulled with the ORAS SDK), yank marks as referrers,
credentials, connection errors, tampered manifests, repair of bundle tags. The behaviour both
backends share (publish, install, yank, check, concurrency) is the matrix in the other files."""

from __future__ import annotations

import base64
import json
import signal

import pytest
import requests

from oci_server import PASSWORD, USER, DockerRegistry, free_port
from registry_testlib import child_env, spawn_opkg
from opkg.core.errors import RegistryError, UsageError
from opkg.registry.install import install
from opkg.registry.oci import OciStore
from opkg.core.settings import parse_location
from opkg.registry.publish import publish_bundles
from opkg.registry.records import PAUSE_ENV, RESUME_ENV, sha256_file


@pytest.fixture
def server(tmp_path, monkeypatch):
    root = tmp_path / "oci-server"
    root.mkdir()
    s = DockerRegistry(root)
    for k, v in s.env().items():
        monkeypatch.setenv(k, v)
    yield s
    s.stop()


@pytest.fixture
def auth_server(tmp_path, monkeypatch):
    root = tmp_path / "oci-auth-server"
    root.mkdir()
    s = DockerRegistry(root, auth=True)
    monkeypatch.setenv("OPKG_OCI_PLAIN_HTTP", "1")
    monkeypatch.setenv("OPKG_OCI_SETTLE", "0.5")
    for k in ("OPKG_OCI_USERNAME", "OPKG_OCI_PASSWORD", "ORAS_USER", "ORAS_PASS"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("DOCKER_CONFIG", str(tmp_path / "no-docker-config"))
    yield s
    s.stop()


def get(server, path, accept=None):
    r = requests.get(f"http://{server.host}{path}", headers={"Accept": accept} if accept else {})
    assert r.status_code == 200, (path, r.status_code, r.text)
    return r


MANIFEST = "application/vnd.oci.image.manifest.v1+json"
INDEX = "application/vnd.oci.image.index.v1+json"


def test_a_bundle_is_an_oci_artifact_other_tools_can_pull(server, bundles, tmp_path):
    b = bundles()
    publish_bundles(OciStore(server.url), [b])
    tags = get(server, "/v2/opkg/add_custom/tags/list").json()["tags"]
    assert {"1.0.0", "1.0.0-Ascend910B1-sim"} <= set(tags)

    m = get(server, "/v2/opkg/add_custom/manifests/1.0.0-Ascend910B1-sim", MANIFEST).json()
    assert m["artifactType"] == "application/vnd.opkg.bundle.v1"
    assert m["config"]["mediaType"] == "application/vnd.oci.empty.v1+json"
    bundle, *reports = m["layers"]
    assert bundle["digest"] == sha256_file(b) and bundle["size"] == b.stat().st_size
    assert bundle["annotations"]["org.opencontainers.image.title"] == b.name
    assert sorted(r["annotations"]["org.opencontainers.image.title"] for r in reports) == \
        ["verification/float16.json", "verification/float32.json"]
    assert {r["mediaType"] for r in reports} == {"application/vnd.opkg.verification.v1+json"}
    ann = m["annotations"]
    assert (ann["vnd.opkg.soc"], ann["vnd.opkg.toolchain"]) == ("Ascend910B1", "sim")
    assert json.loads(ann["vnd.opkg.metadata"])["verification"]["passed"] is True
    assert json.loads(ann["vnd.opkg.manifest"])["op"]["type"] == "AddCustom"
    assert ann["org.opencontainers.image.version"] == "1.0.0"

    version = get(server, "/v2/opkg/add_custom/manifests/1.0.0", INDEX).json()
    assert version["artifactType"] == "application/vnd.opkg.version.v1"
    assert json.loads(version["annotations"]["vnd.opkg.record"])["name"] == "add_custom"

    # the ORAS SDK pulls the bundle as a file, byte for byte what was published
    import oras.client

    client = oras.client.OrasClient(hostname=server.host, insecure=True)
    files = client.pull(target=f"{server.host}/opkg/add_custom:1.0.0-Ascend910B1-sim",
                        outdir=str(tmp_path / "pulled"))
    pulled = {p.rsplit("/", 1)[-1]: p for p in files}
    assert open(pulled[b.name], "rb").read() == b.read_bytes()


def test_yank_marks_are_referrers_of_the_version(server, bundles, run_opkg):
    publish_bundles(OciStore(server.url), [bundles()])
    digest = requests.head(f"http://{server.host}/v2/opkg/add_custom/manifests/1.0.0",
                           headers={"Accept": INDEX}).headers["Docker-Content-Digest"]
    code, _, err = run_opkg("yank", "add_custom==1.0.0", "--reason", "wrong tail",
                            "--registry", server.url)
    assert code == 0, err
    code, _, err = run_opkg("unyank", "add_custom==1.0.0", "--registry", server.url)
    assert code == 0, err
    # distribution 2.8 has no referrers API: the OCI 1.1 fallback tag lists them
    fallback = get(server, f"/v2/opkg/add_custom/manifests/{digest.replace(':', '-')}",
                   INDEX).json()
    marks = [d for d in fallback["manifests"]
             if d["artifactType"] == "application/vnd.opkg.yank.v1"]
    assert [d["annotations"]["vnd.opkg.yanked"] for d in marks] == ["true", "false"]
    first = get(server, f"/v2/opkg/add_custom/manifests/{marks[0]['digest']}", MANIFEST).json()
    assert first["subject"]["digest"] == digest
    assert first["annotations"]["vnd.opkg.reason"] == "wrong tail"
    code, out, _ = run_opkg("info", "add_custom", "--registry", server.url, "--json")
    assert json.loads(out)["yanked"] is False


def test_credentials_from_docker_config_and_refusals(auth_server, bundles, tmp_path,
                                                     monkeypatch, run_opkg):
    b = bundles()
    code, _, err = run_opkg("publish", "--bundle", b, "--registry", auth_server.url)
    assert code == 1 and "refused" in err and "HTTP 401" in err, err
    assert "oras login" in err and "Traceback" not in err

    monkeypatch.setenv("OPKG_OCI_USERNAME", USER)
    monkeypatch.setenv("OPKG_OCI_PASSWORD", "wrong")
    code, _, err = run_opkg("search", "--registry", auth_server.url)
    assert code == 1 and "HTTP 401" in err
    monkeypatch.delenv("OPKG_OCI_USERNAME")
    monkeypatch.delenv("OPKG_OCI_PASSWORD")

    # what `docker login` / `oras login` write
    config = tmp_path / "docker"
    config.mkdir()
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    (config / "config.json").write_text(json.dumps({"auths": {auth_server.host: {"auth": token}}}))
    monkeypatch.setenv("DOCKER_CONFIG", str(config))
    code, out, err = run_opkg("publish", "--bundle", b, "--registry", auth_server.url)
    assert code == 0 and "published add_custom 1.0.0" in out, err
    assert f"registry: {auth_server.url}" in out


def test_unreachable_registry_is_one_clear_error(bundles, run_opkg, monkeypatch):
    monkeypatch.setenv("OPKG_OCI_PLAIN_HTTP", "1")
    url = f"oci://127.0.0.1:{free_port()}/opkg"
    for args in (["publish", "--bundle", bundles()], ["search"], ["info", "add_custom"],
                 ["install", "add_custom", "--soc", "Ascend910B1", "--dest", "d"],
                 ["registry", "check"]):
        code, _, err = run_opkg(*args, "--registry", url)
        assert code == 1, (args, err)
        assert f"cannot reach OCI registry {url}" in err and "Traceback" not in err


def test_tls_is_the_default_and_its_failure_says_what_to_set(server, run_opkg, monkeypatch):
    monkeypatch.delenv("OPKG_OCI_PLAIN_HTTP")
    code, _, err = run_opkg("search", "--registry", server.url)
    assert code == 1 and "cannot reach OCI registry" in err
    assert "OPKG_OCI_PLAIN_HTTP=1" in err


@pytest.mark.parametrize("url, problem", [
    ("oci://", "missing or malformed host"),
    ("oci://host:5000", "no namespace"),
    ("oci://host:5000/Team", "'Team' is not a valid repository name component"),
    ("oci://ho st/opkg", "missing or malformed host"),
])
def test_malformed_urls(url, problem, run_opkg, tmp_path):
    with pytest.raises(UsageError, match=problem):
        parse_location(url)
    code, _, err = run_opkg("search", "--registry", url)
    assert code == 2 and problem in err
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "opkg-workspace.yaml").write_text(f"# team registry\nregistry: {url}\n")
    from opkg.core.workspace import Workspace

    with pytest.raises(UsageError) as exc:
        Workspace.load(ws)
    assert problem in exc.value.message
    assert "opkg-workspace.yaml:2" in str(exc.value.location)


def test_workspace_names_an_oci_registry(server, bundles, run_opkg, tmp_path, monkeypatch):
    publish_bundles(OciStore(server.url), [bundles()])
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "opkg-workspace.yaml").write_text(f"registry: {server.url}\n")
    monkeypatch.chdir(ws)
    code, out, err = run_opkg("search")
    assert code == 0 and out.startswith("add_custom  1.0.0"), err


def test_a_tampered_version_manifest_is_refused(server, bundles, tmp_path, run_opkg):
    publish_bundles(OciStore(server.url), [bundles()])
    r = requests.get(f"http://{server.host}/v2/opkg/add_custom/manifests/1.0.0",
                     headers={"Accept": INDEX})
    digest = r.headers["Docker-Content-Digest"]
    # the same record with more trust in it, stored where the registry keeps the manifest
    version = r.json()
    record = json.loads(version["annotations"]["vnd.opkg.record"])
    record["summary"] = "now with extra trust"
    version["annotations"]["vnd.opkg.record"] = json.dumps(record, sort_keys=True)
    server.blob_file(digest).write_bytes(json.dumps(version).encode())
    with pytest.raises(RegistryError, match="it was modified after publishing"):
        install(OciStore(server.url), "add_custom", soc="Ascend910B1", dest=tmp_path / "ops")
    assert not (tmp_path / "ops" / "add_custom").exists()
    code, _, err = run_opkg("registry", "check", "--registry", server.url)
    assert code == 1 and "modified after publishing" in err


def test_publish_killed_after_its_commit_is_finished_by_the_next_publish(server, bundles,
                                                                        tmp_path, run_opkg):
    b = bundles()
    env = child_env(**{PAUSE_ENV: "record-committed", RESUME_ENV: str(tmp_path / "never")})
    proc = spawn_opkg("publish", "--bundle", b, "--registry", server.url, env=env)
    assert "paused at record-committed" in proc.stderr.readline()
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    # committed: the version is there, its bundle tag is not yet
    report = OciStore(server.url).check()
    assert report.ok and report.versions == 1
    assert [p.message.split(" (")[0] for p in report.problems] == ["bundle tag missing"]
    code, out, err = run_opkg("publish", "--bundle", b, "--registry", server.url)
    assert code == 0 and "unchanged add_custom 1.0.0" in out, err
    assert OciStore(server.url).check().problems == []


def test_repair_repoints_a_moved_bundle_tag(server, bundles, run_opkg):
    publish_bundles(OciStore(server.url), [bundles(version="1.0.0", subdir="a")])
    publish_bundles(OciStore(server.url), [bundles(version="1.1.0", subdir="b")])
    # someone pushes 1.1.0's bundle artifact over 1.0.0's bundle tag
    moved = requests.get(f"http://{server.host}/v2/opkg/add_custom/manifests/"
                         "1.1.0-Ascend910B1-sim", headers={"Accept": MANIFEST}).content
    r = requests.put(f"http://{server.host}/v2/opkg/add_custom/manifests/1.0.0-Ascend910B1-sim",
                     data=moved, headers={"Content-Type": MANIFEST})
    assert r.status_code == 201
    code, out, err = run_opkg("registry", "check", "--registry", server.url)
    assert code == 0 and "bundle tag points elsewhere" in out + err
    code, out, err = run_opkg("registry", "check", "--repair", "--registry", server.url)
    assert code == 0 and "repaired: tagged opkg/add_custom:1.0.0-Ascend910B1-sim" in out, out
    assert OciStore(server.url).check().problems == []


def test_versions_a_tag_cannot_hold_are_refused(server, bundles):
    with pytest.raises(UsageError, match="an epoch"):
        publish_bundles(OciStore(server.url), [bundles(version="1!2.0")])
    with pytest.raises(UsageError, match="cannot be an OCI repository name"):
        publish_bundles(OciStore(server.url), [bundles(name="add_")])


def test_a_damaged_blob_is_named_on_republish(server, bundles, run_opkg):
    """A directory registry takes the intact copy back; an OCI registry keeps the first copy of
    a digest, so the republish says what is damaged instead of claiming to have restored it."""
    b = bundles()
    publish_bundles(OciStore(server.url), [b])
    server.blob_file(sha256_file(b)).write_bytes(b"rotten")
    code, out, err = run_opkg("publish", "--bundle", b, "--registry", server.url)
    assert code == 1 and f"@{sha256_file(b)} is damaged (corrupt" in err, err
    assert "did not take the intact copy" in err and "administrator" in err


def test_a_manifest_put_whose_blob_is_unknown_for_a_moment_is_retried(server):
    # distribution rewrites a blob's repository link in place when any client finishes uploading
    # that blob, so a manifest verified in that moment finds its blob unknown (two publishers of
    # the same bundle hit it). Here the blob lands just after the first PUT: the retry succeeds.
    import hashlib
    import threading
    import time

    store = OciStore(server.url)
    repo = store.repo("late_blob")
    data = b"a blob that lands late"
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    empty = "sha256:" + hashlib.sha256(b"{}").hexdigest()
    store._push_blob(repo, empty, 2, data=b"{}")
    body = json.dumps({"schemaVersion": 2, "mediaType": MANIFEST,
                       "config": {"mediaType": "application/vnd.oci.empty.v1+json",
                                  "digest": empty, "size": 2},
                       "layers": [{"mediaType": "application/octet-stream", "digest": digest,
                                   "size": len(data)}]}).encode()
    with pytest.raises(RegistryError) as err:       # a blob that never lands: still refused
        store._put_manifest(repo, "never", body, MANIFEST)
    assert "MANIFEST_BLOB_UNKNOWN" in str(err.value)

    def upload_late():
        time.sleep(0.1)
        OciStore(server.url)._push_blob(repo, digest, len(data), data=data)

    t = threading.Thread(target=upload_late)
    t.start()
    try:
        store._put_manifest(repo, "late", body, MANIFEST)
    finally:
        t.join()
    assert get(server, f"/v2/{repo}/manifests/late", MANIFEST).content == body
