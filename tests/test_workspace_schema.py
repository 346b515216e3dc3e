"""opkg-workspace.yaml: its JSON Schema (opkg/schema/opkg-workspace.schema.json) names exactly the
keys opkg reads, docs/workspace.md is the page generated from it, and `opkg init` writes a
workspace file that both the schema and opkg accept; `opkg new` outside a workspace says how to
make one."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

import opkg
from opkg.core import settings, workspace
from tests.conftest import REPO, opkg as run

SCHEMA_PATH = Path(opkg.__file__).parent / "schema" / "opkg-workspace.schema.json"


@pytest.fixture(scope="module")
def schema() -> dict:
    data = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def problems(schema, data) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


def test_the_schema_names_the_keys_opkg_reads(schema):
    props = schema["properties"]
    assert list(props) == list(workspace.SETTINGS)
    assert list(props["distcc"]["properties"]) == list(settings.DISTCC_KEYS)
    for section in ("remote_cache", "remote_exec"):
        mapping = next(s for s in props[section]["oneOf"] if s["type"] == "object")
        assert list(mapping["properties"]) == list(settings.REMOTE_KEYS)
    assert all(spec.get("description") for spec in props.values())


def test_the_reference_page_is_generated_from_the_schema(schema):
    spec = importlib.util.spec_from_file_location("gen_workspace", REPO / "docs" / "gen_workspace.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    page = (REPO / "docs" / "workspace.md").read_text()
    assert page == gen.render(schema), "docs/workspace.md is stale: run `make docs`"
    for key in workspace.SETTINGS:
        assert f"### `{key}`" in page


def test_the_schema_accepts_what_opkg_accepts_and_refuses_an_unknown_key(schema, tmp_path):
    assert problems(schema, yaml.safe_load((REPO / "opkg-workspace.yaml").read_text())) == []
    assert problems(schema, None) == []          # an empty file takes the defaults
    good = {"package_roots": ["packages", "vendor"], "default_socs": ["Ascend910B1"],
            "distcc": {"hosts": "build1/8", "enabled": False},
            "remote_cache": {"url": "grpcs://cache.example:443/main", "token_file": "t"},
            "remote_exec": "grpc://buildgrid.example:50051"}
    assert problems(schema, good) == []
    (tmp_path / workspace.WORKSPACE_FILE).write_text(yaml.safe_dump(good))
    workspace.Workspace.load(tmp_path)
    bad = {"package_root": ["packages"]}
    assert problems(schema, bad) and "package_root" in problems(schema, bad)[0]
    (tmp_path / workspace.WORKSPACE_FILE).write_text("package_root: [packages]\n")
    with pytest.raises(opkg.core.errors.ManifestError, match="unknown setting 'package_root'"):
        workspace.Workspace.load(tmp_path)
    assert problems(schema, {"remote_cache": {"url": "grpc://h:1/x", "token": "s"}})


def test_init_writes_a_documented_workspace_with_a_sample_and_a_gitignore(schema, tmp_path):
    r = run("init", "ops", cwd=tmp_path, check=0)
    ws = tmp_path / "ops"
    assert r.stdout.splitlines()[-1] == "next: cd ops && opkg build //..."
    text = (ws / "opkg-workspace.yaml").read_text()
    assert problems(schema, yaml.safe_load(text)) == []
    for key, spec in schema["properties"].items():      # every key is there, set or commented
        assert f"\n{key}: " in text or f"\n# {key}: " in text, key
    # the keys it sets hold the defaults: the same settings as an empty file
    loaded = workspace.Workspace.load(ws).settings
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / workspace.WORKSPACE_FILE).write_text("")
    defaults = workspace.Workspace.load(tmp_path / "empty").settings
    assert loaded.output_dir.relative_to(ws) == defaults.output_dir.relative_to(tmp_path / "empty")
    assert loaded.registry.relative_to(ws) == defaults.registry.relative_to(tmp_path / "empty")
    assert "/out/" in (ws / ".gitignore").read_text().splitlines()
    assert (ws / "packages" / "my_add" / "opkg.yaml").is_file()
    r = run("query", "packages", cwd=ws, check=0)
    assert "//packages/my_add" in r.stdout and "MyAdd" in r.stdout

    r = run("init", "ops", cwd=tmp_path, check=2)       # never over an existing workspace
    assert "already exists" in r.stderr and "opkg new NAME" in r.stderr


def test_init_keeps_an_existing_gitignore_and_checks_before_writing(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / ".gitignore").write_text("*.o\n")
    r = run("init", "repo", "--no-sample", "--json", cwd=tmp_path, check=0)
    assert json.loads(r.stdout)["files"] == ["opkg-workspace.yaml"]
    assert (tmp_path / "repo" / ".gitignore").read_text() == "*.o\n"
    r = run("init", "bad", "--sample", "MyAdd", cwd=tmp_path, check=2)
    assert "not a package name" in r.stderr and not (tmp_path / "bad").exists()


def test_new_outside_a_workspace_says_how_to_make_one(tmp_path):
    r = run("new", "my_add", cwd=tmp_path, check=2)
    assert "no opkg-workspace.yaml" in r.stderr
    assert "hint: create one first: opkg init" in r.stderr
    assert not (tmp_path / "my_add").exists()


def test_new_reads_the_op_type_from_the_name(tmp_path):
    run("init", ".", "--no-sample", cwd=tmp_path, check=0)
    r = run("new", "scaled_add", cwd=tmp_path, check=0)
    assert r.stdout.splitlines()[0] == "op type ScaledAdd (from the name; --op-type chooses another)"
    manifest = yaml.safe_load((tmp_path / "packages/scaled_add/opkg.yaml").read_text())
    assert manifest["op"]["type"] == "ScaledAdd"
    assert (tmp_path / "packages/scaled_add/op_kernel/scaled_add.cpp").is_file()


def test_schema_prints_where_the_schemas_are():
    r = run("schema", cwd=REPO, check=0)
    paths = dict(line.split(None, 1) for line in r.stdout.splitlines())
    assert Path(paths["manifest"]) == (SCHEMA_PATH.parent / "opkg.schema.json").resolve()
    assert Path(paths["workspace"]) == SCHEMA_PATH.resolve()
    assert run("schema", "workspace", cwd=REPO, check=0).stdout.strip() == str(SCHEMA_PATH.resolve())
    settings = json.loads(run("schema", "--vscode", cwd=REPO, check=0).stdout)["yaml.schemas"]
    assert settings[str(SCHEMA_PATH.resolve())] == "**/opkg-workspace.yaml"
