"""opkg/schema/opkg.schema.json, the JSON Schema editors validate opkg.yaml with: it accepts
every manifest opkg accepts here, refuses the mistakes opkg refuses, and names the same
dtypes, formats and types as opkg."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

import opkg
from opkg.core.model import ATTR_TYPES, DTYPES, FORMATS, PARAM_TYPES
from tests.conftest import MINIMAL_MANIFEST, REPO

SCHEMA_PATH = Path(opkg.__file__).parent / "schema" / "opkg.schema.json"
MANIFESTS = sorted(REPO.glob("packages/*/opkg.yaml")) + sorted(
    REPO.glob("tests/fixtures/**/opkg.yaml"))


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(validator, data) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(data)]


def test_the_schema_is_package_data():
    import tomllib

    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "schema/*.json" in data["tool"]["setuptools"]["package-data"]["opkg"]


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_manifest_here_is_valid(validator, path):
    assert problems(validator, yaml.safe_load(path.read_text())) == []


def test_the_schema_names_what_opkg_knows(validator):
    defs = validator.schema["$defs"]
    assert defs["dtype"]["enum"] == list(DTYPES)
    assert defs["tensor"]["properties"]["formats"]["items"]["enum"] == list(FORMATS)
    assert defs["tensor"]["properties"]["param_type"]["enum"] == list(PARAM_TYPES)
    assert defs["attr"]["properties"]["type"]["enum"] == list(ATTR_TYPES)


def minimal() -> str:
    return MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]")


# each mistake, as the schema reports it (the path) and as opkg does (its message)
BAD = [
    (("summary:", "sumary:"), "", "unknown key 'sumary'"),
    (("float16]", "flaot16]"), "op.inputs.0.dtypes.1", "unknown dtype 'flaot16'"),
    (("name: addone", "name: AddOne"), "name", "is not a package name"),
    (("type: AddOne", "type: add_one"), "op.type", "is not an op type"),
    (("x: [4, 64]", "x: [4, -64]"), "verify.cases.0.shapes.x", "non-negative integer"),
    (("golden: golden.py:golden", "golden: golden.py"), "verify.golden", "is not 'file.py:function'"),
    (("formats: [ND]", "formats: [NDD]"), "op.inputs.0.formats.0", "unknown format"),
    (("default: 1.0", "required: 1"), "op.attrs.0", "expected true or false"),
    (("deps: []", "deps: {a: 1}"), "deps", "expected a list"),
    (("version: 1.0.0\n", ""), "", "missing required key 'version'"),
]


@pytest.mark.parametrize("edit, where, opkg_says", BAD, ids=[b[2] for b in BAD])
def test_bad_manifests_fail_the_schema_and_opkg(validator, workspace, edit, where, opkg_says):
    from opkg.core.errors import ManifestError

    text = minimal().replace(*edit, 1)
    assert text != minimal()
    found = problems(validator, yaml.safe_load(text))
    assert found and any(p.startswith(where) for p in found), found
    workspace.operator("addone", manifest=text)
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert opkg_says in info.value.render()


def test_a_dynamic_input_may_have_a_range_per_tensor(validator):
    data = yaml.safe_load((REPO / "tests/fixtures/add_n/opkg.yaml").read_text())
    case = data["verify"]["cases"][0]
    case["ranges"] = {"x": [[0, 0.5], [10, 10], [-3, -2]]}
    assert problems(validator, data) == []
    case["ranges"] = {"x": [[0, 0.5, 1]]}
    assert problems(validator, data)
