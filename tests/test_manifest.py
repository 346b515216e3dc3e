"""Manifest validation: every mistake is reported with file:line:column, field and a hint."""

from __future__ import annotations

import pytest

from opkg.core.errors import ManifestError
from tests.conftest import MINIMAL_MANIFEST


def manifest(**overrides) -> str:
    values = {"name": "addone", "op_type": "AddOne", "deps": "[]"}
    values.update(overrides)
    return MINIMAL_MANIFEST.format(**values)


def load_error(workspace, text: str) -> ManifestError:
    workspace.operator("addone", manifest=text)
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    return info.value


def test_valid_manifest_loads_every_field(workspace):
    workspace.operator("addone")
    pkg = workspace.load().packages["//packages/addone"]
    assert pkg.name == "addone" and pkg.version == "1.0.0"
    assert pkg.op.kernel_name == "add_one"
    assert [v.name for v in pkg.op.variants()] == ["float32", "float16"]
    assert pkg.op.attrs[0].default == 1.0
    assert pkg.socs == ("Ascend910B1",)
    assert pkg.verify.cases[0].attrs == {"alpha": 1.0}
    # CANN's precision standard: 2^-10 for float16, 2^-13 float32, 2^-7 bfloat16
    assert pkg.verify.tolerance_for("float16").rtol == 2.0 ** -10
    assert pkg.verify.tolerance_for("float32").atol == 2.0 ** -13
    assert pkg.verify.tolerance_for("bfloat16").error_ratio == 2.0 ** -7


def position(text: str, marker: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of marker."""
    offset = text.index(marker)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# (text to replace, replacement, where the error must point, field, message, hint)
MISTAKES = [
    ("summary: a test operator", "sumary: x", "sumary", "sumary", "unknown key 'sumary'",
     "did you mean 'summary'?"),
    ("[float32, float16], formats: [ND]}\n  outputs", "[float32, flaot16], formats: [ND]}\n"
     "  outputs", "flaot16", "op.inputs[0].dtypes[1]", "unknown dtype 'flaot16'",
     "did you mean 'float16'?"),
    ("{name: x, dtypes: [float32, float16]", "{name: x, dtypes: [float32, fp16]", "fp16",
     "op.inputs[0].dtypes[1]", "spelt 'float16'", "did you mean 'float16'?"),
    ("socs: [Ascend910B1]", "socs: [Ascend910B9]", "Ascend910B9", "socs[0]",
     "unknown SoC 'Ascend910B9'", "did you mean"),
    ("source: op_kernel/op.cpp", "source: op_kernel/opp.cpp", "op_kernel/opp.cpp",
     "kernel.source", "file not found: op_kernel/opp.cpp", "did you mean 'op_kernel/op.cpp'?"),
    ("version: 1.0.0", "version: one", "one\nsummary", "version", "not a PEP 440 version", "1.0.0"),
    ("type: AddOne", "type: add_one", "add_one", "op.type", "CamelCase", None),
    ("default: 1.0}", "default: yes}", "yes}", "op.attrs[0].default", "expected a number",
     None),
    ("shapes: {x: [4, 64]}", "shapes: {y: [4, 64]}", "y: [4", "verify.cases[0].shapes.y",
     "unknown key 'y'", "allowed keys: x"),
    ("shapes: {x: [4, 64]}", "shapes: {x: [4, -1]}", "-1]", "verify.cases[0].shapes.x[1]",
     "non-negative integer", None),
    ("golden: golden.py:golden", "golden: golden.py:gold", "golden.py:gold", "verify.golden",
     "defines no function 'gold'", "did you mean 'golden'?"),
    ("[float32, float16], formats: [ND]}\n  attrs", "[float32], formats: [ND, NCHW, NHWC]}\n  attrs",
     "[ND, NCHW, NHWC]", "op.outputs[0].formats", "3 formats for 2 dtype variants", None),
    ("deps: []", "deps: {a: 1}", "{a: 1}", "deps", "expected a list", None),
    ("version: 1.0.0", "version: 1.10", "1.10", "version", "is the number 1.1", '"1.10"'),
    ("socs: [Ascend910B1]", "socs: [Ascend910B1]\ntoolchain: {cann: 8.0}", "8.0}",
     "toolchain.cann", "is a number to YAML", "quote it"),
    ("shapes: {x: [4, 64]}", "shapes: {x: [0, 64]}", "- {name: small", "verify.cases",
     "would check nothing", "add a case with data"),
    ("name: addone\n", "name: addone\nbase: &b {a: 1}\nother: {<<: *b}\n", "<<", None,
     "merge keys", "write the keys out"),
    ("- {name: small,", "- {name: small, ranges: {x: [1, 0]},", "[1, 0]",
     "verify.cases[0].ranges.x", "low (1.0) is above high (0.0)", "[v, v] for an input"),
    ("- {name: small,", "- {name: small, values: {x: [1, 2, 3]},", "[1, 2, 3]",
     "verify.cases[0].values.x", "3 values for 'x' of shape [4, 64], which has 256 elements",
     "one value per element"),
    ("- {name: small,", "- {name: small, attrs: {alpha: {per_variant: {float32: 1.0}}},",
     "{float32: 1.0}", "verify.cases[0].attrs.alpha.per_variant", "no value for variant(s) float16",
     "one per dtype variant: float32, float16"),
    ("- {name: small,", "- {name: small, attrs: {alpha: {per_variant: {float32: 1.0, f16: 2.0}}},",
     "f16:", "verify.cases[0].attrs.alpha.per_variant.f16", "unknown key 'f16'", None),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  inplace: [y]\n",
     "y]", "verify.inplace[0]", "'y' is not an input of AddOne", "inputs: x"),
    ("  outputs:\n    - {name: z, dtypes: [float32, float16], formats: [ND]}\n", "  outputs: []\n",
     "golden: golden.py", "verify", "AddOne has no outputs, so verification would compare nothing",
     "inplace: [x]"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  sync_check: yes please\n",
     "yes please", "verify.sync_check", "expected true or false", None),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  lenient_copy: sometimes\n",
     "sometimes", "verify.lenient_copy", "expected true or false", None),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: soon\n",
     "soon", "verify.timeout", "expected a number, got the string 'soon'", None),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: 0.5\n",
     "0.5", "verify.timeout", "must be >= 1, got 0.5", None),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float32: {error_ratio: 0.75}}\n",
     "0.75", "verify.tolerance.float32.error_ratio", "would let a wrong kernel pass", "at most 0.5"),
    # .nan slips past every comparison; .inf and 1e300 are a hang nobody waits for
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: .nan\n",
     ".nan", "verify.timeout", "must be a finite number, got nan", "seconds for all cases"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: .inf\n",
     ".inf", "verify.timeout", "must be a finite number, got inf", "1 to 86400"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: 1e300\n",
     "1e300", "verify.timeout", "must be <= 86400, got 1e+300", "seconds for all cases"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  timeout: " + "9" * 400 + "\n",
     "9999", "verify.timeout", "must be a finite number", None),
    # atol: .inf passed a kernel that writes garbage
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float32: {atol: .inf}}\n",
     ".inf}", "verify.tolerance.float32.atol", "must be a finite number", "atol an absolute"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float32: {rtol: .inf}}\n",
     ".inf}", "verify.tolerance.float32.rtol", "must be a finite number", "at most 1"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float16: {rtol: 1.0e+30}}\n",
     "1.0e+30", "verify.tolerance.float16.rtol", "must be <= 1, got 1e+30", "share of |expected|"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float16: {atol: 1e9}}\n",
     "1e9", "verify.tolerance.float16.atol", "must be <= 1000, got 1000000000.0", "at most 1000"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  tolerance: {float16: {error_ratio: .nan}}\n",
     ".nan", "verify.tolerance.float16.error_ratio", "must be a finite number", None),
    # names looked up in a table must be strings first (a list was a TypeError traceback)
    ("[float32, float16], formats: [ND]}\n  outputs", "[[float32], float16], formats: [ND]}\n"
     "  outputs", "[float32], float16]", "op.inputs[0].dtypes[0]",
     "expected a dtype name such as float16, got a list", None),
    ("formats: [ND]}\n  outputs", "formats: [{a: 1}]}\n  outputs", "{a: 1}]}\n  outputs",
     "op.inputs[0].formats[0]", "expected a format name such as ND, got a mapping", None),
    ("socs: [Ascend910B1]", "socs: [[Ascend910B1]]", "[Ascend910B1]]", "socs[0]",
     "expected a SoC name such as Ascend910B1, got a list", None),
    ("type: float, default", "type: [float], default", "[float], default", "op.attrs[0].type",
     "expected an attr type such as float, got a list", None),
    # what `opkg import` writes for an operator of an ops repository
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  golden_convention: pytest\n",
     "pytest", "verify.golden_convention", "unknown golden convention 'pytest'",
     "ttk: the ops repositories' tests/assets/golden.py"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  outputs_prefill: nan\n",
     "nan", "verify.outputs_prefill", "unknown output prefill 'nan'", "zero (elements the kernel"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  requires: [torch, 2]\n",
     "2]", "verify.requires[1]", "2 is not a Python module name", "e.g. torch"),
    ("golden: golden.py:golden\n", "golden: golden.py:golden\n  requires: [torch-npu]\n",
     "torch-npu", "verify.requires[0]", "'torch-npu' is not a Python module name", None),
    ("socs: [Ascend910B1]", "origin: {repository: ops_nn, path: [norm]}\nsocs: [Ascend910B1]",
     "[norm]", "origin.path", "expected a string, got ['norm']", None),
    ("socs: [Ascend910B1]", "origin: {path: norm/rms_norm}\nsocs: [Ascend910B1]",
     "{path", "origin", "repository", None),
]


@pytest.mark.parametrize("old, new, marker, field, message, hint", MISTAKES,
                         ids=[m[3] for m in MISTAKES])
def test_each_mistake_points_at_its_place(workspace, old, new, marker, field, message, hint):
    text = manifest()
    assert old in text, old
    text = text.replace(old, new, 1)
    err = load_error(workspace, text)
    line, column = position(text, marker)
    assert err.location.path.name == "opkg.yaml"
    assert (err.location.line, err.location.column) == (line, column), err.render()
    assert err.field == field
    assert message in err.message
    if hint:
        assert hint in err.hint
    assert err.exit_code == 2
    assert err.render().startswith(f"{err.location}: error: " + (f"{field}: " if field else ""))
    assert str(err.location).endswith(f"opkg.yaml:{line}:{column}")


def with_cases(workspace, cases: str, name: str = "addone"):
    """The package `name` whose verify.cases are `cases` (YAML list items), loaded."""
    text = manifest().replace("- {name: small, shapes: {x: [4, 64]}}", cases)
    workspace.operator(name, manifest=text)
    return workspace.load().packages[f"//packages/{name}"]


def test_case_values_constants_and_per_variant_attrs_load(workspace):
    pkg = with_cases(workspace, "- {name: small, shapes: {x: [2]}, values: {x: [3, -1]}, "
                                "attrs: {alpha: {per_variant: {float32: 0.5, float16: 2}}}}\n"
                                "    - {name: const, shapes: {x: [4]}, ranges: {x: [7, 7]}}")
    small, const = pkg.verify.cases
    assert small.values == {"x": (3, -1)} and const.ranges == {"x": (7.0, 7.0)}
    assert small.attrs_for("float32") == {"alpha": 0.5}
    assert small.attrs_for("float16") == {"alpha": 2.0}
    assert const.attrs_for("float16") == {"alpha": 1.0}


def test_a_case_written_for_some_dtypes_runs_in_their_variants(workspace):
    from opkg.core.manifest import cases_for, untested_reason

    pkg = with_cases(workspace, "- {name: small, shapes: {x: [4, 64]}, dtypes: {x: float16, z: float16}}\n"
                                "    - {name: any, shapes: {x: [8]}}\n"
                                "    - {name: half_only, shapes: {x: [3]}, dtypes: {z: float16}}")
    small = pkg.verify.cases[0]
    assert small.dtypes == {"x": "float16", "z": "float16"}
    fp32, fp16 = pkg.op.variant("float32"), pkg.op.variant("float16")
    assert [c.name for c in cases_for(pkg.verify.cases, fp16)] == ["small", "any", "half_only"]
    assert [c.name for c in cases_for(pkg.verify.cases, fp32)] == ["any"]
    # a variant no case is written for (only ones with dtypes elsewhere) runs none: untested
    only_half = [c for c in pkg.verify.cases if c.dtypes]
    assert cases_for(only_half, fp32) == []
    assert untested_reason(only_half, fp32).startswith("untested: none of the 2 cases")
    assert untested_reason(pkg.verify.cases, fp32) is None and untested_reason([], fp32) is None
    with pytest.raises(ManifestError, match="unknown dtype 'float99'"):
        with_cases(workspace, "- {name: small, shapes: {x: [4, 64]}, dtypes: {x: float99}}", "addtwo")


def test_kernel_entry_must_be_snake_case_of_op_type(workspace):
    workspace.operator("addone", entry="add_onne")
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    err = info.value
    assert err.field == "op.type"
    assert "needs a kernel function named 'add_one'" in err.message
    assert "op_kernel/op.cpp:2 defines 'add_onne'" in err.message
    assert "rename" in err.hint


@pytest.mark.parametrize("entry, loads", [("add_one", True), ("add_onne", False)])
def test_a_kernel_entry_spelled_with_a_header_macro_is_the_entry(workspace, entry, loads):
    # ops-nn's `KERNEL_API void elu(...)`, KERNEL_API defined in a header the manifest cannot see
    workspace.operator("addone")
    workspace.write("packages/addone/op_kernel/op.cpp",
                    '#include "platform.h"\n'
                    f"KERNEL_API void {entry}(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {{}}\n")
    if loads:
        assert workspace.load().packages["//packages/addone"].op.kernel_name == "add_one"
    else:
        with pytest.raises(ManifestError, match="defines no __global__ kernel function"):
            workspace.load().packages


def test_duplicate_key_is_an_error_not_a_silent_override(workspace):
    err = load_error(workspace, manifest().replace("version: 1.0.0",
                                                   "version: 1.0.0\nversion: 2.0.0"))
    assert "duplicate key 'version'" in err.message
    assert err.location.line == 3


def test_invalid_yaml_names_the_line(workspace):
    err = load_error(workspace, manifest().replace("socs: [Ascend910B1]", "socs: [Ascend910B1"))
    assert "invalid YAML" in err.message
    # PyYAML notices the missing ']' at the next token, on the line after it
    assert err.location.line == position(manifest(), "socs:")[0] + 1


def test_dtype_lists_of_different_lengths(workspace):
    text = manifest().replace("{name: z, dtypes: [float32, float16]",
                              "{name: z, dtypes: [float32, float16, int8]")
    err = load_error(workspace, text)
    assert "different lengths" in err.message and "x=2" in err.message and "z=3" in err.message
    assert "matched by position" in err.hint


def test_yaml_1_1_exponent_floats_are_accepted(workspace):
    workspace.operator("addone", manifest=manifest().replace("default: 1.0", "default: 1e-5"))
    assert workspace.load().packages["//packages/addone"].op.attrs[0].default == 1e-5


def test_library_package_cannot_have_a_kernel(workspace):
    workspace.library("common")
    workspace.write("packages/common/opkg.yaml",
                    "name: common\nversion: 0.1.0\nkernel: {source: x.cpp}\n")
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert "'kernel' needs an 'op:' section" in info.value.message


def test_duplicate_package_names(workspace):
    workspace.operator("addone")
    workspace.operator("other", manifest=manifest())   # also named 'addone'
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert "already used by //packages/addone" in info.value.message


def test_path_escaping_the_package_is_refused(workspace):
    workspace.write("secret.cpp", "int x;\n")
    err = load_error(workspace, manifest().replace("source: op_kernel/op.cpp",
                                                   "source: ../../secret.cpp"))
    assert "outside the package directory" in err.message


def test_case_missing_a_required_input_shape(workspace):
    err = load_error(workspace, manifest().replace("shapes: {x: [4, 64]}", "shapes: {}"))
    assert "no shape for input 'x'" in err.message


def test_sync_check_is_off_unless_the_manifest_asks(workspace):
    workspace.operator("addone")
    assert workspace.load().packages["//packages/addone"].verify.modes.sync_check is False
    text = manifest().replace("golden: golden.py:golden\n", "golden: golden.py:golden\n  sync_check: true\n")
    workspace.operator("addone", manifest=text)
    assert workspace.load().packages["//packages/addone"].verify.modes.sync_check is True


def test_strict_bounds_is_a_manifest_mode_and_reaches_the_verification_job(workspace, tmp_path):
    from opkg.core.model import SimModes
    from opkg.toolchains.sim import _verify_job

    text = manifest().replace("golden: golden.py:golden\n", "golden: golden.py:golden\n  strict_bounds: true\n")
    workspace.operator("addone", manifest=text)
    pkg = workspace.load().packages["//packages/addone"]
    assert pkg.verify.modes == SimModes(strict_bounds=True)
    op = pkg.op
    from opkg.core.socs import get_soc
    job = _verify_job(pkg, op, get_soc("Ascend910B1"), op.variants()[0], tmp_path / "h.so", tmp_path / "k.so",
                      workspace.root)
    assert job["modes"] == {"strict_bounds": True}
    assert SimModes.from_json(job["modes"]).strict_bounds


def test_tolerance_defaults_and_overrides(workspace):
    text = manifest() + "  tolerance:\n    float16: {rtol: 2.0e-3}\n"
    workspace.operator("addone", manifest=text)
    tol = workspace.load().packages["//packages/addone"].verify.tolerance_for("float16")
    assert (tol.rtol, tol.atol, tol.error_ratio) == (2e-3, 2.0 ** -10, 2.0 ** -10)


SOC_CONFIG = """\
  soc_configs:
    ascend310p:
      inputs:
        - {name: x, dtypes: [float32]}
      outputs:
        - {name: %s, dtypes: [float32]}
"""


def test_soc_configs_give_a_soc_its_own_dtype_variants(workspace):
    text = manifest().replace("tiling:\n", SOC_CONFIG % "z" + "tiling:\n", 1)
    workspace.operator("addone", manifest=text)
    op = workspace.load().packages["//packages/addone"].op
    assert [v.name for v in op.for_soc("ascend310p").variants()] == ["float32"]
    assert [v.name for v in op.for_soc("ascend910b").variants()] == ["float32", "float16"]
    assert type(op).from_json(op.to_json()) == op


def test_soc_config_naming_other_tensors_is_an_error_at_its_line(workspace):
    text = manifest().replace("tiling:\n", SOC_CONFIG % "out" + "tiling:\n", 1)
    err = load_error(workspace, text)
    assert err.field == "op.soc_configs.ascend310p.outputs"
    assert "names ['out'] differ from op.outputs ['z']" in err.message
    assert "every tensor of the op" in err.hint


def test_an_optional_input_is_verified_in_place_when_every_case_gives_it(workspace):
    # (a case leaving it out is an error: tests/test_inplace_lists.py)
    text = manifest().replace("- {name: x, dtypes:", "- {name: x, param_type: optional, dtypes:")
    text = text.replace("golden: golden.py:golden\n", "golden: golden.py:golden\n  inplace: [x]\n")
    workspace.operator("addone", manifest=text)
    assert workspace.load().packages["//packages/addone"].verify.inplace == ("x",)


def test_a_package_name_of_240_characters_is_refused_at_load_with_the_limit(workspace):
    long = "a" * 240
    err = load_error(workspace, manifest().replace("name: addone", f"name: {long}", 1))
    assert err.field == "name" and err.location.line == 1
    assert "is 240 characters long; at most 64" in err.message
    assert "a bug in opkg" not in str(err)


def test_an_op_type_and_a_case_name_past_their_limits_are_refused(workspace):
    err = load_error(workspace, manifest(op_type="A" + "b" * 200))
    assert err.field == "op.type" and "at most 128" in err.message
    err = load_error(workspace, manifest().replace("name: small", "name: " + "c" * 129))
    assert err.field == "verify.cases[0].name" and "at most 128" in err.message


def _with_cases(n: int, per_case: str) -> str:
    text = manifest()
    head, _ = text.split("  cases:\n")
    return head + "  cases:\n" + "".join(
        f"    - {{name: c{i}, shapes: {{x: [4, 64]}}{per_case}}}\n" for i in range(n))


def test_10000_cases_are_refused_as_too_many_cases_not_as_aliases(workspace):
    err = load_error(workspace, _with_cases(10_000, ""))
    assert err.field == "verify.cases"
    assert "10000 cases; a package verifies at most 1000" in err.message
    assert "alias" not in str(err).lower()


def test_a_list_past_the_yaml_value_limit_names_it_not_aliases(workspace):
    # 10000 cases of 12 values each: past the 100000 values one file may hold
    err = load_error(workspace, _with_cases(10_000, ", attrs: {alpha: 1.0}, ranges: {x: [0, 1]}"))
    assert "'cases' holds more than 100000 values (10000 entries)" in err.message, err.message
    assert "alias" not in str(err).lower()
    assert "make the list shorter" in err.hint


def test_provenance_and_the_golden_convention_load(workspace):
    text = manifest().replace("socs: [Ascend910B1]", "origin: {repository: ops_nn, commit: "
                              "e5c3fa93, path: norm/rms_norm}\nsocs: [Ascend910B1]")
    text = text.replace("golden: golden.py:golden\n", "golden: golden.py:golden\n  "
                        "golden_convention: ttk\n  requires: [torch]\n", 1)
    workspace.operator("addone", manifest=text)
    pkg = workspace.load().packages["//packages/addone"]
    assert pkg.origin == (("repository", "ops_nn"), ("commit", "e5c3fa93"), ("path", "norm/rms_norm"))
    assert (pkg.verify.golden_convention, pkg.verify.requires) == ("ttk", ("torch",))


def test_a_golden_of_a_testspec_class(workspace):
    """`golden.py:Class.golden`: the ops repositories' TestSpec classes hold their golden
    (hicann/ops-nn activation/hard_sigmoid/tests/assets/golden.py)."""
    pkg_dir = workspace.operator("addone", manifest=manifest().replace(
        "golden.py:golden", "golden.py:AddOneSpec.golden")).parent
    (pkg_dir / "golden.py").write_text("class AddOneSpec:\n    @staticmethod\n"
                                       "    def golden(x, alpha=1.0):\n        return x + alpha\n")
    assert workspace.load().packages["//packages/addone"].verify.golden_function == \
        "AddOneSpec.golden"
    (pkg_dir / "opkg.yaml").write_text(manifest().replace("golden.py:golden",
                                                          "golden.py:AddOneSpec.gold"))
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    error = info.value
    assert "defines no function 'AddOneSpec.gold'" in str(error)
    assert "did you mean 'AddOneSpec.golden'?" in error.hint


def test_op_interface_names_the_kernel_function(workspace):
    """CANN's opInterface: the kernel entry when it is not snake_case(op type)
    (hicann/ops-nn pooling/max_pool3d_grad_with_argmax/op_host/max_pool3d_grad_with_argmax_def.cpp)."""
    text = manifest(op_type="MaxPool3DX").replace("  type: MaxPool3DX\n",
                                                  "  type: MaxPool3DX\n  interface: max_pool3d_x\n")
    workspace.operator("addone", manifest=text, entry="max_pool3d_x")
    op = workspace.load().packages["//packages/addone"].op
    assert op.kernel_name == "max_pool3d_x"
    assert type(op).from_json(op.to_json()) == op
    # without it the entry must be snake_case(op type), and the hint names op.interface
    err = load_error(workspace, manifest(op_type="MaxPool3DX"))
    assert "needs a kernel function named 'max_pool3_dx'" in err.message
    assert "op.interface" in err.hint
