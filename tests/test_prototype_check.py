"""The OpDef-vs-manifest check (opkg/verify/prototype.py): the comparison on its own, then one
build where a one-letter typo between the OpDef and opkg.yaml fails the build naming both."""

from __future__ import annotations

import subprocess
import sys

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.verify.prototype import compare

SOCS = [("Ascend910B1", "ascend910b"), ("Ascend310P3", "ascend310p")]


def manifest_op() -> OpSpec:
    return OpSpec("LeakyReluCustom",
                  (TensorSpec("x", ("float16", "float32"), ("ND",)),),
                  (TensorSpec("y", ("float16", "float32"), ("ND",)),),
                  (AttrSpec("negative_slope", "float", 0.01),))


def declared(**changes) -> list[dict]:
    """What the host library reports for an OpDef that agrees with manifest_op()."""
    op = {"type": "LeakyReluCustom",
          "inputs": [{"name": "x", "param_type": "required", "dtypes": ["float16", "float32"],
                      "formats": ["ND", "ND"], "unknown_shape_formats": []}],
          "outputs": [{"name": "y", "param_type": "required", "dtypes": ["float16", "float32"],
                       "formats": ["ND", "ND"], "unknown_shape_formats": []}],
          "attrs": [{"name": "negative_slope", "type": "float", "required": False,
                     "default": 0.00999999978}],
          "aicore": {"has_tiling": True, "configs": ["ascend910b", "ascend310p"]}}
    for key, value in changes.items():
        group, _, rest = key.partition("__")
        if rest:
            index, _, field = rest.partition("__")
            op[group][int(index)][field] = value
        else:
            op[group] = value
    return [op]


def whats(diffs) -> list[str]:
    return [d.what for d in diffs]


def test_agreeing_opdef_and_float_default_rounded_to_float32():
    chosen, diffs = compare(manifest_op(), SOCS, declared())
    assert chosen["type"] == "LeakyReluCustom" and diffs == []


def test_no_opdef_is_not_a_difference():
    assert compare(manifest_op(), SOCS, []) == (None, [])


def test_names_dtypes_formats_param_types_by_position():
    _, diffs = compare(manifest_op(), SOCS, declared(
        inputs__0__name="x1", outputs__0__dtypes=["float32", "float16"],
        inputs__0__formats=["ND", "NCHW"], outputs__0__param_type="optional"))
    got = whats(diffs)
    assert "declares input 'x1' where opkg.yaml has 'x'" in got
    # a list wrong in several places is one line with both lists, not one line per position
    assert ("declares dtypes float32, float16 for output 'y' where opkg.yaml has float16, "
            "float32: positions 0, 1 differ (the same dtypes in another order: variants pair "
            "them by position)") in got
    assert not any("at position 1 of output 'y'" in w for w in got)
    assert "declares format NCHW at position 1 of input 'x' where opkg.yaml has ND" in got
    assert "declares output 'y' as optional where opkg.yaml has required" in got
    assert len(got) == 4
    assert {d.field for d in diffs} >= {"op.inputs[0].name", "op.outputs[0].dtypes",
                                        "op.inputs[0].formats[0]"}


def test_a_manifest_may_keep_only_the_runnable_format_combination_of_a_dtype_combination():
    # the OpDef: float16 as FRACTAL_NZ and as ND, then float32; the manifest: float16 ND, float32
    nz_nd = dict(inputs__0__dtypes=["float16", "float16", "float32"],
                 inputs__0__formats=["FRACTAL_NZ", "ND", "ND"],
                 outputs__0__dtypes=["float16", "float16", "float32"],
                 outputs__0__formats=["FRACTAL_NZ", "ND", "ND"])
    assert compare(manifest_op(), SOCS, declared(**nz_nd))[1] == []
    # keeping the FRACTAL_NZ one instead is a difference, named as before
    nz_kept = OpSpec("LeakyReluCustom",
                     (TensorSpec("x", ("float16", "float32"), ("FRACTAL_NZ", "ND")),),
                     (TensorSpec("y", ("float16", "float32"), ("FRACTAL_NZ", "ND")),),
                     manifest_op().attrs)
    got = whats(compare(nz_kept, SOCS, declared(**nz_nd))[1])
    assert any("declares 3 dtypes for input 'x'" in g for g in got), got


def test_a_virtual_input_and_an_optional_attr_without_default_are_required_in_the_manifest():
    # what import writes for them (cann-ops' Rfft1D): no difference
    op = OpSpec("LeakyReluCustom", manifest_op().inputs, manifest_op().outputs,
                (AttrSpec("negative_slope", "float", required=True),))
    _, diffs = compare(op, SOCS, declared(
        inputs__0__param_type="virtual",
        attrs=[{"name": "negative_slope", "type": "float", "required": False, "default": None}]))
    assert diffs == []
    # an optional attr with a default still differs from a required one
    _, diffs = compare(op, SOCS, declared())
    assert whats(diffs) == ["declares attr 'negative_slope' as optional where opkg.yaml has required"]


def test_attrs_soc_configs_and_op_name():
    _, diffs = compare(manifest_op(), SOCS, declared(
        attrs=[{"name": "negative_slop", "type": "float", "required": False, "default": 0.01}],
        aicore={"configs": ["ascend910b", "ascend910"]}))
    got = whats(diffs)
    assert "declares attr 'negative_slop' where opkg.yaml has 'negative_slope'" in got
    assert 'has no AddConfig("ascend310p") where opkg.yaml lists Ascend310P3' in got
    # building a subset of the OpDef's SoCs is allowed
    assert not any('AddConfig("ascend910")' in w for w in got)
    _, diffs = compare(manifest_op(), SOCS, declared(
        attrs=[{"name": "negative_slope", "type": "float", "required": False, "default": 0.2}]))
    assert whats(diffs) == ["declares attr 'negative_slope' with default 0.2 where opkg.yaml "
                            "has 0.01"]
    _, diffs = compare(manifest_op(), SOCS, declared(type="LeakyReluCustm"))
    assert whats(diffs) == ["declares op 'LeakyReluCustm' where opkg.yaml has 'LeakyReluCustom'"]


def test_one_letter_typo_fails_the_build_naming_both(workspace):
    from opkg.importers.new import new_package

    pkg = workspace.root / "packages" / "typo_add"
    new_package("typo_add", "TypoAddCustom", pkg)
    host = pkg / "op_host" / "typo_add_custom.cpp"
    text = host.read_text()
    assert text.count('this->Input("y")') == 1
    host.write_text(text.replace('this->Input("y")', 'this->Input("t")'))
    line = next(i for i, l in enumerate(host.read_text().splitlines(), 1) if 'Input("t")' in l)
    r = subprocess.run([sys.executable, "-m", "opkg", "build", "packages/typo_add", "--soc",
                        "Ascend910B1"], cwd=workspace.root, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "packages/typo_add/opkg.yaml: the OpDef in the host sources disagrees" in out
    assert (f"op_host/typo_add_custom.cpp:{line}: declares input 't' where opkg.yaml has 'y' "
            "(op.inputs[1].name)") in out
    # nothing was verified or bundled from a package whose prototype disagrees
    assert not (workspace.root / "out" / "bundles").exists() or not any(
        (workspace.root / "out" / "bundles").iterdir())
    assert "verify typo_add" not in out


def _per_soc_op(dtypes310=("float16",)) -> OpSpec:
    base = manifest_op()
    ins = (TensorSpec("x", dtypes310, ("ND",)),)
    outs = (TensorSpec("y", dtypes310, ("ND",)),)
    return OpSpec(base.type, base.inputs, base.outputs, base.attrs, (("ascend310p", ins, outs),))


def _config(dtypes):
    t = {"param_type": "required", "dtypes": list(dtypes), "formats": [], "unknown_shape_formats": []}
    return {"inputs": [{"name": "x", **t}], "outputs": [{"name": "y", **t}]}


def test_per_soc_opaicoreconfig_dtype_lists():
    aicore = {"configs": ["ascend910b", "ascend310p"], "soc_configs": {"ascend310p": _config(["float16"])}}
    assert compare(_per_soc_op(), SOCS, declared(aicore=aicore))[1] == []
    # the OpDef gives 310P its own dtypes that the manifest does not have
    got = whats(compare(manifest_op(), SOCS, declared(aicore=aicore))[1])
    assert got == ['AddConfig("ascend310p", config) declares its own dtypes, which opkg.yaml lacks '
                   "(add op.soc_configs.ascend310p with the config's inputs and outputs)"]
    # ... or other ones
    _, diffs = compare(_per_soc_op(("float32",)), SOCS, declared(aicore=aicore))
    assert whats(diffs) == ["in the ascend310p config: declares dtype float16 at position 0 of input 'x' "
                            "where opkg.yaml has float32",
                            "in the ascend310p config: declares dtype float16 at position 0 of output 'y' "
                            "where opkg.yaml has float32"]
    assert diffs[0].field == "op.soc_configs.ascend310p.inputs[0].dtypes[0]"
    # and the manifest's per-SoC lists need the OpDef's config
    got = whats(compare(_per_soc_op(), SOCS, declared())[1])
    assert got == ['AddConfig("ascend310p") has no OpAICoreConfig with its own dtypes where opkg.yaml '
                   "has op.soc_configs.ascend310p"]


def test_per_soc_dtype_lists_drive_the_variants_built_per_soc(workspace):
    import json
    import shutil
    from pathlib import Path

    fixture = Path(__file__).parent / "fixtures" / "per_soc_add"
    shutil.copytree(fixture, workspace.root / "packages" / "per_soc_add")
    r = subprocess.run([sys.executable, "-m", "opkg", "build", "packages/per_soc_add", "--json", "-j", "2"],
                       cwd=workspace.root, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    targets = {t["soc"]: t for t in json.loads(r.stdout)["targets"]}
    assert set(targets["Ascend910B1"]["variants"]) == {"float16", "float32", "bfloat16"}
    assert set(targets["Ascend310P3"]["variants"]) == {"float16", "float32"}
    assert all(t["passed"] for t in targets.values())


def test_a_one_soc_manifest_may_be_that_socs_config():
    """What `opkg import` writes for an operator whose AddConfig for the SoC has lists of its own
    (hicann/ops-nn matmul/mat_mul_v3/op_host/mat_mul_v3_def.cpp: 8 combinations at the top, 910B's
    config a few of them), less the combinations opkg cannot run (a dtype it lacks: the packed
    float4_e2m1 of hicann/ops-nn quant_batch_matmul_v3_def.cpp)."""
    one = [("Ascend910B1", "ascend910b")]
    config = _config(["float16", "float4_e2m1", "float16"])
    config["inputs"][0]["formats"] = config["outputs"][0]["formats"] = ["ND", "ND", "FRACTAL_NZ"]
    aicore = {"configs": ["ascend910b"], "soc_configs": {"ascend910b": config}}
    op = OpSpec("LeakyReluCustom", (TensorSpec("x", ("float16",), ("ND",)),),
                (TensorSpec("y", ("float16",), ("ND",)),), (AttrSpec("negative_slope", "float", 0.01),))
    assert compare(op, one, declared(aicore=aicore))[1] == []
    # a manifest that is neither the top-level lists nor the config's is still reported
    other = OpSpec(op.type, (TensorSpec("x", ("bfloat16",), ("ND",)),),
                   (TensorSpec("y", ("bfloat16",), ("ND",)),), op.attrs)
    assert compare(other, one, declared(aicore=aicore))[1]
    # with two SoCs the top-level lists stay the manifest's (test_per_soc_opaicoreconfig_dtype_lists)
    assert compare(op, SOCS, declared(aicore={**aicore, "configs": ["ascend910b", "ascend310p"]}))[1]


def test_a_manifest_may_leave_out_the_combinations_of_dtypes_opkg_has_not():
    # what `opkg import` writes for an operator with a combination of a dtype opkg lacks (the
    # packed float4_e2m1 outputs of hicann/ops-nn's swiglu_group_quant_def.cpp): that combination
    # left out, the others kept
    q8 = dict(inputs__0__dtypes=["float16", "float32", "float16"],
              inputs__0__formats=["ND", "ND", "ND"],
              outputs__0__dtypes=["float16", "float32", "float4_e2m1"],
              outputs__0__formats=["ND", "ND", "ND"])
    assert compare(manifest_op(), SOCS, declared(**q8))[1] == []
    # a known combination missing from the manifest is still a difference
    q8["inputs__0__dtypes"][1] = "bfloat16"
    q8["outputs__0__dtypes"][1] = "bfloat16"
    got = whats(compare(manifest_op(), SOCS, declared(**q8))[1])
    assert any("declares 3 dtypes for input 'x'" in g for g in got), got
