"""Operators imported from an ops repository (hicann/ops-nn's layout) built by the CANN
backend with stand-in tools, as the repository's own `build.sh --pkg --soc=<soc> --ops=<op>`
builds them (its cmake/gen_ops_info.cmake copies the op's whole op_kernel/ directory for the
kernel compile and installs it; cmake/func.cmake compiles op_host sources with the base
library's and the repository's common include directories).

The repository is tests/fixtures/ops_repo and tests/fixtures/ops_base (written here; their
READMEs say what they mirror), imported with `opkg import` as tests/test_import_repository.py
does. The stand-ins reject a quoted #include they cannot find under the given -I directories,
as bisheng (through opc) and the host compiler do.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
from pathlib import Path

from cann_standin import install_stand_in_tools, make_host_cxx, make_toolkit, read_log, \
    use_stand_in_roots
from test_import_repository import _workspace

from opkg.toolchains import cann

LABEL = "//packages/ops_mini/activation/leaky_scale"


def _imported(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """A workspace with leaky_scale imported, its kernel reorganised as larger ops-nn kernels
    are: the entry includes a header in a subdirectory of op_kernel/ which includes one at
    op_kernel/'s top (found through -I op_kernel only), and a stand-in CANN 8.0.RC2."""
    ws = _workspace(tmp_path)
    kernel_dir = ws / "ops-mini/activation/leaky_scale/op_kernel"
    (kernel_dir / "arch22").mkdir()
    (kernel_dir / "arch22/leaky_scale_impl.h").write_text(
        '#pragma once\n#include "leaky_scale_consts.h"\n')
    (kernel_dir / "leaky_scale_consts.h").write_text("#pragma once\n")
    kernel = kernel_dir / "leaky_scale.cpp"
    kernel.write_text('#include "arch22/leaky_scale_impl.h"\n' + kernel.read_text())
    repo = ws / "ops-mini"
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "kernel headers"], check=True)
    proc = subprocess.run([sys.executable, "-m", "opkg", "import",
                           "ops-mini/activation/leaky_scale", "--base", "ops-base"],
                          cwd=ws, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    ascend = tmp_path / "Ascend"
    use_stand_in_roots(monkeypatch, ascend)
    home = make_toolkit(ascend, "8.0.RC2")
    install_stand_in_tools(home)
    monkeypatch.setenv("OPKG_CANN_CXX", str(make_host_cxx(tmp_path / "bin" / "host-g++")))
    log = tmp_path / "tools.log"
    monkeypatch.setenv("OPKG_STANDIN_LOG", str(log))
    monkeypatch.chdir(ws)
    return ws, log


def test_an_imported_operator_builds_on_cann_from_its_repository(tmp_path, monkeypatch):
    from opkg.build import engine
    from opkg.core.workspace import Workspace

    ws_root, log = _imported(tmp_path, monkeypatch)
    ws = Workspace.load(ws_root)
    result = engine.build(ws, [LABEL], toolchain="cann-8.0.RC2", verify=False, jobs=2)
    assert not result.failures, result.failures[0].get("output")
    op_dir = ws_root / "ops-mini/activation/leaky_scale"
    act_common = ws_root / "ops-mini/activation/act_common/op_host"
    base = ws_root / "ops-base"
    entries = read_log(log)
    # opc's bisheng: the op's op_kernel/ of the repository, the repository's common kernel
    # directory and the generated kernel tree (sibling ops' headers), from
    # custom_compile_options.ini
    bisheng = [e["argv"] for e in entries if e["tool"] == "bisheng"]
    assert len(bisheng) == 2
    for argv in bisheng:
        assert f"-I{op_dir / 'op_kernel'}" in argv
        assert f"-I{ws_root / 'ops-mini/common/inc/op_kernel'}" in argv
        assert f"-I{ws_root / 'packages/ops_mini/kernel_tree/ascendc/_'}" in argv
    # opc compiles the staged copy of the op's op_kernel/ (BUILD_KERNEL_SRC), headers in its
    # subdirectories included
    out = ws.settings.output_dir / "cann/cann-8.0.RC2/leaky_scale/Ascend910B1"
    opc = [e for e in entries if e["tool"] == "opc"]
    assert {e["env"]["BUILD_KERNEL_SRC"] for e in opc} == \
        {str(out / "project/op_kernel/leaky_scale.cpp")}
    assert (out / "project/op_kernel/arch22/leaky_scale_impl.h").is_file()
    # the project's op_host/ holds the package's tiling sources, at their place under the
    # repository's op_host/ (the arch35 sources, not built for ascend910b, are left out)
    host = out / "project/op_host"
    assert (host / "arch22/leaky_scale_tiling_arch22.cpp").is_file()
    assert (host / "leaky_scale_def.cpp").is_file()
    assert not (host / "arch35").exists()
    # the host libraries: the base library's include directories and sources, the
    # repository's common include directories, the op's op_host/
    libs = {Path(e["argv"][-1]).name.split(".tmp-")[0]: e["argv"] for e in entries
            if e["tool"] == "host-cxx"}
    for name in ("libascend_all_ops.so", "libcust_opmaster_rt2.0.so",
                 "libcust_opsproto_rt2.0.so"):
        argv = libs[name]
        assert f"-I{op_dir / 'op_host'}" in argv, name
        assert f"-I{base / 'include/op_common/op_host'}" in argv, name
        assert f"-I{ws_root / 'ops-mini/common/inc/op_host'}" in argv, name
        assert str(base / "src/op_common/op_host/util/mini_math.cpp") in argv, name
        # its CMake DEPENDENCIES module, imported as a library package with host sources:
        # the module's sources and private include directories, as the repository's
        # op_host library compiles the DEPENDENCIES units with the operator
        assert str(act_common / "act_common_tiling.cpp") in argv, name
        assert f"-I{act_common}" in argv, name
    options = (ws.settings.output_dir /
               "cann/cann-8.0.RC2/leaky_scale/host/autogen/custom_compile_options.ini")
    assert options.read_text().startswith(f"LeakyScale,,-I{op_dir / 'op_kernel'};")
    # the installed <vendor>_impl/dynamic/ has the whole op_kernel/ (online compilation)
    [target] = result.targets
    with tarfile.open(target.bundle) as tar:
        names = set(tar.getnames())
    impl = "opp/vendors/leaky_scale/op_impl/ai_core/tbe/leaky_scale_impl/dynamic/"
    assert {impl + "leaky_scale.cpp", impl + "arch22/leaky_scale_impl.h",
            impl + "leaky_scale_consts.h", impl + "leaky_scale.py"} <= names


def test_stand_in_bisheng_refuses_the_kernel_without_its_op_kernel_dir(tmp_path, monkeypatch):
    """What the test above relies on: compiled from the repository's op_kernel/ without
    -I op_kernel, the header in arch22/ does not find the one at op_kernel's top."""
    ws_root, _ = _imported(tmp_path, monkeypatch)
    home = tmp_path / "Ascend/ascend-toolkit/8.0.RC2"
    # the kernel's first lines, without the tiling (opc's header) the real entry uses
    kernel = ws_root / "ops-mini/activation/leaky_scale/op_kernel/probe.cpp"
    kernel.write_text('#include "arch22/leaky_scale_impl.h"\n'
                      'extern "C" __global__ __aicore__ void probe() {}\n')
    argv = [str(home / "compiler/ccec_compiler/bin/bisheng"), "--cce-aicore-arch=dav-c220-vec",
            f"-I{ws_root / 'packages/ops_mini/kernel_tree/ascendc/_'}",
            f"-I{ws_root / 'ops-mini/common/inc/op_kernel'}",
            f"-I{home / 'x86_64-linux/ascendc/include/basic_api'}",
            "-c", str(kernel), "-o", str(tmp_path / "k.o")]
    bad = subprocess.run(argv, capture_output=True, text=True)
    assert bad.returncode == 2 and "leaky_scale_consts.h: No such file" in bad.stderr
    good = subprocess.run([*argv[:2], f"-I{kernel.parent}", *argv[2:]], capture_output=True,
                          text=True)
    assert good.returncode == 0, good.stderr


def test_an_imported_operator_joins_a_vendor_package(tmp_path, monkeypatch):
    """An imported operator and a workspace package built together: one custom package with
    both, as the repository's `build.sh --pkg --ops=<op,...>` packs its selected operators."""
    import shutil

    from opkg.build import engine
    from opkg.core.workspace import Workspace

    ws_root, _ = _imported(tmp_path, monkeypatch)
    shutil.copytree(Path(__file__).resolve().parent.parent / "packages/add_custom",
                    ws_root / "packages/add_custom")
    ws = Workspace.load(ws_root)
    result = engine.build(ws, [LABEL, "//packages/add_custom"], socs=["Ascend910B1"],
                          toolchain="cann-8.0.RC2", verify=False, jobs=2)
    assert not result.failures, result.failures[0].get("output")
    [custom] = result.plan.custom_packages
    assert sorted(custom["operators"]) == ["AddCustom", "LeakyScale"]
    stage = Path(custom["run"]).parent / "run_stage/packages/vendors/customize"
    tbe = stage / "op_impl/ai_core/tbe"
    assert (tbe / "customize_impl/dynamic/arch22/leaky_scale_impl.h").is_file()
    assert sorted(json.loads((tbe / "kernel/config/ascend910b/binary_info_config.json")
                             .read_text())) == ["AddCustom", "LeakyScale"]
    run = Path(custom["run"])
    assert run.name == f"custom_opp_{cann.host_os()}_{cann.host_arch()}.run" and run.is_file()
