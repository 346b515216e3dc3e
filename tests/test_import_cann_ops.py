"""`opkg import` of a project in cann-ops' layout (tests/fixtures/cann_ops_layout): no prototype
JSON (the OpDef is read), shared headers of the corpus copied into the package, only SoCs the
sim can run declared, a required attr given a value and an operator without InferShape given
output_shapes in the generated case, a compiler warning of the operator's own sources shown, a
header of another project of the family included by a relative path copied so it resolves;
then the package builds and verifies unmodified, the case's output_shapes checked against the
golden."""

from __future__ import annotations

import filecmp
import json
import re
from pathlib import Path

import yaml

from tests.conftest import opkg

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cann_ops_layout"
PROJECT = FIXTURE / "src" / "math" / "scale_add"

GOLDEN = """\
import numpy as np


def scale_add(x, y, *, alpha):
    return x.astype(np.float64) * alpha + y
"""


def test_cann_ops_layout_imports_and_verifies(workspace):
    r = opkg("import", str(PROJECT), "--dest", "packages/scale_add", cwd=workspace.root,
             check=0)
    pkg = workspace.root / "packages" / "scale_add"
    out = r.stdout
    assert "prototype from the OpDef in op_host/ (ScaleAdd)" in out
    assert "3 shared header(s) copied under include/" in out
    # a header of another project of the family, by a relative path (and its neighbour)
    assert ("2 header(s) of other projects in" in out and "(included by a relative path): "
            "scale_common/op_host/scale_block.h, scale_common/op_host/scale_block_bytes.h" in out)
    # a SoC the sim cannot run (its short name is not in the SoC table) is listed, not built
    assert 'AddConfig("kirinx90") matches no SoC in toolchains/socs.yaml; not built' in out
    assert "warning: integer overflow" in out and "scale_add.cpp:12" in out

    text = (pkg / "opkg.yaml").read_text()
    assert "#   kirinx90 (not in the SoC table)" in text
    manifest = yaml.safe_load(text)
    assert manifest["socs"] == ["Ascend910B1"]
    assert manifest["op"]["attrs"] == [{"name": "alpha", "type": "float", "required": True}]
    # include/scale_common/op_host: where "../../scale_common/op_host/scale_block.h" leads to the copy
    assert manifest["include_dirs"] == ["include/scale/op_kernel", "include",
                                        "include/scale_common/op_host"]
    # the case comes from the project's own tests/st/ (shape, attr, output shape: no InferShape)
    assert "1 verification case(s) from tests/st/ (ScaleAdd_case.json)" in out
    assert manifest["verify"]["cases"] == [
        {"name": "Test_ScaleAdd_001", "shapes": {"x": [64, 1000], "y": [64, 1000]},
         "attrs": {"alpha": 0.5}, "output_shapes": {"z": [64, 1000]}}]
    # the corpus's shared headers, byte for byte (a neighbour included by a copied header too)
    shared = FIXTURE / "src" / "common" / "inc" / "scale"
    for rel in ("split_util.h", "op_kernel/scale_add_kernel_util.h", "op_kernel/scale_add_defs.h"):
        assert filecmp.cmp(pkg / "include" / "scale" / rel, shared / rel, shallow=False)
    sibling = FIXTURE / "src" / "math" / "scale_common" / "op_host"
    for name in ("scale_block.h", "scale_block_bytes.h"):
        assert filecmp.cmp(pkg / "include/scale_common/op_host" / name, sibling / name, shallow=False)
    # what scale_block.h declares is defined in the source scale_common's CMakeLists.txt adds to
    # optiling (CANN links all projects' tiling into one library): it is built with the package
    assert ("tiling sources copied from other projects of the family (their CMakeLists.txt adds "
            "them to optiling): include/scale_common/op_host/scale_block.cc") in out
    assert manifest["tiling"]["sources"][-1] == "include/scale_common/op_host/scale_block.cc"
    assert filecmp.cmp(pkg / "include/scale_common/op_host/scale_block.cc",
                       sibling / "scale_block.cc", shallow=False)
    assert filecmp.cmp(pkg / "op_kernel" / "scale_add.cpp",
                       PROJECT / "op_kernel" / "scale_add.cpp", shallow=False)

    (pkg / "golden.py").write_text(GOLDEN)
    manifest["verify"]["cases"] = [
        {"name": "st", "shapes": {"x": [64, 1000], "y": [64, 1000]}, "attrs": {"alpha": 0.5},
         "output_shapes": {"z": [64, 1000]}},
        {"name": "one", "shapes": {"x": [1], "y": [1]}, "attrs": {"alpha": -2.0},
         "output_shapes": {"z": [1]}}]
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_add", "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"]
    # the tiling's int overflow: shown in the build output and kept in the JSON report
    assert ("warning: packages/scale_add/op_host/scale_add.cpp:12:29: warning: integer overflow"
            in r.stderr)
    assert [w["message"] for w in result["warnings"]
            if "scale_add.cpp:12" in w["message"] and "overflow" in w["message"]]
    assert not any("opkg/sim" in w["message"] for w in result["warnings"])

    # a case that states another output shape than the golden returns fails, naming both
    manifest["verify"]["cases"][1]["output_shapes"] = {"z": [2]}
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_add", cwd=workspace.root, check=1)
    assert ("the golden returned z with shape [1] but the case states output_shapes z: [2]"
            in r.stdout + r.stderr)


def test_without_test_cases_the_generated_case_is_valid_as_written(workspace, tmp_path):
    import shutil

    shutil.copytree(FIXTURE, tmp_path / "corpus", ignore=shutil.ignore_patterns("tests"))
    project = tmp_path / "corpus" / PROJECT.relative_to(FIXTURE)
    opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    manifest = yaml.safe_load((workspace.root / "packages/scale_add/opkg.yaml").read_text())
    case = manifest["verify"]["cases"][0]
    assert case["attrs"] == {"alpha": 1.0}                  # required attr: a value
    assert case["output_shapes"] == {"z": [8, 256]}        # no InferShape
    # the manifest loads (a required attr without a value would be an error)
    r = opkg("query", "packages", cwd=workspace.root, check=0)
    assert "scale_add" in r.stdout


def test_output_shapes_names_only_outputs(workspace):
    opkg("import", str(PROJECT), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    path = workspace.root / "packages" / "scale_add" / "opkg.yaml"
    text = path.read_text()
    assert "output_shapes: {z:" in text
    path.write_text(text.replace("output_shapes: {z:", "output_shapes: {w:"))
    r = opkg("build", "//packages/scale_add", cwd=workspace.root, check=2)
    assert "output_shapes" in r.stderr and "'w'" in r.stderr


def _variant(tmp_path, old: str, new: str) -> Path:
    """The fixture corpus with one edit to ScaleAdd's host source."""
    import shutil

    shutil.copytree(FIXTURE, tmp_path / "corpus")
    project = tmp_path / "corpus" / PROJECT.relative_to(FIXTURE)
    host = project / "op_host" / "scale_add.cpp"
    text = host.read_text()
    assert old in text
    host.write_text(text.replace(old, new))
    return project


def test_tiling_data_registered_in_another_projects_header(workspace, tmp_path):
    # As cann-ops CircularPadGrad: the tiling data class is defined and registered for the
    # operator in a header of another project of the family (circular_pad_common.h), whose .cc
    # includes it by its plain name while the importing project's op_kernel/ holds a kernel
    # header of the same name. The .cc is copied beside its header, and tiling.data is that header.
    project = _variant(tmp_path, "namespace optiling {", "namespace optiling {")
    own = project / "op_host" / "scale_add_tiling.h"
    block = project.parent / "scale_common" / "op_host" / "scale_block.h"
    text = own.read_text()
    definition = text[text.index("BEGIN_TILING_DATA_DEF"):text.index("}  // namespace optiling")]
    own.write_text(text.replace(definition, ""))
    block.write_text(block.read_text().replace(
        "namespace optiling {", '#include "register/tilingdata_base.h"\nnamespace optiling {\n' + definition))
    (project / "op_kernel" / "scale_block.h").write_text(
        "// the kernel's header of the same name: not for the host\n#error kernel header on the host\n")
    r = opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "scale_add"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["tiling"]["data"] == "include/scale_common/op_host/scale_block.h", r.stdout
    assert manifest["tiling"]["sources"][-1] == "include/scale_common/op_host/scale_block.cc"
    (pkg / "golden.py").write_text(GOLDEN)
    manifest["verify"]["cases"][0]["shapes"] = {"x": [4, 100], "y": [4, 100]}
    manifest["verify"]["cases"][0]["output_shapes"] = {"z": [4, 100]}
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_add", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"], r.stdout + r.stderr


def test_host_api_the_sim_lacks_still_imports_the_opdef(workspace, tmp_path):
    # a host function the sim does not define (a link error): the OpDef constructor never calls
    # it, so the OpDef is read by compiling; the build then names the missing symbol
    project = _variant(tmp_path, "namespace optiling {",
                       "namespace gert { int HostApiTheSimLacks(); }\nnamespace optiling {")
    host = project / "op_host" / "scale_add.cpp"
    host.write_text(host.read_text().replace("    ScaleAddTilingData tiling;",
                                             "    ScaleAddTilingData tiling;\n"
                                             "    (void)gert::HostApiTheSimLacks();"))
    r = opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    assert "prototype from the OpDef in op_host/ (ScaleAdd)" in r.stdout
    assert "source text" not in r.stdout
    # a compile error: the OpDef, written with literal lists, is read from the text instead
    project = _variant(tmp_path / "b", "OP_ADD(ScaleAdd);", "OP_ADD(ScaleAdd);\nint broken = ;")
    r = opkg("import", str(project), "--dest", "packages/scale_add2", "--op", "ScaleAdd",
             cwd=workspace.root, check=2)   # op types are unique in a workspace
    assert "already has op type 'ScaleAdd'" in r.stderr
    import shutil

    shutil.rmtree(workspace.root / "packages" / "scale_add")
    r = opkg("import", str(project), "--dest", "packages/scale_add2", cwd=workspace.root, check=0)
    assert "the host sources do not compile on the sim" in r.stdout
    assert "the OpDef was read from the source text" in r.stdout
    manifest = yaml.safe_load((workspace.root / "packages/scale_add2/opkg.yaml").read_text())
    assert manifest["op"]["inputs"][0] == {"name": "x", "dtypes": ["float16", "float32"],
                                           "formats": ["ND"]}
    assert manifest["op"]["attrs"] == [{"name": "alpha", "type": "float", "required": True}]
    assert manifest["socs"] == ["Ascend910B1"]
    r = opkg("build", "//packages/scale_add2", cwd=workspace.root, check=1)
    assert "scale_add.cpp" in r.stderr and "broken" in r.stderr


def test_computed_opdef_that_does_not_compile_and_no_json_is_a_clear_error(workspace, tmp_path):
    project = _variant(tmp_path, "this->Input(\"x\").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, "
                                 "ge::DT_FLOAT})",
                       "this->Input(\"x\").ParamType(REQUIRED).DataType(XTypes())")
    r = opkg("import", str(project), "--dest", "packages/broken", cwd=workspace.root, check=2)
    assert "cannot read the OpDef" in r.stderr and "XTypes" in r.stderr
    assert re.search(r"nor from its text: OpDef ScaleAdd in scale_add\.cpp:\d+: input 'x' has a computed "
                     r"DataType list \(XTypes\(\)\)", r.stderr), r.stderr
    assert "--prototype FILE" in r.stderr
    assert not (workspace.root / "packages" / "broken").exists()


def test_what_a_manifest_cannot_say_is_an_import_error(workspace, tmp_path):
    # two inputs of one name, and dtypes opkg lacks (DT_COMPLEX32); an input and an output of
    # one name is a ref tensor (tests/test_ref_tensor.py)
    project = _variant(tmp_path / "a", 'this->Input("y")', 'this->Input("x")')
    r = opkg("import", str(project), "--dest", "packages/same", cwd=workspace.root, check=2)
    assert "input and input share the name 'x'; opkg needs distinct tensor names" in r.stderr
    project = _variant(tmp_path / "b", 'this->Output("z").ParamType(REQUIRED).DataType('
                                       '{ge::DT_FLOAT16, ge::DT_FLOAT})',
                       'this->Output("z").ParamType(REQUIRED).DataType('
                       '{ge::DT_FLOAT16, ge::DT_COMPLEX32})')
    r = opkg("import", str(project), "--dest", "packages/c32", cwd=workspace.root, check=2)
    assert "output 'z' has dtype DT_COMPLEX32, which opkg does not support" in r.stderr
    assert not (workspace.root / "packages" / "same").exists()


def test_a_double_opdef_imports_as_float64(workspace, tmp_path):
    project = _variant(tmp_path, 'DataType({ge::DT_FLOAT16, ge::DT_FLOAT})',
                       'DataType({ge::DT_DOUBLE, ge::DT_FLOAT})')
    opkg("import", str(project), "--dest", "packages/dbl", cwd=workspace.root, check=0)
    manifest = yaml.safe_load((workspace.root / "packages/dbl/opkg.yaml").read_text())
    assert [t["dtypes"] for t in manifest["op"]["inputs"] + manifest["op"]["outputs"]] == \
        [["float64", "float32"]] * 3


def test_an_opdef_without_outputs_imports_with_every_input_in_place(workspace, tmp_path):
    # CANN allows an operator that only rewrites its inputs: the manifest says it with
    # verify.inplace, which import fills with every required and dynamic input (the user keeps
    # those rewritten)
    project = _variant(tmp_path, 'this->Output("z").ParamType(REQUIRED).DataType('
                                 '{ge::DT_FLOAT16, ge::DT_FLOAT})\n'
                                 '            .Format({ge::FORMAT_ND, ge::FORMAT_ND});\n', "")
    r = opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    assert ("ScaleAdd declares no outputs (it rewrites inputs in place): verify.inplace lists "
            "x, y; keep only those the kernel rewrites") in r.stdout
    pkg = workspace.root / "packages" / "scale_add"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["op"]["outputs"] == []
    assert manifest["verify"]["inplace"] == ["x", "y"]
    # the st case stays, without output_shapes (there is no output to give one)
    assert manifest["verify"]["cases"] == [
        {"name": "Test_ScaleAdd_001", "shapes": {"x": [64, 1000], "y": [64, 1000]},
         "attrs": {"alpha": 0.5}}]
    assert "# Return x, y (one array per in-place input" in (pkg / "golden.py").read_text()
    # what import wrote is a valid manifest
    assert workspace.load().packages["//packages/scale_add"].verify.inplace == ("x", "y")


def test_a_virtual_input_and_an_optional_attr_without_default_import_as_required(workspace, tmp_path):
    # as cann-ops' Rfft1D: an input the aclnn layer supplies (ParamType(VIRTUAL)) reaches the
    # kernel like any other, and AttrType(OPTIONAL) with no default leaves the value to the
    # caller; the manifest says both as required, and the OpDef check accepts that at build time
    project = _variant(tmp_path, 'this->Input("y").ParamType(REQUIRED)', 'this->Input("y").ParamType(VIRTUAL)')
    host = project / "op_host" / "scale_add.cpp"
    host.write_text(host.read_text().replace('Attr("alpha").AttrType(REQUIRED)', 'Attr("alpha").AttrType(OPTIONAL)'))
    r = opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    assert ("input(s) y ParamType(VIRTUAL): supplied by CANN's aclnn layer, not by a graph's user; the "
            "kernel receives them like any input, so they are required here") in r.stdout
    pkg = workspace.root / "packages" / "scale_add"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert [t.get("param_type", "required") for t in manifest["op"]["inputs"]] == ["required", "required"]
    assert manifest["op"]["attrs"] == [{"name": "alpha", "type": "float", "required": True}]
    (pkg / "golden.py").write_text(GOLDEN)
    r = opkg("build", "//packages/scale_add", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"], r.stdout + r.stderr


def test_tiling_from_the_corpus_shared_tree_imports_and_verifies(workspace):
    """A foreach-style project (fixture ScaleEach): op_host holds only the OpDef; the tiling
    source is the one its CMakeLists.txt adds to optiling from ${OP_COMMON_DIR}/src, and the
    tiling data class is a shared header's, registered for several op types."""
    project = FIXTURE / "src" / "foreach" / "scale_each"
    r = opkg("import", str(project), "--dest", "packages/scale_each", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "scale_each"
    assert "op_host/shared/src/scale/op_tiling/scale_tiling_func.cpp" in r.stdout
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["tiling"]["sources"] == [
        "op_host/scale_each.cpp", "op_host/shared/src/scale/op_tiling/scale_tiling_func.cpp"]
    assert manifest["tiling"]["data"] == "include/scale/op_tiling/scale_tiling_def.h"
    shared = FIXTURE / "src" / "common"
    assert filecmp.cmp(pkg / "op_host/shared/src/scale/op_tiling/scale_tiling_func.cpp",
                       shared / "src/scale/op_tiling/scale_tiling_func.cpp", shallow=False)

    (pkg / "golden.py").write_text("def scale_each(x):\n    return x * 3.0\n")
    manifest["verify"]["golden"] = "golden.py:scale_each"
    manifest["verify"]["cases"] = [{"name": "n", "shapes": {"x": [37]}}]
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_each", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"], r.stdout + r.stderr


def test_host_sources_are_what_the_projects_cmake_builds(workspace, tmp_path):
    # cann-ops keeps tiling in .cc files too (Pows: pows_tiling.cc with IMPL_OP_OPTILING), and
    # its CMakeLists.txt names the op_host files of the host libraries; a file it does not build
    # (one that would not even compile) stays out of tiling.sources
    project = _variant(tmp_path, "this->AICore().SetTiling(optiling::TilingFunc);\n", "")
    host = project / "op_host" / "scale_add.cpp"
    text = host.read_text()
    start, end = text.index("namespace optiling {"), text.index("}  // namespace optiling\n")
    tiling = text[start:end].replace("static ge::graphStatus TilingFunc", "ge::graphStatus TilingFunc")
    host.write_text(text[:start] + text[end + len("}  // namespace optiling\n"):])
    (project / "op_host" / "scale_add_tiling.cc").write_text(
        '#include <algorithm>\n#include "scale_add_tiling.h"\n#include "scale/split_util.h"\n'
        '#include "../../scale_common/op_host/scale_block.h"\n'
        '#include "register/op_def_registry.h"\n#include "tiling/platform/platform_ascendc.h"\n'
        + tiling + "IMPL_OP_OPTILING(ScaleAdd).Tiling(TilingFunc);\n}  // namespace optiling\n")
    (project / "op_host" / "elewise.cc").write_text(
        '#include "runtime_util.h"\nIMPL_OP_INFERSHAPE(ScaleAdd).InferShape(InferShape4Elewise);\n')
    (project / "CMakeLists.txt").write_text(
        "target_sources(op_host_aclnn PRIVATE\nop_host/scale_add.cpp\n)\n"
        "# target_sources(opsproto PRIVATE op_host/elewise.cc)\n"
        "target_sources(optiling PRIVATE\n        op_host/scale_add_tiling.cc\n)\n"
        "target_sources(opapi PRIVATE\n        op_host/elewise.cc\n)\n")
    r = opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    assert ("left out of tiling.sources (not in the op_host library: CANN's aclnn layer, or not "
            "built into it by the project's CMakeLists.txt): elewise.cc") in r.stdout
    pkg = workspace.root / "packages" / "scale_add"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["tiling"]["sources"] == ["op_host/scale_add.cpp", "op_host/scale_add_tiling.cc",
                                             "include/scale_common/op_host/scale_block.cc"]
    (pkg / "golden.py").write_text(GOLDEN)
    manifest["verify"]["cases"][0]["shapes"] = {"x": [4, 100], "y": [4, 100]}
    manifest["verify"]["cases"][0]["output_shapes"] = {"z": [4, 100]}
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_add", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"]


def test_a_socs_own_opdef_lists_become_op_soc_configs(workspace, tmp_path):
    # AddConfig("ascend910b", config) with the config's own Input/Output lists (cann-ops LinSpace):
    # the manifest gets op.soc_configs.ascend910b, so the build's OpDef check agrees
    config = ('OpAICoreConfig config;\n'
              '        config.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});\n'
              '        config.Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});\n'
              '        config.Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});\n'
              '        this->AICore().AddConfig("ascend910b", config);')
    project = _variant(tmp_path, 'this->AICore().AddConfig("ascend910b").AddConfig("kirinx90");', config)
    opkg("import", str(project), "--dest", "packages/scale_add", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "scale_add"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    one = [{"name": n, "dtypes": ["float32"], "formats": ["ND"]} for n in ("x", "y")]
    assert manifest["op"]["soc_configs"] == {
        "ascend910b": {"inputs": one, "outputs": [{"name": "z", "dtypes": ["float32"], "formats": ["ND"]}]}}
    (pkg / "golden.py").write_text(GOLDEN)
    manifest["verify"]["cases"][0]["shapes"] = {"x": [4, 100], "y": [4, 100]}
    manifest["verify"]["cases"][0]["output_shapes"] = {"z": [4, 100]}
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/scale_add", "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"]
    # only the config's float32 variant is built for the 910B
    assert {row["variant"] for row in result["cases"]} == {"float32"}


HOST_LIBRARIES = (Path(__file__).resolve().parent / "fixtures" / "cann_host_libraries" / "src" / "math"
                  / "half_scale")


def test_host_sources_cann_links_into_separate_libraries_build_as_it_groups_them(workspace):
    # the OpDef source and the tiling source both define the shared header's non-inline
    # CeilBlocks: CANN links them into separate libraries (the project's CMake targets)
    r = opkg("import", str(HOST_LIBRARIES), "--dest", "packages/half_scale", cwd=workspace.root, check=0)
    assert ("tiling.libraries: the project's CMakeLists.txt builds the host sources into separate "
            "libraries: op_host/half_scale.cpp; op_host/half_scale_def.cpp") in r.stdout
    pkg = workspace.root / "packages" / "half_scale"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["tiling"]["libraries"] == [["op_host/half_scale.cpp"], ["op_host/half_scale_def.cpp"]]
    (pkg / "golden.py").write_text("def half_scale(x):\n    return x * 0.5\n")
    manifest["verify"]["golden"] = "golden.py:half_scale"
    manifest["verify"]["cases"] = [{"name": "ragged", "shapes": {"x": [3, 37]}}]
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/half_scale", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"]

    # linked as one library, the two copies clash, as they would in one CANN library
    del manifest["tiling"]["libraries"]
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/half_scale", cwd=workspace.root, check=1)
    assert "multiple definition of" in r.stdout + r.stderr and "CeilBlocks" in r.stdout + r.stderr


def test_a_source_in_two_host_libraries_is_a_manifest_error(workspace):
    opkg("import", str(HOST_LIBRARIES), "--dest", "packages/half_scale", cwd=workspace.root, check=0)
    path = workspace.root / "packages" / "half_scale" / "opkg.yaml"
    text = path.read_text()
    path.write_text(text.replace("[op_host/half_scale_def.cpp]]", "[op_host/half_scale.cpp]]"))
    r = opkg("query", "packages", cwd=workspace.root)
    assert r.returncode != 0
    assert ("opkg.yaml:14:42: error: tiling.libraries[1][0]: 'op_host/half_scale.cpp' is already in "
            "library 0" in r.stdout + r.stderr)


def test_the_corpus_shared_host_library_is_a_repository_library_and_int4_verifies(workspace):
    """Int4Scale (fixture src/quant/int4_scale): its CMakeLists.txt globs the corpus's shared host
    library (src/common/op_host/op_tiling/*.cc, as cann-ops' matmul projects do) into optiling.
    Import adds the corpus to the workspace's repositories: with that library (nothing copied),
    the package depends on it, and the build compiles and links it; x is int4 (ge::DT_INT4)."""
    project = FIXTURE / "src" / "quant" / "int4_scale"
    r = opkg("import", str(project), "--dest", "packages/int4_scale", cwd=workspace.root, check=0)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the package depends on @cann_ops_layout//:op_tiling" in r.stdout
    ws = yaml.safe_load((workspace.root / "opkg-workspace.yaml").read_text())
    entry = ws["repositories"]["cann_ops_layout"]
    assert Path(workspace.root, entry["path"]).resolve() == FIXTURE.resolve()
    assert "commit" not in entry          # the fixture is not the top of a git work tree
    assert entry["libraries"] == {"op_tiling": {
        "include_dirs": ["src/common/op_host/op_tiling/quant", "src/common/inc"],
        "host_sources": ["src/common/op_host/op_tiling/**/*.cc"]}}
    pkg = workspace.root / "packages" / "int4_scale"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["deps"] == ["@cann_ops_layout//:op_tiling"]
    assert manifest["op"]["inputs"][0]["dtypes"] == ["int4"]
    assert not (pkg / "include").exists() and not list(pkg.rglob("*.cc"))   # read in place

    (pkg / "golden.py").write_text("import numpy as np\n\n\ndef int4_scale(x):\n"
                                   "    return x.astype(np.float32) / 8\n")
    manifest["verify"]["golden"] = "golden.py:int4_scale"
    manifest["verify"]["cases"] = [{"name": "n128", "shapes": {"x": [2, 64]}, "ranges": {"x": [-8, 7]}}]
    (pkg / "opkg.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    r = opkg("build", "//packages/int4_scale", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["ok"], r.stdout + r.stderr
