"""The CANN build path on stand-in installs: msopgen JSON, exact command lines, the custom-op
package layout, and `opkg build --toolchain cann-<v>` end to end with stand-in tools."""

import json
import tarfile
from pathlib import Path

import pytest

from cann_standin import (install_stand_in_tools, make_host_cxx, make_toolkit, make_workspace,
                          read_log, toolkit_env, use_stand_in_roots)
from opkg.core.errors import ToolchainError
from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.toolchains import cann
from opkg.core.releases import release_table

B1, P3 = get_soc("Ascend910B1"), get_soc("Ascend310P3")

LN = OpSpec("LayerNormCustom",
            inputs=(TensorSpec("x", ("float32", "float16")), TensorSpec("gamma", ("float32", "float16"))),
            outputs=(TensorSpec("y", ("float32", "float16")),),
            attrs=(AttrSpec("epsilon", "float", 1e-5), AttrSpec("axes", "list_int", required=True)))


def test_msopgen_json_matches_dtypes_by_position():
    (op,) = cann.msopgen_json(LN)
    assert op["op"] == "LayerNormCustom" and op["language"] == "cpp"
    assert op["input_desc"][0] == {"name": "x", "param_type": "required",
                                   "format": ["ND", "ND"], "type": ["float", "half"]}
    assert op["output_desc"][0]["type"] == ["float", "half"]
    # msopgen's IR_ATTR_TYPE_MAP spells list types list_int; defaults are JSON values
    assert op["attr"] == [
        {"name": "epsilon", "param_type": "optional", "type": "float", "default_value": 1e-05},
        {"name": "axes", "param_type": "required", "type": "list_int"}]
    (with_list,) = cann.msopgen_json(OpSpec("P", LN.inputs, LN.outputs, (
        AttrSpec("pads", "list_int", (1, 1)), AttrSpec("mode", "str", "same"))))
    assert with_list["attr"] == [
        {"name": "pads", "param_type": "optional", "type": "list_int", "default_value": [1, 1]},
        {"name": "mode", "param_type": "optional", "type": "string", "default_value": "same"}]


def test_msopgen_command_lines():
    assert cann.msopgen_argv("/t/msopgen", "/o/op.json", B1, "/o/project", None) == [
        "/t/msopgen", "gen", "-i", "/o/op.json", "-c", "ai_core-Ascend910B1", "-lan", "cpp",
        "-out", "/o/project"]
    assert cann.msopgen_argv("m", "j", P3, "d", "aclnn") == [
        "m", "gen", "-i", "j", "-f", "aclnn", "-c", "ai_core-Ascend310P3", "-lan", "cpp",
        "-out", "d"]


def test_kernel_binary_names_differ_per_variant():
    names = {n for n, _ in cann.bin_param(LN)}
    assert len(names) == 2
    assert all(n.startswith("LayerNormCustom_") and len(n.split("_")[1]) == 32 for n in names)


def test_binary_names_reproduce_a_real_msopgen_build():
    """youyve/GroupNormV2's build_out (a CANN 7.3 msopgen project) names its two kernel binaries
    GroupNormV2_499e827d... (float16) and GroupNormV2_783e5564... (float32): the md5 of the
    param JSON its cmake/util/ascendc_bin_param_build.py wrote. Same op, same names."""
    dt = ("float16", "float32")
    op = OpSpec("GroupNormV2",
                inputs=tuple(TensorSpec(n, dt) for n in ("x", "gamma", "beta")),
                outputs=tuple(TensorSpec(n, dt) for n in ("y", "mean", "rstd")),
                attrs=(AttrSpec("num_groups", "int", required=True),
                       AttrSpec("data_format", "str", "NCHW"), AttrSpec("eps", "float", 1e-5),
                       AttrSpec("is_training", "bool", True)))
    params = cann.bin_param(op)
    assert [n for n, _ in params] == ["GroupNormV2_499e827d5d577e31090ae81a6c53b542",
                                      "GroupNormV2_783e55641b4dfa21360521bf61bcee00"]
    first = json.loads(cann.param_text(params[0][1]))
    assert first["op_list"][0]["bin_filename"] == params[0][0]
    assert first["op_list"][0]["inputs"][1] == {"name": "gamma", "index": 1, "dtype": "float16",
                                                "format": "ND", "paramType": "required",
                                                "shape": [-2]}
    assert first["op_list"][0]["attrs"][2] == {"name": "eps", "dtype": "float", "value": 0.0}


# -- planning on a stand-in install -------------------------------------------------------


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    ascend = tmp_path / "Ascend"
    use_stand_in_roots(monkeypatch, ascend)
    homes = {}
    for v in ("8.0.RC2", "8.0.RC3", "8.2.RC1"):
        homes[v] = make_toolkit(ascend, v)
        # 8.0.RC3's stand-in template has no ascendc_ops_config.py or parse_ini_to_json.py:
        # opkg writes the kernel configs and the ops-info JSON
        install_stand_in_tools(homes[v], packer_scripts=v != "8.0.RC3")
    cxx = make_host_cxx(tmp_path / "bin" / "host-g++")
    monkeypatch.setenv("OPKG_CANN_CXX", str(cxx))
    log = tmp_path / "tools.log"
    monkeypatch.setenv("OPKG_STANDIN_LOG", str(log))
    root = make_workspace(tmp_path / "ws", packages=("add_custom",))
    monkeypatch.chdir(root)
    return {"ascend": ascend, "homes": homes, "cxx": cxx, "log": log, "root": root}


def plan(stand_in, tc, soc=B1, verify=False):
    from opkg.core.workspace import Workspace

    ws = Workspace.load(stand_in["root"])
    pkg = ws.packages["//packages/add_custom"]
    backend = cann.CannToolchain(tc, ws)
    target, actions = backend.plan_target(pkg, soc, [], ws.settings.output_dir,
                                          provenance={}, verify=verify, bundle=True)
    # the steps of the package's other compute units (planned for its one .run) left out
    base = ws.settings.output_dir / "cann" / tc / "add_custom"

    def other_unit(a):
        rel = Path(a.outputs[0]).relative_to(base).parts if \
            Path(a.outputs[0]).is_relative_to(base) else ()
        return bool(rel) and rel[0].startswith("Ascend") and rel[0] != soc.name
    return backend, pkg, (target, [a for a in actions if not other_unit(a)])


def test_plan_exact_commands(stand_in):
    backend, pkg, (target, actions) = plan(stand_in, "cann-8.0.RC2")
    home = stand_in["homes"]["8.0.RC2"]
    out = stand_in["root"] / "out" / "cann" / "cann-8.0.RC2" / "add_custom"
    project = out / "Ascend910B1" / "project"
    # the package's other compute unit (ascend310p) is planned too, for the one .run
    (run,) = [a for a in actions if a.step == "package"]
    assert run.params["trees"] == [str(out / soc / "opp/vendors/add_custom")
                                   for soc in ("Ascend910B1", "Ascend310P3")]
    actions = [a for a in actions if "Ascend310P3)" not in a.description]
    steps = {a.step: [] for a in actions}
    for a in actions:
        steps[a.step].append(a)
    (proj,) = [a for a in steps["generate"] if a.function and "scons_project" in a.function]
    assert proj.params["argv"] == [
        str(home / "python/site-packages/bin/msopgen"), "gen", "-i",
        str(out / "Ascend910B1" / "add_custom.json"), "-c", "ai_core-Ascend910B1", "-lan", "cpp",
        "-out", str(project)]
    assert str(project / "op_kernel" / "add_custom.cpp") in proj.outputs
    # one opc call per binary variant, as the project's gen/<Op>-<kernel>-<i>.sh runs it
    variants = {a.description.split()[3]: a for a in steps["compile"]}
    assert set(variants) == {"float16", "float32"}
    names = dict(zip((v.name for v in pkg.op.variants()), (n for n, _ in cann.bin_param(pkg.op))))
    name = names["float32"]
    binary = out / "Ascend910B1" / "binary"
    opc = variants["float32"]
    assert opc.params["argv"] == [
        str(home / "compiler/bin/opc"), str(binary / "dynamic" / "add_custom.py"),
        "--main_func=add_custom", f"--input_param={binary / 'gen' / (name + '_param.json')}",
        "--soc_version=Ascend910B1", f"--output={binary / 'bin' / 'add_custom'}",
        "--impl_mode=", "--simplified_key_mode=0", "--op_mode=dynamic"]
    assert opc.outputs == (str(binary / "bin/add_custom" / f"{name}.o"),
                           str(binary / "bin/add_custom" / f"{name}.json"))
    assert opc.params["env"]["set"]["ASCEND_HOME_PATH"] == str(home)
    # gen/<Op>-<kernel>-<i>.sh's --kernel-src: the kernel in the project's op_kernel/
    assert opc.params["opc_env"] == {
        "ASCEND_CUSTOM_OPP_PATH": str(binary / "tiling_opp"),
        "BUILD_KERNEL_SRC": str(project / "op_kernel" / "add_custom.cpp")}
    (impl,) = [a for a in steps["generate"] if a.function and "scons_impl" in a.function]
    assert impl.params["argv"][1:] == [
        str(project / "cmake/util/ascendc_impl_build.py"),
        str(out / "host/autogen/aic-ascend910b-ops-info.ini"), "", "",
        str(project / "op_kernel"), str(binary / "dynamic"), str(out / "host/autogen")]
    links = {a.outputs[0].rsplit("/", 1)[1]: list(a.argv) for a in steps["link"]}
    srcs = list(map(str, pkg.tiling_sources))
    # intf.cmake's intf_pub gives every host library -I <toolkit>/include -I op_kernel
    # (CANN 8.1.RC1 template, leideng/CANN-8.1.RC1 mirror); op_kernel is the package's
    kernel_inc = f"-I{pkg.dir / 'op_kernel'}"
    cxx, host_inc = str(stand_in["cxx"]), [f"-I{pkg.dir / 'op_host'}", f"-I{home / 'include'}",
                                           kernel_inc]
    autogen = out / "host" / "autogen"
    lib64 = f"-L{home / 'lib64'}"
    # the link lines of a built msopgen project (GroupNormV2's op_host link.txt / flags.make)
    compile_ = [cxx, "-fPIC", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-O2",
                "-std=c++11", "-fstack-protector-strong"]
    abi = ["-D_GLIBCXX_USE_CXX11_ABI=0", "-D_FORTIFY_SOURCE=2"]
    link = ["-shared", "-s", "-Wl,-z,relro", "-Wl,-z,now", "-Wl,-z,noexecstack"]
    registry = ["-lexe_graph", "-lregister", "-ltiling_api", "-Wl,--whole-archive",
                "-lrt2_registry", "-Wl,--no-whole-archive"]
    # no RPATH: the installed libraries have none (GroupNormV2's cmake_install.cmake sets "")
    assert links == {
        "libascend_all_ops.so": [cxx, "-g", "-fPIC", "-shared", "-std=c++11",
                                 "-D_GLIBCXX_USE_CXX11_ABI=0", *srcs, *host_inc, lib64,
                                 "-lexe_graph", "-lregister", "-ltiling_api",
                                 "-o", str(autogen / "libascend_all_ops.so")],
        "libcust_opmaster_rt2.0.so": [*compile_, "-DOP_TILING_LIB", *abi, *host_inc, *srcs, *link,
                                      "-Wl,-soname,libcust_opmaster_rt2.0.so", lib64,
                                      *registry,
                                      "-o", str(out / "host" / "libcust_opmaster_rt2.0.so")],
        "libcust_opsproto_rt2.0.so": [*compile_, "-DOP_PROTO_LIB", *abi, *host_inc, f"-I{autogen}",
                                      *srcs, str(autogen / "op_proto.cc"), *link,
                                      "-Wl,-soname,libcust_opsproto_rt2.0.so", lib64,
                                      *registry,
                                      "-o", str(out / "host" / "libcust_opsproto_rt2.0.so")],
        "libcust_opapi.so": [*compile_, *abi, f"-I{autogen}", f"-I{home / 'include'}",
                             f"-I{home / 'include/aclnn'}", kernel_inc,
                             str(autogen / "aclnn_add_custom.cpp"),
                             *link, "-Wl,-soname,libcust_opapi.so", lib64,
                             "-lascendcl", "-lnnopbase", "-o",
                             str(out / "host" / "libcust_opapi.so")],
        # framework/tf_plugin's cust_tf_parsers (GroupNormV2's cust_tf_parsers.dir/flags.make
        # and link.txt): the template's plugin source, google=ascend_private, -lgraph
        "libcust_tf_parsers.so": [
            *compile_, "-Dgoogle=ascend_private", *abi, f"-I{home / 'include'}", kernel_inc,
            str(project / "framework/tf_plugin/tensorflow_add_custom_plugin.cc"), *link,
            "-Wl,-soname,libcust_tf_parsers.so", lib64, "-lgraph",
            "-o", str(out / "Ascend910B1" / "host" / "libcust_tf_parsers.so")],
    }
    assert str(project / "framework/tf_plugin/tensorflow_add_custom_plugin.cc") in proj.outputs
    (opbuild,) = [a for a in steps["generate"] if a.function and "opbuild" in a.function]
    assert opbuild.params["argv"] == [str(home / "tools/opbuild/op_build"),
                                      str(autogen / "libascend_all_ops.so"), str(autogen)]
    # the toolkit's fingerprint is every step's signature
    assert {a.signature for a in actions} == {backend.fingerprint()}
    assert target.toolchain == "cann-8.0.RC2" and target.bundle.endswith(
        "add_custom-1.0.0-Ascend910B1-cann-8.0.RC2.opkg.tgz")


def test_msopgen_default_project_on_every_release(stand_in):
    # `-f aclnn` would generate an op_api-only project with no CMakePresets.json or kernel build
    _, _, (_, actions) = plan(stand_in, "cann-8.2.RC1")
    (proj,) = [a for a in actions if a.function == "opkg.toolchains.cann:scons_project"]
    assert "-f" not in proj.params["argv"]


def test_switching_versions_changes_every_signature_and_path(stand_in):
    _, _, (_, a1) = plan(stand_in, "cann-8.0.RC2")
    _, _, (_, a2) = plan(stand_in, "cann-8.0.RC3")
    assert not {o for a in a1 for o in a.outputs} & {o for a in a2 for o in a.outputs}
    assert {a.signature for a in a1}.isdisjoint({a.signature for a in a2})


def test_not_installed(stand_in):
    with pytest.raises(ToolchainError, match="cann-8.1.RC1 is not installed; installed: "
                                             "8.0.RC2 at"):
        cann.CannToolchain("cann-8.1.RC1")


def test_missing_tool_is_named(stand_in):
    (stand_in["homes"]["8.0.RC2"] / "compiler/ccec_compiler/bin/bisheng").unlink()
    with pytest.raises(ToolchainError, match="bisheng not found in CANN 8.0.RC2") as info:
        plan(stand_in, "cann-8.0.RC2")
    assert "compiler/ccec_compiler/bin/bisheng" in info.value.hint


# -- end to end through opkg build ---------------------------------------------------------


def build(capsys, *argv):
    from opkg.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["build", *argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_opkg_build_with_cann_stand_ins(stand_in, capsys, monkeypatch):
    # a loadable libcust_opapi.so (the stand-in links that one with g++)
    monkeypatch.setenv("OPKG_CANN_CXX", str(make_host_cxx(stand_in["cxx"], real_opapi=True)))
    code, out, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1",
                           "--toolchain", "cann-8.0.RC2")
    assert code == 0, out + err
    log = read_log(stand_in["log"])
    tools = [e["tool"] for e in log]
    # one opc call per binary variant, each running bisheng once; the package's one .run holds
    # every compute unit (ascend910b and the package's ascend310p), so both are built
    assert tools.count("msopgen") == 2 and tools.count("opc") == 4 and tools.count("bisheng") == 4
    assert tools.count("host-cxx") == 6 and tools.count("op_build") == 1
    msopgen = next(e for e in log if e["tool"] == "msopgen"
                   and "ai_core-Ascend910B1" in e["argv"])["argv"]
    assert msopgen[1:4] == ["gen", "-i", msopgen[3]] and msopgen[4:] == [
        "-c", "ai_core-Ascend910B1", "-lan", "cpp", "-out", msopgen[-1]]

    bundle = stand_in["root"] / "out/bundles/add_custom-1.0.0-Ascend910B1-cann-8.0.RC2.opkg.tgz"
    with tarfile.open(bundle) as tar:
        names = set(tar.getnames())
        meta = json.load(tar.extractfile("opkg-bundle.json"))
        version_info = tar.extractfile("opp/vendors/add_custom/version.info").read().decode()
    v = "opp/vendors/add_custom/"
    tbe = v + "op_impl/ai_core/tbe/"
    arch = cann.host_arch()
    for expected in (
            v + "version.info", v + "op_api/include/aclnn_add_custom.h",
            v + "op_api/lib/libcust_opapi.so", v + "op_proto/inc/op_proto.h",
            v + f"op_proto/lib/linux/{arch}/libcust_opsproto_rt2.0.so",
            tbe + f"op_tiling/lib/linux/{arch}/libcust_opmaster_rt2.0.so",
            tbe + "config/ascend910b/aic-ascend910b-ops-info.json",
            tbe + "kernel/config/ascend910b/add_custom.json",
            tbe + "kernel/config/ascend910b/binary_info_config.json",
            tbe + "add_custom_impl/dynamic/add_custom.cpp",
            tbe + "add_custom_impl/dynamic/add_custom.py",
            v + "framework/tensorflow/libcust_tf_parsers.so",
            v + "framework/tensorflow/npu_supported_ops.json",
            "verification/float16.json", "verification/float32.json", "opkg.yaml"):
        assert expected in names, expected
    kernels = [n for n in names if n.startswith(tbe + "kernel/ascend910b/add_custom/")]
    assert len([k for k in kernels if k.endswith(".o")]) == 2
    # opc's kernel .json for the 910B's vector cores
    with tarfile.open(bundle) as tar:
        kjson = json.load(tar.extractfile(next(k for k in kernels if k.endswith(".json"))))
    assert kjson["coreType"] == "VectorCore" and kjson["magic"] == "RT_DEV_BINARY_MAGIC_ELF_AIVEC"
    with tarfile.open(bundle) as tar:
        bin_info = json.load(tar.extractfile(tbe + "kernel/config/ascend910b/binary_info_config.json"))
    assert {e["coreType"] for e in bin_info["AddCustom"]["binaryList"]} == {2}
    # the configs are the project's ascendc_ops_config.py's (the stand-in writes the current
    # template's jsonPath and filePath), run on a staged copy: opc's own output is untouched
    assert all(e["jsonPath"].startswith("ascend910b/add_custom/AddCustom_")
               for e in bin_info["AddCustom"]["binaryList"])
    assert kjson["filePath"].startswith("ascend910b/add_custom/AddCustom_")
    opc_out = stand_in["root"] / "out/cann/cann-8.0.RC2/add_custom/Ascend910B1/binary/bin"
    assert all("filePath" not in json.loads(p.read_text())
               for p in (opc_out / "add_custom").glob("*.json"))
    # the ops-info JSON is op_build's ini as the project's parse_ini_to_json.py converts it
    with tarfile.open(bundle) as tar:
        ops_info = tar.extractfile(tbe + "config/ascend910b/aic-ascend910b-ops-info.json").read()
    assert json.loads(ops_info) == {"AddCustom": {"input0": {"name": "x", "shape": "all"}}}
    check_run_package(stand_in, names, bundle)
    check_opkg_install_into_opp(stand_in, bundle, capsys)
    check_aclnn_caller_loads_with_the_printed_env(stand_in, capsys)
    assert version_info == "custom_opp_compiler_version=8.0.RC2\n"
    assert meta["toolchain"]["id"] == "cann-8.0.RC2" and meta["verification_by"] == "sim"
    assert meta["verification"]["passed"] is True

    # Rebuilding is a no-op; switching the CANN version reruns every CANN tool.
    assert build(capsys, "packages/add_custom", "--soc", "Ascend910B1",
                 "--toolchain", "cann-8.0.RC2")[0] == 0
    assert len(read_log(stand_in["log"])) == len(log)
    assert build(capsys, "packages/add_custom", "--soc", "Ascend910B1",
                 "--toolchain", "cann-8.0.RC3")[0] == 0
    again = read_log(stand_in["log"])[len(log):]
    assert [e["tool"] for e in again].count("bisheng") == 4
    assert all("8.0.RC3" in e["argv"][0] for e in again if e["tool"] != "host-cxx")
    # 8.0.RC3's stand-in project has no ascendc_ops_config.py: opkg's kernel_config() writes
    # the configs from opc's kernel JSONs (staticKey included)
    bundle = stand_in["root"] / "out/bundles/add_custom-1.0.0-Ascend910B1-cann-8.0.RC3.opkg.tgz"
    with tarfile.open(bundle) as tar:
        op_cfg = json.load(tar.extractfile(tbe + "kernel/config/ascend910b/add_custom.json"))
        bin_info = json.load(tar.extractfile(tbe + "kernel/config/ascend910b/binary_info_config.json"))
    assert all(len(b["staticKey"]) == 64 for b in op_cfg["binList"])
    with tarfile.open(bundle) as tar:
        ops_info = tar.extractfile(tbe + "config/ascend910b/aic-ascend910b-ops-info.json").read()
    assert ops_info.decode() == cann.ops_info_text(stand_in_op(stand_in))
    assert all("jsonPath" not in e for e in bin_info["AddCustom"]["binaryList"])


def check_run_package(stand_in, bundle_names, bundle):
    """The .run matches the recorded install manifest file for file (fixtures/cann/
    install_manifest.txt, from a real msopgen project's build) and installs both ways."""
    import os
    import subprocess

    from cann_standin import expected_run_files, staged_files

    run_name = f"custom_opp_{cann.host_os()}_{cann.host_arch()}.run"
    assert run_name in bundle_names
    # one .run per package (vendor), every compute unit in it, as ASCEND_COMPUTE_UNIT packs them
    sdir = stand_in["root"] / "out/cann/cann-8.0.RC2/add_custom"
    run = sdir / run_name
    listed = subprocess.run(["bash", str(run), "--list"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    stage = sdir / "run_stage"
    op = stand_in_op(stand_in)
    assert staged_files(stage) == (
        expected_run_files(op, "add_custom", "ascend910b", cann.host_arch())
        | expected_run_files(op, "add_custom", "ascend310p", cann.host_arch()))
    assert os.readlink(stage / "packages/vendors/add_custom/op_impl/ai_core/tbe/op_tiling/"
                       "liboptiling.so") == f"lib/linux/{cann.host_arch()}/libcust_opmaster_rt2.0.so"
    # --install-path: vendors/<vendor>/bin/set_env.bash names the installed tree
    target = stand_in["root"].parent / "custom"
    # options install.sh does not know are ignored, as by the template's script
    done = subprocess.run(["bash", str(run), "--quiet", "--", "--no-such-option",
                           f"--install-path={target}"],
                          capture_output=True, text=True, cwd=stand_in["root"].parent)
    assert done.returncode == 0, done.stdout + done.stderr
    set_env = (target / "vendors/add_custom/bin/set_env.bash").read_text()
    assert f"export ASCEND_CUSTOM_OPP_PATH={target}/vendors/add_custom:" in set_env
    assert f"export LD_LIBRARY_PATH={target}/vendors/add_custom/op_api/lib/:" in set_env
    # without it: into $ASCEND_OPP_PATH/vendors/<vendor>, first in vendors/config.ini
    opp = stand_in["root"].parent / "opp"
    (opp / "vendors").mkdir(parents=True)
    (opp / "vendors/config.ini").write_text("load_priority=customize\n")
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_CUSTOM_OPP_PATH"}
    done = subprocess.run(["bash", str(run), "--quiet"], capture_output=True, text=True,
                          cwd=stand_in["root"].parent, env=dict(env, ASCEND_OPP_PATH=str(opp)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (opp / "vendors/config.ini").read_text() == "load_priority=add_custom,customize\n"
    assert (opp / "vendors/add_custom/op_api/lib/libcust_opapi.so").is_file()


def check_opkg_install_into_opp(stand_in, bundle, capsys):
    """`opkg install --into-opp` of the published bundle: the ASCEND_CUSTOM_OPP_PATH layout
    under --dest, and the bundle's .run run without --install-path into $ASCEND_OPP_PATH
    (vendors/config.ini); refused without ASCEND_OPP_PATH."""
    import os

    from opkg.cli import main
    from opkg.registry.publish import publish_bundles
    from opkg.registry.store import Store

    registry = stand_in["root"].parent / "registry"
    publish_bundles(Store(registry), [bundle])
    opp = stand_in["root"].parent / "opp2"
    (opp / "vendors").mkdir(parents=True)
    argv = ["install", "add_custom", "--soc", "Ascend910B1", "--toolchain", "cann-8.0.RC2",
            "--registry", str(registry), "--dest", str(stand_in["root"].parent / "ops"),
            "--force", "--into-opp"]    # --force: the stand-in install has no NPU driver

    def install(env):
        saved = dict(os.environ)
        os.environ.pop("ASCEND_OPP_PATH", None)
        os.environ.update(env)
        try:
            with pytest.raises(SystemExit) as exc:
                main(argv)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        out, err = capsys.readouterr()
        return exc.value.code, out, err

    code, out, err = install({})
    assert code == 2 and "--into-opp needs ASCEND_OPP_PATH" in err
    code, out, err = install({"ASCEND_OPP_PATH": str(opp),
                              "ASCEND_CUSTOM_OPP_PATH": str(stand_in["root"].parent / "x")})
    assert code == 0, out + err
    assert (opp / "vendors/config.ini").read_text() == "load_priority=add_custom\n"
    assert (opp / "vendors/add_custom/op_api/lib/libcust_opapi.so").is_file()
    assert f"and into {opp / 'vendors'}" in out and "export ASCEND_CUSTOM_OPP_PATH=" in out
    # the copy in $ASCEND_OPP_PATH/vendors comes first on LD_LIBRARY_PATH (install.sh's hint)
    ops = (stand_in["root"].parent / "ops").resolve()
    assert (f"export LD_LIBRARY_PATH={opp}/vendors/add_custom/op_api/lib:"
            f"{ops}/vendors/add_custom/op_api/lib:${{LD_LIBRARY_PATH}}") in out


def check_aclnn_caller_loads_with_the_printed_env(stand_in, capsys):
    """An aclnn caller loads libcust_opapi.so by name: with the environment `opkg install
    --print-env` prints (LD_LIBRARY_PATH=<vendor>/op_api/lib, as the template's install.sh
    writes into set_env.bash) the dynamic loader finds it; without, it does not."""
    import subprocess

    from opkg.cli import main

    dest = stand_in["root"].parent / "ops_env"
    with pytest.raises(SystemExit) as exc:
        main(["install", "add_custom", "--soc", "Ascend910B1", "--toolchain", "cann-8.0.RC2",
              "--registry", str(stand_in["root"].parent / "registry"), "--dest", str(dest),
              "--force", "--print-env"])
    out, err = capsys.readouterr()
    assert exc.value.code == 0, err
    assert out.splitlines() == [
        f'export ASCEND_CUSTOM_OPP_PATH="{dest}/vendors/add_custom:${{ASCEND_CUSTOM_OPP_PATH}}"',
        f'export LD_LIBRARY_PATH="{dest}/vendors/add_custom/op_api/lib:${{LD_LIBRARY_PATH}}"']
    assert "installed add_custom 1.0.0" in err
    caller = ("import ctypes; ctypes.CDLL('libcust_opapi.so').aclnnAddCustomGetWorkspaceSize; "
              "print('loaded')")
    env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ""}
    import sys

    loaded = subprocess.run(["bash", "-c", f'eval "$1"; exec {sys.executable} -c "$2"', "-",
                             out, caller], capture_output=True, text=True, env=env)
    assert loaded.returncode == 0 and loaded.stdout == "loaded\n", loaded.stderr
    missing = subprocess.run([sys.executable, "-c", caller], capture_output=True, text=True,
                             env=env)
    assert missing.returncode != 0 and "libcust_opapi.so" in missing.stderr


def test_install_into_opp_refuses_sim_bundles_and_bundles_without_a_run(tmp_path):
    from opkg.core.errors import RegistryError, UsageError
    from opkg.registry.install import Installed, install_into_opp

    def installed(toolchain):
        (tmp_path / "add_custom").mkdir(exist_ok=True)
        return Installed("add_custom", "1.0.0", "Ascend910B1", toolchain, tmp_path, "installed",
                         1, [], {})

    with pytest.raises(UsageError, match=r"\(sim\) is not a CANN bundle"):
        install_into_opp(installed("sim"), str(tmp_path))
    with pytest.raises(RegistryError, match="has no custom_opp_\\*.run") as info:
        install_into_opp(installed("cann-8.0.RC2"), str(tmp_path))
    assert "rebuild and republish" in info.value.hint


def stand_in_op(stand_in):
    from opkg.core.workspace import Workspace

    return Workspace.load(stand_in["root"]).packages["//packages/add_custom"].op


def test_cann_needs_an_opdef(stand_in):
    from opkg.core.errors import ManifestError
    from opkg.core.workspace import Workspace

    root = make_workspace(stand_in["root"].parent / "ws2", packages=("layernorm",))
    host = root / "packages/layernorm/op_host/layer_norm_custom.cpp"
    host.write_text(host.read_text().replace("OP_ADD(LayerNormCustom);", ""))
    ws = Workspace.load(root)
    pkg = ws.packages["//packages/layernorm"]
    with pytest.raises(ManifestError, match="needs an OpDef for LayerNormCustom") as info:
        cann.CannToolchain("cann-8.0.RC2", ws).plan_target(pkg, B1, [], ws.settings.output_dir,
                                                           provenance={}, verify=False)
    assert info.value.field == "tiling.sources" and "OP_ADD(LayerNormCustom)" in info.value.hint
    assert info.value.exit_code == 2


def test_stand_in_tools_reject_bad_arguments(stand_in, tmp_path):
    import subprocess

    home = stand_in["homes"]["8.0.RC2"]
    bad = subprocess.run([str(home / "compiler/ccec_compiler/bin/bisheng"), "-c", "x.cpp", "-o",
                          str(tmp_path / "x.o"), "--cce-aicore-arch=dav-c999"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "cce-aicore-arch" in bad.stderr
    bad = subprocess.run([str(home / "python/site-packages/bin/msopgen"), "gen", "-i",
                          str(tmp_path / "none.json"), "-c", "ai_core-Ascend910B1", "-lan", "cpp",
                          "-out", str(tmp_path / "p")], capture_output=True, text=True,
                         env=toolkit_env(home))
    assert bad.returncode == 2 and "input json not found" in bad.stderr


def test_stand_in_host_compiler_needs_the_toolkit_include_dir(stand_in, tmp_path):
    """The parser plugin msopgen generates includes register/register.h from the toolkit's
    include/: without -I<toolkit>/include the compiler stops (g++'s fatal error), with it the
    library links."""
    home = stand_in["homes"]["8.0.RC2"]
    plugin = tmp_path / "tensorflow_add_custom_plugin.cc"
    plugin.write_text('#include "register/register.h"\n')
    out = tmp_path / "libcust_tf_parsers.so"
    bad = _run([stand_in["cxx"], "-shared", str(plugin), "-o", out])
    assert bad.returncode == 2
    assert f"{plugin}:1: fatal error: register/register.h: No such file or directory" in bad.stderr
    good = _run([stand_in["cxx"], "-shared", f"-I{home / 'include'}", str(plugin), "-o", out])
    assert good.returncode == 0, good.stderr


def test_package_parser_plugins_join_the_template_one(stand_in):
    """framework/tf_plugin/CMakeLists.txt builds every .cc of the directory: a package's own
    framework/tf_plugin sources are overlaid on the project and linked with msopgen's."""
    extra = stand_in["root"] / "packages/add_custom/framework/tf_plugin/add_custom_alias.cc"
    extra.parent.mkdir(parents=True)
    extra.write_text('#include "register/register.h"\n')
    _, _, (_, actions) = plan(stand_in, "cann-8.0.RC2")
    (lib,) = [a for a in actions if a.step == "link" and a.outputs[0].endswith("_parsers.so")]
    project = stand_in["root"] / "out/cann/cann-8.0.RC2/add_custom/Ascend910B1/project"
    assert [a for a in lib.argv if a.endswith(".cc")] == [
        str(project / "framework/tf_plugin/add_custom_alias.cc"),
        str(project / "framework/tf_plugin/tensorflow_add_custom_plugin.cc")]


def test_stand_in_install_sh_refuses_what_the_template_refuses(stand_in, tmp_path):
    """The template's scripts/install.sh: a relative --install-path, no ASCEND_OPP_PATH, or an
    ASCEND_OPP_PATH that does not exist stop the install (exit 1); a set
    ASCEND_CUSTOM_OPP_PATH wins over ASCEND_OPP_PATH, and either one gets config.ini."""
    import os

    home = stand_in["homes"]["8.0.RC2"]
    script = home / "tools/op_project_templates/ascendc/customize/scripts/install.sh"
    stage = tmp_path / "stage"
    (stage / "packages/vendors/v1").mkdir(parents=True)
    (stage / "packages/vendors/v1/version.info").write_text("x\n")
    (stage / "install.sh").write_text(script.read_text().replace("vendor_name=customize",
                                                                  "vendor_name=v1"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("ASCEND_OPP_PATH", "ASCEND_CUSTOM_OPP_PATH")}

    def install(*args, **extra):
        return _run(["bash", "install.sh", *args], cwd=stage, env=dict(env, **extra))

    bad = install("--install-path=rel/dir")
    assert bad.returncode == 1 and "use absolute path for --install-path" in bad.stdout
    bad = install()
    assert bad.returncode == 1 and "env ASCEND_OPP_PATH no exist" in bad.stdout
    bad = install(ASCEND_OPP_PATH=str(tmp_path / "missing"))
    assert bad.returncode == 1 and f"{tmp_path / 'missing'} no exist" in bad.stdout
    opp, custom = tmp_path / "opp", tmp_path / "custom"
    opp.mkdir()
    done = install(ASCEND_OPP_PATH=str(opp), ASCEND_CUSTOM_OPP_PATH=str(custom))
    assert done.returncode == 0, done.stdout
    assert (custom / "vendors/v1/version.info").is_file() and not (opp / "vendors").exists()
    assert (custom / "vendors/config.ini").read_text() == "load_priority=v1\n"


def _run(argv, **kw):
    import subprocess

    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kw)


def test_stand_in_msopgen_drops_unknown_attr_types_with_a_warning(stand_in, tmp_path):
    """As msopgen's op_info_ir_json.py: an attr type outside IR_ATTR_TYPE_MAP is dropped with
    "Attr op_type is invalid" (the project still generates); a list default that is not a JSON
    array is passed through, not refused."""
    import os

    msopgen = stand_in["homes"]["8.0.RC2"] / "python/site-packages/bin/msopgen"
    op = cann.msopgen_json(LN)
    env = toolkit_env(stand_in["homes"]["8.0.RC2"])
    for i, attr in enumerate(({"name": "axes", "param_type": "required", "type": "listInt"},
                              {"name": "axes", "param_type": "optional", "type": "list_int",
                               "default_value": "1,2"})):
        op[0]["attr"] = [attr]
        (tmp_path / "op.json").write_text(json.dumps(op))
        done = _run([msopgen, "gen", "-i", tmp_path / "op.json", "-c", "ai_core-Ascend910B1",
                     "-lan", "cpp", "-out", tmp_path / f"p{i}"], env=env)
        assert done.returncode == 0, done.stderr
        assert ("Attr op_type is invalid: listInt" in done.stdout) == (i == 0)
    op[0]["attr"] = cann.msopgen_json(LN)[0]["attr"]
    (tmp_path / "op.json").write_text(json.dumps(op))
    argv = [msopgen, "gen", "-i", tmp_path / "op.json", "-c", "ai_core-Ascend910B1",
            "-lan", "cpp", "-out", tmp_path / "p"]
    # msopgen finds the project templates through $ASCEND_HOME_PATH
    env = {k: v for k, v in env.items() if k != "ASCEND_HOME_PATH"}
    bad = _run(argv, env=env)
    assert bad.returncode == 2 and "set ASCEND_HOME_PATH" in bad.stderr
    home = stand_in["homes"]["8.0.RC2"]
    assert _run(argv, env={**env, "ASCEND_HOME_PATH": str(home)}).returncode == 0
    assert (tmp_path / "p/cmake/util/ascendc_impl_build.py").is_file()
    assert (tmp_path / "p/scripts/install.sh").is_file()


def test_opc_loads_the_package_tiling_library(stand_in, tmp_path, monkeypatch):
    """opc runs the op's tiling to generate the tiling header: it loads
    op_impl/ai_core/tbe/op_tiling/liboptiling.so from $ASCEND_CUSTOM_OPP_PATH and reads the op's
    op_impl/ai_core/tbe/config/<soc>/aic-<soc>-ops-info.json there; the plan stages both (inputs
    of every opc step), as the 8.1.RC1 template's cmake/util/ascendc_compile_kernel.py does
    (ascendc_put_tiling, ascendc_put_json; leideng/CANN-8.1.RC1 mirror)."""
    import os

    home = stand_in["homes"]["8.0.RC2"]
    _, _, (_, actions) = plan(stand_in, "cann-8.0.RC2", soc=P3)
    base = stand_in["root"] / "out/cann/cann-8.0.RC2/add_custom"
    tiling = base / "host/libcust_opmaster_rt2.0.so"
    ops_info = base / "Ascend310P3/binary/config/aic-ascend310p-ops-info.json"
    opcs = [a for a in actions if a.step == "compile"]
    assert opcs and all(str(tiling) in a.inputs and str(ops_info) in a.inputs for a in opcs)
    opp = Path(opcs[0].params["opc_env"]["ASCEND_CUSTOM_OPP_PATH"])
    assert opcs[0].params["stage"] == {
        str(opp / "op_impl/ai_core/tbe/op_tiling/liboptiling.so"): str(tiling),
        str(opp / "op_impl/ai_core/tbe/config/ascend310p/aic-ascend310p-ops-info.json"):
            str(ops_info)}

    src = tmp_path / "src"
    src.mkdir()
    (src / "add_custom.py").write_text("# adapter\n")
    (src / "add_custom.cpp").write_text(
        "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR t) { GET_TILING_DATA(d, t); }\n")
    host = tmp_path / "add_custom_host.cpp"
    host.write_text("OP_ADD(LayerNormCustom);\n")
    lib = tmp_path / "libcust_opmaster_rt2.0.so"
    lib.write_text(f"stand-in host library\n{host}\n")
    (name, param), _ = cann.bin_param(LN)
    (tmp_path / "p.json").write_text(cann.param_text(param))
    out = tmp_path / "bin"
    info = tmp_path / "aic-ascend310p-ops-info.json"
    info.write_text(json.dumps({"LayerNormCustom": {}}))
    info_link = tmp_path / "opp/op_impl/ai_core/tbe/config/ascend310p/aic-ascend310p-ops-info.json"
    from opkg.toolchains.cann_env import set_env_spec

    params = {"argv": cann.opc_argv(str(home / "compiler/bin/opc"), str(src / "add_custom.py"),
                                    "add_custom", str(tmp_path / "p.json"), "Ascend310P3",
                                    str(out)),
              "env": set_env_spec(home, cann.host_arch()), "opc_env": {},
              "expect": [str(out / f"{name}.o"), str(out / f"{name}.json")],
              "stage": {str(tmp_path / "opp" / cann.TILING_SO_PATH): str(lib)}}
    (src / "add_custom.py").write_text("KERNEL = 'add_custom.cpp'\nOPTIONS = []\n")
    monkeypatch.delenv("ASCEND_CUSTOM_OPP_PATH", raising=False)
    assert "no tiling definition for LayerNormCustom" in cann.scons_opc(params)
    params["opc_env"]["ASCEND_CUSTOM_OPP_PATH"] = str(tmp_path / "opp")
    # the tiling library alone is not enough: opc reads the op's ops-info JSON there too
    assert "LayerNormCustom not found in the ops-info" in cann.scons_opc(params)
    params["stage"][str(info_link)] = str(info)
    assert cann.scons_opc(params) is None
    assert os.readlink(tmp_path / "opp" / cann.TILING_SO_PATH) == str(lib)
    kernel = json.loads((out / f"{name}.json").read_text())
    assert kernel["binFileName"] == name and kernel["coreType"] == "AiCore"


def test_stand_in_bisheng_needs_the_tiling_header_opc_generates(stand_in, tmp_path):
    bisheng = stand_in["homes"]["8.0.RC2"] / "compiler/ccec_compiler/bin/bisheng"
    src = tmp_path / "k.cpp"
    src.write_text("extern \"C\" __global__ __aicore__ void k(GM_ADDR t) { GET_TILING_DATA(d, t); }\n")
    argv = [str(bisheng), "--cce-aicore-arch=dav-c220-vec", "-DDTYPE_X=half", "-c", str(src),
            "-o", str(tmp_path / "k.o")]
    bad = _run(argv)
    assert bad.returncode == 2 and "undeclared identifier 'GET_TILING_DATA'" in bad.stderr
    header = tmp_path / "tiling.h"
    header.write_text("#define GET_TILING_DATA(d, t)\n")
    assert _run([*argv[:-4], "-include", str(header), *argv[-4:]]).returncode == 0


def test_soc_without_platform_ini_is_refused(stand_in):
    """platform_config/<SoC>.ini names the core arch: the 310P's vector kernels run on its AI
    cores (dav-m200), the 910B's on separate vector cores; a SoC without an ini is refused."""
    from opkg.core.errors import BuildError
    from opkg.toolchains.discovery import discover

    home = stand_in["homes"]["8.0.RC2"]
    tk = [t for t in discover().toolkits if t.root == home][0]
    assert cann.kernel_arch(tk, P3) == "dav-m200" and cann.kernel_arch(tk, B1) == "dav-c220-vec"

    with pytest.raises(BuildError, match="has no core arch for Ascend910B4") as info:
        plan(stand_in, "cann-8.0.RC2", soc=get_soc("Ascend910B4"))
    assert "does not support Ascend910B4" in info.value.hint


def test_build_resolves_by_pin_and_refuses_misalignment_early(stand_in, capsys):
    from opkg.cli import main

    # add_custom pins cann>=8.0.RC2,<8.3: without --toolchain the highest inside is 8.2.RC1
    code, out, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1", "--json")
    assert code == 0, err
    assert json.loads(out)["targets"][0]["toolchain"] == "cann-8.2.RC1"
    assert any("8.2.RC1" in e["argv"][0] for e in read_log(stand_in["log"]) if e["tool"] == "msopgen")
    # a pin no installed toolkit satisfies: exit 3 before any tool runs
    manifest = stand_in["root"] / "packages/add_custom/opkg.yaml"
    manifest.write_text(manifest.read_text().replace('cann: ">=8.0.RC2,<8.3"', 'cann: ">=8.3"'))
    stand_in["log"].unlink()
    code, _, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1")
    assert code == 3 and "pins cann>=8.3" in err and "installed: " in err
    assert read_log(stand_in["log"]) == []


def test_build_locked(stand_in, capsys):
    from opkg.cli import main

    code, _, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1", "--locked")
    assert code == 3 and "opkg.lock not found" in err
    with pytest.raises(SystemExit) as exc:
        main(["lock", "packages/add_custom", "--toolchain", "cann-8.0.RC3"])
    assert exc.value.code == 0
    capsys.readouterr()
    code, _, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1", "--locked")
    assert code == 3
    assert ("//packages/add_custom (Ascend910B1): locked cann-8.0.RC3 8.0.RC3, resolves to "
            "cann-8.2.RC1 8.2.RC1") in err
    code, _, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1", "--locked",
                         "--toolchain", "cann-8.0.RC3")
    assert code == 0, err
    from opkg.toolchains.lock import digest

    bundle = stand_in["root"] / "out/bundles/add_custom-1.0.0-Ascend910B1-cann-8.0.RC3.opkg.tgz"
    with tarfile.open(bundle) as tar:
        meta = json.load(tar.extractfile("opkg-bundle.json"))
    assert meta["provenance"]["lock_digest"] == digest(stand_in["root"] / "opkg.lock")


def test_kernel_config_in_the_packer_format():
    """Field shapes of GroupNormV2's kernel/config/ascend910b/{binary_info_config,<op>}.json:
    simplifiedKey `Op/d=0,p=0/1,2/...` (ge dtype, ge format per tensor), a string per
    binaryList entry and a list per binList entry."""
    (n32, _), (n16, _) = cann.bin_param(LN)   # LN lists float32 first
    vector = {n: {"coreType": "VectorCore", "supportInfo": {}} for n in (n32, n16)}
    op_cfg, bin_cfg = cann.kernel_config(LN, B1, vector)
    entries = bin_cfg["LayerNormCustom"]["binaryList"]
    assert entries[2] == {"coreType": 2, "binPath": f"ascend910b/layer_norm_custom/{n16}.o",
                          "simplifiedKey": "LayerNormCustom/d=0,p=0/1,2/1,2/1,2"}
    assert op_cfg["binList"][0]["simplifiedKey"] == ["LayerNormCustom/d=0,p=0/0,2/0,2/0,2",
                                                     "LayerNormCustom/d=1,p=0/0,2/0,2/0,2"]
    assert op_cfg["binList"][0]["binInfo"] == {
        "jsonFilePath": f"ascend910b/layer_norm_custom/{n32}.json"}


def test_kernel_config_reproduces_a_real_build_from_opc_kernel_jsons():
    """From opc's kernel JSONs (supportInfo as a CANN 7.3 build recorded it: simplifiedKey,
    staticKey, tensors, attrs), kernel/config/ascend910b/{group_norm_v2,binary_info_config}.json
    come out byte for byte as GroupNormV2's build wrote them (fixtures/cann/build_out/):
    opc's staticKey carried over, the packer's key order and indent."""
    from cann_standin import FIXTURES

    dt = ("float32", "float16")     # the recorded files list the float32 binary first
    op = OpSpec("GroupNormV2",
                inputs=tuple(TensorSpec(n, dt) for n in ("x", "gamma", "beta")),
                outputs=tuple(TensorSpec(n, dt) for n in ("y", "mean", "rstd")),
                attrs=(AttrSpec("num_groups", "int", required=True),
                       AttrSpec("data_format", "str", "NCHW"), AttrSpec("eps", "float", 1e-5),
                       AttrSpec("is_training", "bool", True)))
    static = {"GroupNormV2_783e55641b4dfa21360521bf61bcee00":
              "ba92f30c262126767601a3a949ce9cbe5573b88eaf0316f6e291289b57b4e6cd",
              "GroupNormV2_499e827d5d577e31090ae81a6c53b542":
              "6b0cb2741072ea521b22ae0f13b8836017030f5a0b1c5151937db70101d766f8"}
    kernels = {}
    for (name, param), ge in zip(cann.bin_param(op), (0, 1)):
        node = param["op_list"][0]
        kernels[name] = {"binFileName": name, "coreType": "VectorCore", "supportInfo": {
            "implMode": "", "int64Mode": False, "simplifiedKeyMode": 0,
            "simplifiedKey": [f"GroupNormV2/d={d},p=0/" + "/".join([f"{ge},2"] * 6)
                              for d in (0, 1)],
            "staticKey": static[name], "inputs": node["inputs"], "outputs": node["outputs"],
            "attrs": node["attrs"], "opMode": "dynamic"}}
    op_cfg, bin_cfg = cann.kernel_config(op, B1, kernels)
    recorded = FIXTURES / "build_out"
    assert cann.config_text(op_cfg) == (recorded / "group_norm_v2.json").read_text()
    assert cann.config_text(bin_cfg) == (recorded / "binary_info_config.json").read_text()


def test_kernel_config_takes_core_type_and_precision_from_opc():
    """ascendc_ops_config.py numbers opc's coreType (AiCore 1 on the 310P, VectorCore 2 on the
    910B's vector cores) and insert_simplified_keys.py maps implMode to p=; formats are ge
    numbers for every format a manifest may name (NCDHW 30)."""
    op = OpSpec("Conv3dAdd", inputs=(TensorSpec("x", ("float16",), formats=("NCDHW",)),),
                outputs=(TensorSpec("y", ("float16",), formats=("NCDHW",)),))
    ((name, _),) = cann.bin_param(op)
    kernels = {name: {"coreType": "AiCore", "supportInfo": {"implMode": "high_precision"}}}
    op_cfg, bin_cfg = cann.kernel_config(op, P3, kernels)
    assert [(e["coreType"], e["simplifiedKey"]) for e in bin_cfg["Conv3dAdd"]["binaryList"]] == [
        (1, "Conv3dAdd/d=0,p=2/1,30/1,30"), (1, "Conv3dAdd/d=1,p=2/1,30/1,30")]
    from opkg.core.errors import BuildError

    with pytest.raises(BuildError, match="no known coreType"):
        cann.kernel_config(op, P3, {name: {"supportInfo": {}}})


def test_binary_names_follow_the_release_template():
    """CANN 8.1.RC1's template script adds format_match_mode to every tensor, which changes the
    names: AddCustom's two binaries were named by running that script on AddCustom's ops-info
    (docs/cann.md records the run)."""
    from opkg.core.workspace import Workspace
    from cann_standin import REPO

    op = Workspace.load(REPO).packages["//packages/add_custom"].op
    fields = release_table().info("8.1.RC1").bin_param_fields
    assert fields == {"format_match_mode": "FormatAgnostic"}
    assert sorted(n for n, _ in cann.bin_param(op, fields)) == [
        "AddCustom_6b4edd934cf3a660c0cd2e16b3659524", "AddCustom_ab1b6750d7f510985325b603cb06dc8b"]
    assert release_table().info("8.1.RC1").opc_impl_mode == "high_performance,optional"


def test_project_param_script_must_agree_with_the_plan(tmp_path):
    import sys

    script = tmp_path / "ascendc_bin_param_build.py"
    script.write_text("import pathlib, sys\n"
                      "pathlib.Path(sys.argv[2], 'AddCustom_0123_param.json').write_text('{}')\n")
    ours = {str(tmp_path / "gen" / "AddCustom_abcd_param.json"): "{}"}
    from opkg.toolchains.cann_env import set_env_spec

    params = {"write": ours, "script": str(script), "release": "8.2.RC1",
              "argv": [sys.executable, str(script), str(tmp_path / "x.ini"),
                       str(tmp_path / "gen_project"), "ascend910b"],
              "env": set_env_spec(tmp_path / "toolkit", "x86_64")}
    err = cann.scons_params(params)
    assert "names the kernel binaries AddCustom_0123_param.json" in err
    assert "set bin_param_fields" in err and "CANN 8.2.RC1" in err
    script.write_text("import pathlib, sys\n"
                      "pathlib.Path(sys.argv[2], 'AddCustom_abcd_param.json').write_text('{}')\n")
    assert cann.scons_params(params) is None


def test_each_soc_builds_its_own_variants(stand_in):
    """op.soc_configs: PerSocAdd has no bfloat16 on the 310P, so its CANN build there plans two
    opc calls and an msopgen JSON with two dtype columns; the 910B gets all three."""
    import shutil
    from pathlib import Path

    from opkg.core.workspace import Workspace

    fixture = Path(__file__).parent / "fixtures" / "per_soc_add"
    shutil.copytree(fixture, stand_in["root"] / "packages" / "per_soc_add")
    ws = Workspace.load(stand_in["root"])
    pkg = ws.packages["//packages/per_soc_add"]
    backend = cann.CannToolchain("cann-8.0.RC2", ws)
    counts = {}
    for soc in (P3, B1):
        _, actions = backend.plan_target(pkg, soc, [], ws.settings.output_dir, provenance={},
                                         verify=False, bundle=False)
        # this SoC's own steps (the package's other compute unit is planned too, for the .run)
        actions = [a for a in actions if f"/{soc.name}/" in a.outputs[0]]
        counts[soc.name] = len([a for a in actions if a.step == "compile"])
        (gen,) = [a for a in actions if a.kind == "write" and a.outputs[0].endswith(".json")]
        counts[soc.name + " json"] = json.loads(gen.content)[0]["input_desc"][0]["type"]
    assert counts == {"Ascend310P3": 2, "Ascend310P3 json": ["half", "float"],
                      "Ascend910B1": 3, "Ascend910B1 json": ["half", "float", "bfloat16"]}


def test_ops_info_text_reproduces_a_real_build():
    """GroupNormV2's aic-ascend910b-ops-info.json byte for byte (fixtures/cann/build_out/):
    parse_ini_to_json.py's sorted keys, indent four and ':' without a space."""
    from cann_standin import FIXTURES

    dt = ("float16", "float32")
    op = OpSpec("GroupNormV2",
                inputs=tuple(TensorSpec(n, dt) for n in ("x", "gamma", "beta")),
                outputs=tuple(TensorSpec(n, dt) for n in ("y", "mean", "rstd")),
                attrs=(AttrSpec("num_groups", "int", required=True),
                       AttrSpec("data_format", "str", "NCHW"), AttrSpec("eps", "float", 1e-4),
                       AttrSpec("is_training", "bool", True)))
    assert cann.ops_info_text(op) == \
        (FIXTURES / "build_out/aic-ascend910b-ops-info.json").read_text()


def test_ops_info_as_the_project_converts_it():
    """Keys and spellings of a built project's aic-<soc>-ops-info.json (GroupNormV2)."""
    info = cann.ops_info(LN)["LayerNormCustom"]
    assert info["input0"] == {"name": "x", "paramType": "required", "shape": "all",
                              "dtype": "float32,float16", "format": "ND,ND",
                              "unknownshape_format": "ND,ND"}
    assert info["attr_epsilon"] == {"type": "float", "value": "all", "paramType": "optional",
                                    "defaultValue": "1e-05"}
    assert info["attr_axes"]["type"] == "listInt" and info["dynamicFormat"] == {"flag": "true"}
    assert "coreType" not in info


def test_run_package_names_the_os_id_as_written(tmp_path):
    """cmake/func.cmake's get_system_info keeps /etc/os-release's ID as written:
    custom_opp_openEuler_aarch64.run on openEuler."""
    release = tmp_path / "os-release"
    release.write_text('NAME="openEuler"\nVERSION_ID="22.03"\nID="openEuler"\n')
    assert cann.host_os(str(release)) == "openEuler"
    release.write_text("ID=ubuntu\n")
    assert cann.host_os(str(release)) == "ubuntu"
    assert cann.host_os(str(tmp_path / "none")) == "linux"


def test_soc_missing_from_the_opdef_names_addconfig(tmp_path):
    """op_build writes aic-<soc>-ops-info.ini only for the SoCs the OpDef's AddConfig names;
    building for another SoC stops before the project's script would fail with a traceback."""
    import sys

    script = tmp_path / "ascendc_impl_build.py"
    script.write_text("raise SystemExit('must not run')\n")
    ini = tmp_path / "aic-ascend310p-ops-info.ini"
    params = {"script": str(script), "argv": [sys.executable, str(script)],
              "expect": str(tmp_path / "x.py"), "copy": {}, "ini": str(ini),
              "op": "AddCustom", "soc": "ascend310p"}
    err = cann.scons_impl(params)
    assert "op_build wrote no aic-ascend310p-ops-info.ini" in err
    assert 'AddConfig("ascend310p")' in err


def test_opc_compiles_for_the_short_names_representative_soc(stand_in):
    """The project's scripts run opc with const_var.py's SOC_MAP_EXT SoC for the short name
    (ascend910b -> Ascend910B1), whichever SoC of the family is built for."""
    _, _, (_, actions) = plan(stand_in, "cann-8.0.RC2", soc=get_soc("Ascend910B2"))
    opcs = [a for a in actions if a.step == "compile"]
    assert opcs and all("--soc_version=Ascend910B1" in a.params["argv"] for a in opcs)
    assert cann.opc_soc_version(P3) == "Ascend310P3"


# -- issue 26: the last contradictions with the real toolchain ------------------------------


def test_packages_with_deps_build_under_cann(stand_in, monkeypatch):
    """leaky_relu, relu_add and fused_add_scale include //packages/common's header from op_host:
    its include directory reaches every host library (the stand-in compiler, like g++, fails on
    a quoted #include it cannot find) and, through custom_compile_options.ini as
    add_ops_compile_options() writes it (the 8.1.RC1 template's cmake/func.cmake and
    cmake/util/ascendc_gen_options.py, leideng/CANN-8.1.RC1 mirror), opc's bisheng. A kernel
    including the dependency's header compiles only with that -I."""
    from opkg.build import engine
    from opkg.core.workspace import Workspace

    root = make_workspace(stand_in["root"].parent / "deps_ws",
                          packages=("common", "leaky_relu", "relu_add", "fused_add_scale"))
    monkeypatch.chdir(root)
    # the kernel of one package also includes the dependency's header (the shipped kernels
    # do not), and a header of its own in a subdirectory of op_kernel/
    kernel = root / "packages/relu_add/op_kernel/relu_add_custom.cpp"
    (kernel.parent / "detail").mkdir()
    # ... which includes one at op_kernel's top: found through -I op_kernel, as in the sim
    (kernel.parent / "detail/relu_add_consts.h").write_text(
        '#pragma once\n#include "relu_add_top.h"\n')
    (kernel.parent / "relu_add_top.h").write_text("#pragma once\n")
    kernel.write_text('#include "opkg_common/elementwise_split.h"\n'
                      '#include "detail/relu_add_consts.h"\n' + kernel.read_text())
    ws = Workspace.load(root)
    labels = ["//packages/leaky_relu", "//packages/relu_add", "//packages/fused_add_scale"]
    result = engine.build(ws, labels, socs=["Ascend910B1"], toolchain="cann-8.0.RC2",
                          verify=False, jobs=2)
    assert not result.failures, result.failures
    assert len(result.targets) == 3 and all(t.bundle for t in result.targets)
    common = str(root / "packages/common/include")
    log = read_log(stand_in["log"])
    # libascend_all_ops.so, the tiling and the proto library of each package, and of the one
    # custom package the three make together (vendor customize): op_host sources
    host = [e["argv"] for e in log if e["tool"] == "host-cxx"
            and any("/op_host/" in a and a.endswith(".cpp") for a in e["argv"])]
    assert len(host) == 12 and all(f"-I{common}" in argv for argv in host)
    autogen = ws.settings.output_dir / "cann/cann-8.0.RC2/relu_add/host/autogen"
    kernel_dir = root / "packages/relu_add/op_kernel"
    assert (autogen / "custom_compile_options.ini").read_text() == \
        f"ReluAddCustom,,-I{kernel_dir};-I{common}\n"
    bisheng = [e["argv"] for e in log if e["tool"] == "bisheng"
               and any("relu_add_custom.cpp" in a for a in e["argv"])]
    assert len(bisheng) == 2 and all(f"-I{common}" in argv and f"-I{kernel_dir}" in argv
                                     for argv in bisheng)
    # the header in op_kernel/detail/ is installed with the kernel (<vendor>_impl/dynamic)
    import tarfile

    bundle = next(t.bundle for t in result.targets if t.name == "relu_add")
    with tarfile.open(bundle) as tar:
        names = set(tar.getnames())
    impl = "opp/vendors/relu_add/op_impl/ai_core/tbe/relu_add_impl/dynamic/"
    assert {impl + "relu_add_custom.cpp", impl + "detail/relu_add_consts.h",
            impl + "relu_add_top.h", impl + "relu_add_custom.py"} <= names


def test_stand_ins_refuse_a_dependency_header_without_its_include_dir(stand_in, tmp_path):
    """What the fix above relies on: without -I<dep>/include the host compiler and bisheng stop
    at the #include, as g++ and bisheng (clang) do."""
    home = stand_in["homes"]["8.0.RC2"]
    src = tmp_path / "k.cpp"
    src.write_text('#include "opkg_common/elementwise_split.h"\n'
                   'extern "C" __global__ __aicore__ void k() {}\n')
    bisheng = [str(home / "compiler/ccec_compiler/bin/bisheng"), "--cce-aicore-arch=dav-c220-vec",
               "-c", str(src), "-o", str(tmp_path / "k.o")]
    bad = _run(bisheng)
    assert bad.returncode == 2 and "opkg_common/elementwise_split.h: No such file" in bad.stderr
    common = Path(__file__).resolve().parent.parent / "packages/common/include"
    assert _run([*bisheng[:2], f"-I{common}", *bisheng[2:]]).returncode == 0
    host = [str(stand_in["cxx"]), "-shared", str(src), "-o", str(tmp_path / "k.so")]
    assert _run(host).returncode == 2
    assert _run([*host[:2], f"-I{common}", *host[2:]]).returncode == 0


def test_set_env_spec_is_what_sourcing_set_env_sh_gives(tmp_path):
    """opkg's set_env.sh environment equals what bash exports after sourcing the recorded
    set_env.sh of CANN 8.1.RC1 (fixtures/cann/set_env.sh, from the leideng/CANN-8.1.RC1
    mirror's aarch64-linux/script/set_env.sh), for every variable it sets, in path order."""
    import subprocess

    from cann_standin import fixture_text
    from opkg.toolchains.cann_env import compose, set_env_spec

    home = tmp_path / "ascend-toolkit" / "8.1.RC1"
    script = tmp_path / "set_env.sh"
    script.write_text(fixture_text("set_env.sh", toolkit=home))
    base = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "/opt/x/lib", "PYTHONPATH": "/opt/py"}
    dumped = subprocess.run(["bash", "-c", f"source {script} && env -0"], env=base,
                            capture_output=True, check=True).stdout.decode()
    sourced = dict(line.split("=", 1) for line in dumped.split("\0") if "=" in line)
    ours = compose(set_env_spec(home, cann.host_arch()), base=base)
    for var in ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "ASCEND_TOOLKIT_HOME",
                "ASCEND_HOME_PATH", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH", "TOOLCHAIN_HOME"):
        assert ours[var] == sourced[var], var


def test_tools_run_with_the_pinned_toolkits_environment(stand_in, monkeypatch):
    """msopgen imports op_gen, opc imports tbe from set_env.sh's PYTHONPATH: opkg gives them the
    chosen toolkit's. Another toolkit's site-packages on the caller's PYTHONPATH is dropped, so
    a module only that toolkit has is not picked up silently: the tool fails as it would with
    that toolkit's set_env.sh sourced alone. The caller's bisheng first on PATH is not the one
    opc runs."""
    import os

    home, other = stand_in["homes"]["8.0.RC2"], stand_in["homes"]["8.0.RC3"]
    fake = stand_in["root"].parent / "elsewhere" / "bisheng"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho not the toolkit bisheng >&2\nexit 9\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(other / "python/site-packages"))
    _, _, (_, actions) = plan(stand_in, "cann-8.0.RC2")
    (project,) = [a for a in actions if a.function == "opkg.toolchains.cann:scons_project"]
    (op_json,) = [a for a in actions if a.kind == "write" and a.outputs[0].endswith(".json")]
    Path(op_json.outputs[0]).parent.mkdir(parents=True)
    Path(op_json.outputs[0]).write_text(op_json.content)
    assert cann.scons_project(project.params) is None
    (entry,) = [e for e in read_log(stand_in["log"]) if e["tool"] == "msopgen"]
    assert entry["env"]["PYTHONPATH"].split(os.pathsep) == [
        str(home / "python/site-packages"), str(home / "opp/built-in/op_impl/ai_core/tbe")]
    assert entry["env"]["ASCEND_OPP_PATH"] == str(home / "opp")
    assert entry["env"]["LD_LIBRARY_PATH"].split(os.pathsep)[2] == str(home / "lib64")
    # only the other toolkit has op_gen now: ModuleNotFoundError, not its msopgen modules
    import shutil

    shutil.rmtree(home / "python/site-packages/op_gen")
    err = cann.scons_project(project.params)
    assert "ModuleNotFoundError: No module named 'op_gen'" in err


def test_opc_runs_with_the_template_scripts_log_and_parallel_env(stand_in, capsys):
    """gen/<Op>-<kernel>-<i>.sh of the 8.1.RC1 template sets ASCEND_GLOBAL_LOG_LEVEL=3 and
    ASCEND_SLOG_PRINT_TO_STDOUT=1 unless set, ascendc_compile_kernel.py exports HI_PYTHON=python3
    and TILINGKEY_PAR_COMPILE=1 (cmake/util/const_var.py and ascendc_compile_kernel.py of the
    leideng/CANN-8.1.RC1 mirror); opc finds bisheng first on set_env.sh's PATH."""
    import os

    code, out, err = build(capsys, "packages/add_custom", "--soc", "Ascend910B1",
                           "--toolchain", "cann-8.0.RC2")
    assert code == 0, out + err
    home = stand_in["homes"]["8.0.RC2"]
    log = read_log(stand_in["log"])
    opcs = [e for e in log if e["tool"] == "opc"]
    assert len(opcs) == 4       # two variants for each compute unit of the package's .run
    for e in opcs:
        env = e["env"]
        assert (env["ASCEND_GLOBAL_LOG_LEVEL"], env["ASCEND_SLOG_PRINT_TO_STDOUT"],
                env["HI_PYTHON"], env["TILINGKEY_PAR_COMPILE"]) == ("3", "1", "python3", "1")
        assert env["PATH"].split(os.pathsep)[:3] == [
            str(home / "bin"), str(home / "compiler/ccec_compiler/bin"),
            str(home / "tools/ccec_compiler/bin")]
        assert env["BUILD_KERNEL_SRC"].endswith("/project/op_kernel/add_custom.cpp")
    assert {e["argv"][0] for e in log if e["tool"] == "bisheng"} == {
        str(home / "compiler/ccec_compiler/bin/bisheng")}


def test_variants_differing_only_in_optional_tensors_share_a_binary():
    """CANN 8.1.RC1's cmake/util/ascendc_bin_param_build.py (leideng/CANN-8.1.RC1 mirror,
    gen_input_json) skips a combination whose required tensors repeat an earlier one. Run on an
    ops-info ini with x/y float16,float16,float32 and an optional bias float16,float32,float32,
    it wrote these two param JSONs (the names below are its output); opkg plans the same two."""
    op = OpSpec("DedupCustom",
                inputs=(TensorSpec("x", ("float16", "float16", "float32")),
                        TensorSpec("bias", ("float16", "float32", "float32"),
                                   param_type="optional")),
                outputs=(TensorSpec("y", ("float16", "float16", "float32")),))
    fields = release_table().info("8.1.RC1").bin_param_fields
    assert [n for n, _ in cann.bin_param(op, fields)] == [
        "DedupCustom_79c86e10e5e61f3e6cb1cfa557eb2a77",
        "DedupCustom_ac4ef398279611602b53768a873150ba"]
    assert [v.name for v in cann.binary_variants(op)] == ["float16", "float32"]


def test_json_text_as_msopgen_and_gen_ops_filter_write_it():
    """msopgen's op_gen/interface/utils.py write_json_file dumps with indent 4 and no final
    newline; the template's cmake/util/gen_ops_filter.sh echoes npu_supported_ops.json with a
    two-space indent (both in the leideng/CANN-8.1.RC1 mirror). The expected texts are what
    those two produce for AddCustom."""
    op = OpSpec("AddCustom", inputs=(TensorSpec("x", ("float16",)),),
                outputs=(TensorSpec("z", ("float16",)),))
    assert cann.msopgen_json_text(op) == (
        '[\n    {\n        "op": "AddCustom",\n        "language": "cpp",\n'
        '        "input_desc": [\n            {\n                "name": "x",\n'
        '                "param_type": "required",\n                "format": [\n'
        '                    "ND"\n                ],\n                "type": [\n'
        '                    "half"\n                ]\n            }\n        ],\n'
        '        "output_desc": [\n            {\n                "name": "z",\n'
        '                "param_type": "required",\n                "format": [\n'
        '                    "ND"\n                ],\n                "type": [\n'
        '                    "half"\n                ]\n            }\n        ],\n'
        '        "attr": []\n    }\n]')
    assert cann.npu_supported_ops_text(["AddCustom"]) == (
        '{\n  "AddCustom": {\n    "isGray": false,\n    "isHeavy": false\n  }\n}\n')


def test_opdef_using_for_bin_query_is_refused_at_its_line(tmp_path):
    """An OpDef input declared with .DataTypeForBinQuery({...}) (the OpDef API the 8.1.RC1
    template's ascendc_bin_param_build.py reads as dtypeForBinQuery from the ops-info ini) is
    refused at its file:line before anything runs, not left to a binary-name mismatch."""
    from opkg.core.errors import ManifestError

    src = tmp_path / "op.cpp"
    src.write_text('this->Input("x")\n    .ParamType(REQUIRED)\n'
                   '    .DataTypeForBinQuery({ge::DT_FLOAT16, ge::DT_FLOAT16});\n')
    with pytest.raises(ManifestError, match="DataTypeForBinQuery") as info:
        cann.for_bin_query([src])
    assert (info.value.location.line, info.value.location.column) == (3, 6)
    src.write_text('this->Input("x").DataType({ge::DT_FLOAT16});\n')
    cann.for_bin_query([src])


def test_toolchain_doctor_shows_what_runs_with_which_environment(stand_in, capsys,
                                                                 monkeypatch):
    """`opkg toolchain doctor` plans without building: the tools, the bisheng opc will find,
    set_env.sh's environment next to the caller's (another toolkit's PYTHONPATH entry shown as
    dropped), where op_gen and tbe import from, and each CANN step's command line; a module
    that does not import is a problem (exit 3)."""
    import os
    import shutil

    from opkg.cli import main

    home, other = stand_in["homes"]["8.0.RC2"], stand_in["homes"]["8.0.RC3"]
    monkeypatch.setenv("PYTHONPATH", str(other / "python/site-packages"))

    def doctor():
        with pytest.raises(SystemExit) as exc:
            main(["toolchain", "doctor", "packages/add_custom", "--soc", "Ascend910B1",
                  "--toolchain", "cann-8.0.RC2"])
        out, err = capsys.readouterr()
        return exc.value.code, out, err

    code, out, err = doctor()
    assert code == 0, out + err
    assert f"cann-8.0.RC2 at {home}" in out
    assert f"bisheng   {home / 'compiler/ccec_compiler/bin/bisheng'}" in out
    assert f"import op_gen {home / 'python/site-packages/op_gen/__init__.py'}" in out
    assert (f"    PYTHONPATH={home / 'python/site-packages'}{os.pathsep}"
            f"{home / 'opp/built-in/op_impl/ai_core/tbe'}\n"
            f"      yours: {other / 'python/site-packages'}") in out
    assert (f"dropped from your PYTHONPATH (another toolkit): "
            f"{other / 'python/site-packages'}") in out
    assert "ASCEND_GLOBAL_LOG_LEVEL=3 ASCEND_SLOG_PRINT_TO_STDOUT=1" in out
    assert f"[generate] {home / 'python/site-packages/bin/msopgen'} gen -i " in out
    assert "[compile] ASCEND_CUSTOM_OPP_PATH=" in out and "BUILD_KERNEL_SRC=" in out
    assert not read_log(stand_in["log"])          # nothing ran
    shutil.rmtree(home / "python/site-packages/tbe")
    code, out, err = doctor()
    assert code == 3 and "import tbe    FAILS" in out
    assert "`import tbe` fails with its set_env.sh PYTHONPATH" in err


def test_external_library_includes_and_host_sources_reach_the_host_libraries(stand_in, tmp_path):
    """A dep on an external repository's library (docs/repositories.md) flows to CANN's host
    libraries as to the sim's: its include dirs on the compile lines, its host sources in the
    tiling, proto and op_build libraries."""
    from opkg.core.workspace import Workspace
    from tests.test_repositories import make_base_repo, make_workspace as make_ext_workspace

    base = tmp_path / "base"
    commit = make_base_repo(base)
    root = make_ext_workspace(tmp_path / "ext-ws", "path: ../base", commit)
    ws = Workspace.load(root)
    pkg = ws.select(["//packages/addbase"], cwd=root)[0]
    _, actions = cann.CannToolchain("cann-8.0.RC2", ws).plan_target(
        pkg, B1, ws.deps_of(pkg.label), ws.settings.output_dir, provenance={}, verify=False,
        bundle=False)
    libs = {Path(a.outputs[0]).name: a.argv for a in actions if a.step == "link"}
    for name in ("libascend_all_ops.so", "libcust_opmaster_rt2.0.so",
                 "libcust_opsproto_rt2.0.so"):
        assert f"-I{base.resolve()}/include" in libs[name], name
        assert str(base.resolve() / "src/tiling_util.cpp") in libs[name], name
    # aclnn: CANN's own include dirs and the kernel's directory (intf_pub's -I op_kernel), not
    # the library's
    assert f"{base.resolve()}/include" not in " ".join(libs["libcust_opapi.so"])
    assert f"-I{base.resolve()}/ops/add" in libs["libcust_opapi.so"]
    # opc's kernels get the library's kernel include dirs (custom_compile_options.ini)
    options = next(a.params["options"] for a in actions if a.params.get("options"))
    assert f"-I{base.resolve()}/kinclude" in options


def test_packages_built_together_make_one_custom_package(stand_in, monkeypatch, capsys):
    """Several packages under one CANN toolchain: besides each package's own .run, one custom
    package (vendor customize, the template's CMakePresets.json vendor_name) holding every
    operator on every compute unit, as one msopgen project with both ops in op_host/ and
    op_kernel/ builds it (the 8.1.RC1 template's CMakeLists.txt and cmake/func.cmake,
    leideng/CANN-8.1.RC1; ops-nn's `build.sh --pkg --soc=<socs> --ops=<ops>`, hicann/ops-nn):
    one set of host libraries from all op_host sources, one ops-info JSON and one
    binary_info_config.json per compute unit listing its operators, one .run."""
    import subprocess

    from opkg.build import engine
    from opkg.core.workspace import Workspace
    from cann_standin import expected_run_files, staged_files

    root = make_workspace(stand_in["root"].parent / "set_ws",
                          packages=("common", "add_custom", "relu_add"))
    monkeypatch.chdir(root)
    ws = Workspace.load(root)
    result = engine.build(ws, ["//packages/add_custom", "//packages/relu_add"],
                          socs=["Ascend910B1", "Ascend310P3"], toolchain="cann-8.0.RC2",
                          verify=False, jobs=2)
    assert not result.failures, result.failures
    [custom] = result.plan.custom_packages
    assert custom["vendor"] == "customize" and custom["toolchain"] == "cann-8.0.RC2"
    assert custom["operators"] == ["AddCustom", "ReluAddCustom"]
    # add_custom's units are ascend910b and ascend310p; relu_add declares no 310P SoC
    assert custom["socs"] == ["ascend910b", "ascend310p"]
    assert result.to_json()["custom_packages"] == [custom]
    base = ws.settings.output_dir / "cann/cann-8.0.RC2/_vendors/customize"
    run = base / f"custom_opp_{cann.host_os()}_{cann.host_arch()}.run"
    assert Path(custom["run"]) == run and run.is_file()
    arch = cann.host_arch()
    ops = {n: ws.packages[f"//packages/{n}"].op for n in ("add_custom", "relu_add")}
    expected = (expected_run_files(ops["add_custom"].for_soc("ascend910b"), "customize",
                                   "ascend910b", arch)
                | expected_run_files(ops["add_custom"].for_soc("ascend310p"), "customize",
                                     "ascend310p", arch)
                | expected_run_files(ops["relu_add"].for_soc("ascend910b"), "customize",
                                     "ascend910b", arch))
    stage = base / "run_stage"
    assert staged_files(stage) == expected
    vendor = stage / "packages/vendors/customize"
    tbe = vendor / "op_impl/ai_core/tbe"
    info = json.loads((tbe / "config/ascend910b/aic-ascend910b-ops-info.json").read_text())
    assert sorted(info) == ["AddCustom", "ReluAddCustom"]
    assert sorted(json.loads((tbe / "config/ascend310p/aic-ascend310p-ops-info.json")
                             .read_text())) == ["AddCustom"]
    bins = json.loads((tbe / "kernel/config/ascend910b/binary_info_config.json").read_text())
    assert sorted(bins) == ["AddCustom", "ReluAddCustom"]
    assert json.loads((vendor / "framework/tensorflow/npu_supported_ops.json").read_text()) == \
        {"AddCustom": {"isGray": False, "isHeavy": False},
         "ReluAddCustom": {"isGray": False, "isHeavy": False}}
    # the vendor's host libraries: one op_build over both packages' OpDefs; the tiling
    # library links both op_host sources (with the dependency's include dir), the aclnn
    # library both generated sources
    log = read_log(stand_in["log"])
    autogen = base / "host/autogen"
    [opbuild] = [e["argv"] for e in log if e["tool"] == "op_build"
                 and e["argv"][2] == str(autogen)]
    [tiling] = [e["argv"] for e in log if e["tool"] == "host-cxx"
                and e["argv"][-1].startswith(str(base / "host/libcust_opmaster_rt2.0.so"))]
    assert {Path(a).name for a in tiling if a.endswith(".cpp")} == \
        {"add_custom.cpp", "relu_add_custom.cpp"}
    assert f"-I{root / 'packages/common/include'}" in tiling
    [opapi] = [e["argv"] for e in log if e["tool"] == "host-cxx"
               and e["argv"][-1].startswith(str(base / "host/libcust_opapi.so"))]
    assert [Path(a).name for a in opapi if a.endswith(".cpp")] == \
        ["aclnn_add_custom.cpp", "aclnn_relu_add_custom.cpp"]
    # one add_ops_compile_options line per operator
    lines = (autogen / "custom_compile_options.ini").read_text().splitlines()
    assert [line.split(",")[0] for line in lines] == ["AddCustom", "ReluAddCustom"]
    # the .run installs one vendor with both operators
    target = root.parent / "set_custom"
    done = subprocess.run(["bash", str(run), "--quiet", "--", f"--install-path={target}"],
                          capture_output=True, text=True, cwd=root.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = target / "vendors/customize/op_api/include"
    assert sorted(p.name for p in installed.iterdir()) == \
        ["aclnn_add_custom.h", "aclnn_relu_add_custom.h"]
    # each package keeps its own .run and bundle (vendor = the package name)
    assert all(t.bundle for t in result.targets)
    assert (ws.settings.output_dir / "cann/cann-8.0.RC2/relu_add" / run.name).is_file()
    # `opkg build` says where the custom package is (here a null build)
    from opkg.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["build", "//packages/add_custom", "//packages/relu_add", "--soc", "Ascend910B1",
              "--soc", "Ascend310P3", "--toolchain", "cann-8.0.RC2"])
    out = capsys.readouterr().out
    assert exc.value.code == 0, out
    assert (f"custom package: out/cann/cann-8.0.RC2/_vendors/customize/{run.name} (vendor "
            "customize: AddCustom, ReluAddCustom; ascend910b, ascend310p)") in out


def test_one_custom_package_refuses_two_kernel_headers_of_one_name(stand_in, monkeypatch):
    """<vendor>_impl/dynamic/ holds each op's op_kernel/ files: two packages with a header of
    the same name and different text cannot share it (the later would overwrite the other's)."""
    from opkg.build import engine
    from opkg.core.errors import BuildError
    from opkg.core.workspace import Workspace

    root = make_workspace(stand_in["root"].parent / "clash_ws",
                          packages=("common", "add_custom", "relu_add"))
    for name in ("add_custom", "relu_add"):
        (root / f"packages/{name}/op_kernel/consts.h").write_text(f"// {name}\n")
    monkeypatch.chdir(root)
    ws = Workspace.load(root)
    with pytest.raises(BuildError) as info:
        engine.build(ws, ["//packages/add_custom", "//packages/relu_add"],
                     socs=["Ascend910B1"], toolchain="cann-8.0.RC2", verify=False, jobs=1)
    assert "both install customize_impl/dynamic/consts.h with different contents" in \
        str(info.value)
    # the same text is one file
    (root / "packages/relu_add/op_kernel/consts.h").write_text("// add_custom\n")
    result = engine.build(Workspace.load(root), ["//packages/add_custom", "//packages/relu_add"],
                          socs=["Ascend910B1"], toolchain="cann-8.0.RC2", verify=False, jobs=2)
    assert not result.failures, result.failures


def test_a_build_restored_from_the_cache_reruns_msopgen(stand_in, capsys):
    """msopgen writes more than its step can declare (the template's cmake/util scripts that the
    kernel step runs), so its step never comes from the cache: after `rm -rf out` and a kernel
    edit, the kernel step finds the project's scripts instead of a restored tree without them."""
    import shutil

    argv = ("packages/add_custom", "--soc", "Ascend910B1", "--toolchain", "cann-8.0.RC2")
    code, out, err = build(capsys, *argv)
    assert code == 0, out + err
    shutil.rmtree(stand_in["root"] / "out")
    kernel = stand_in["root"] / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\n// edited\n")
    stand_in["log"].write_text("")
    code, out, err = build(capsys, *argv)
    assert code == 0, out + err
    tools = [e["tool"] for e in read_log(stand_in["log"])]
    # msopgen ran again (one project per compute unit of the package's .run), then opc
    assert tools.count("msopgen") == 2 and "opc" in tools, tools
