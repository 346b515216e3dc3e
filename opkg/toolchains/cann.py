"""The `cann-<version>` toolchain backend: Actions that drive an installed CANN toolkit.

Like the sim backend, it only plans: every step is an Action (opkg.build.plan) that the SCons glue
runs. Per (package, SoC):

  1. generate   msopgen's prototype JSON from the manifest's op (written by opkg);
  2. project    `msopgen gen -i <json> -c ai_core-<SoC> -lan cpp -out <dir>`, then the
                package's own op_host/, op_kernel/ and framework/ files overlaid on the templates
                (one step, so a regenerated project is never left without the overlay);
  3. compile    as the project's op_kernel CMake does: its cmake/util/ascendc_impl_build.py
                writes the Python adapter from op_build's ops-info ini, one param JSON per
                binary variant names the binary (<Op>_<md5>), and one `opc` call per variant
                generates the tiling header and runs bisheng for the SoC's core arch; then
                the project's ascendc_ops_config.py writes the kernel configs from opc's
                kernel JSONs and its parse_ini_to_json.py the ops-info JSON;
  4. link       once per package, with the host C++ compiler, as CANN's custom-op CMake does:
                op_host/ -> libascend_all_ops.so; CANN's op_build reads its OpDefs and writes
                op_proto.cc and aclnn_<op>.{h,cpp}; then libcust_opmaster_rt2.0.so (tiling,
                -DOP_TILING_LIB), libcust_opsproto_rt2.0.so (proto, -DOP_PROTO_LIB) and
                libcust_opapi.so (the aclnn API), and per SoC libcust_tf_parsers.so from the
                project's framework/tf_plugin;
  5. layout     the custom-op package tree CANN's install scripts and ASCEND_CUSTOM_OPP_PATH read:
                vendors/<vendor>/{op_impl/ai_core/tbe/..., op_proto/..., op_api/{lib,include},
                version.info};
  6. verify     the sim backend's verification of the same sources (no NPU on a build host);
  7. bundle     opp/vendors/<vendor>/... plus the manifest and the verification reports.

The toolkit fingerprint (compiler binaries + version files) is every action's signature, and
outputs live under out/cann/<toolchain id>/, so switching CANN versions never reuses a result.
What differs per release (param JSON fields, opc's impl mode, extra tiling libraries)
comes from toolchains/cann_releases.yaml.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from opkg.core.errors import BuildError, Location, ManifestError, ToolchainError
from opkg.core.model import ATTR_TYPES, DTYPES, FORMATS, OpSpec, SimModes, SocInfo, Variant
from opkg.core.actions import Action, Target

# msopgen's JSON spells dtypes as CANN's prototype JSON does ("float", "half", "bfloat16").
MSOPGEN_DTYPES = {
    "float32": "float", "float16": "half", "bfloat16": "bfloat16", "int8": "int8",
    "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "bool": "bool", "float64": "double",
}

# The same types as the ops-info file spells them (transform.json INI_ATTR_TYPE_MAP).
OPS_INFO_ATTR_TYPES = {"bool": "bool", "int": "int", "float": "float", "str": "str",
                       "list_int": "listInt", "list_float": "listFloat", "list_bool": "listBool"}

# Host libraries as CANN's custom-op project builds them (cmake/intf.cmake's intf_pub and
# op_host/CMakeLists.txt of msopgen's template; link.txt of a built project): C++11 with the old
# libstdc++ ABI CANN's libraries use, hardened links, and the registration libraries.
HOST_COMPILE_FLAGS = ("-fPIC", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-O2",
                      "-std=c++11", "-fstack-protector-strong")
HOST_DEFINES = ("_GLIBCXX_USE_CXX11_ABI=0", "_FORTIFY_SOURCE=2")
HOST_LINK_FLAGS = ("-shared", "-s", "-Wl,-z,relro", "-Wl,-z,now", "-Wl,-z,noexecstack")
REGISTRY_LIBS = ("-lexe_graph", "-lregister", "-ltiling_api", "-Wl,--whole-archive",
                 "-lrt2_registry", "-Wl,--no-whole-archive")
OPAPI_LIBS = ("-lascendcl", "-lnnopbase")
# framework/tf_plugin/CMakeLists.txt of the default (TensorFlow) project: every .cc there into
# libcust_tf_parsers.so with intf_pub's flags, google=ascend_private and -lgraph (a built
# project's cust_tf_parsers.dir/flags.make and link.txt)
TF_PARSER_DEFINES = ("google=ascend_private",)
TF_PARSER_LIBS = ("-lgraph",)
# cmake/func.cmake's opbuild(): the library op_build loads to read the OpDefs
ALL_OPS_FLAGS = ("-g", "-fPIC", "-shared", "-std=c++11", "-D_GLIBCXX_USE_CXX11_ABI=0")
ALL_OPS_LIBS = ("-lexe_graph", "-lregister", "-ltiling_api")
# where opc (tbe/tikcpp/get_op_tiling.py) looks for a custom tiling library in each
# $ASCEND_CUSTOM_OPP_PATH directory and each vendors/config.ini vendor
TILING_SO_PATH = "op_impl/ai_core/tbe/op_tiling/liboptiling.so"
# the vendor of a custom package holding several packages' operators: the custom-op
# template's CMakePresets.json vendor_name (one package alone keeps its own name)
DEFAULT_VENDOR = "customize"


def host_arch() -> str:
    """The <arch> of op_proto/lib/linux/<arch>: aarch64 or x86_64."""
    machine = platform.machine().lower()
    return {"arm64": "aarch64", "amd64": "x86_64"}.get(machine, machine)


def host_os(os_release: str = "/etc/os-release") -> str:
    """The <os> of custom_opp_<os>_<arch>.run: /etc/os-release's ID as written, as the
    project's cmake/func.cmake get_system_info() reads it (ubuntu, openEuler, ...)."""
    try:
        for line in Path(os_release).read_text().splitlines():
            if line.lower().startswith("id="):     # the ID as written: openEuler, ubuntu
                return line.split("=", 1)[1].strip().strip('"') or "linux"
    except OSError:
        pass
    return "linux"


def host_compiler() -> str:
    """The host C++ compiler for op_host libraries: $OPKG_CANN_CXX, else $CXX, else g++."""
    return os.environ.get("OPKG_CANN_CXX") or os.environ.get("CXX") or "g++"


# -- pure planning helpers (tested directly) -----------------------------------------------


def msopgen_json(op: OpSpec) -> list[dict]:
    """The prototype JSON msopgen reads: dtypes and formats matched by position per variant."""
    variants = op.variants()

    def tensor(t) -> dict:
        return {"name": t.name, "param_type": t.param_type,
                "format": [dict(v.formats)[t.name] for v in variants],
                "type": [MSOPGEN_DTYPES[dict(v.dtypes)[t.name]] for v in variants]}

    attrs = []
    for a in op.attrs:
        entry = {"name": a.name, "param_type": "required" if a.required else "optional",
                 "type": ATTR_TYPES[a.type]}
        if not a.required and a.default is not None:
            # JSON values as msopgen's IR_json template writes them: [1, 1] for a list_int
            entry["default_value"] = list(a.default) if isinstance(a.default, (list, tuple)) \
                else a.default
        attrs.append(entry)
    return [{"op": op.type, "language": "cpp",
             "input_desc": [tensor(t) for t in op.inputs],
             "output_desc": [tensor(t) for t in op.outputs],
             "attr": attrs}]


def msopgen_json_text(op: OpSpec) -> str:
    """The prototype JSON's text as msopgen writes its own (op_gen/interface/utils.py
    write_json_file: indent four, no sort, no final newline)."""
    return json.dumps(msopgen_json(op), sort_keys=False, indent=4)


def npu_supported_ops_text(op_types) -> str:
    """framework/<fw>/npu_supported_ops.json as the project's cmake/util/gen_ops_filter.sh
    writes it: two-space indent, every op isGray and isHeavy false, a final newline."""
    return json.dumps({t: {"isGray": False, "isHeavy": False} for t in op_types},
                      indent=2) + "\n"


def _default_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_default_text(v) for v in value)
    return str(value)


def msopgen_argv(msopgen: str, json_path: str, soc: SocInfo, out_dir: str,
                 framework: str | None) -> list[str]:
    argv = [msopgen, "gen", "-i", json_path]
    if framework:
        argv += ["-f", framework]
    return argv + ["-c", f"ai_core-{soc.name}", "-lan", "cpp", "-out", out_dir]


def kernel_arch(toolkit, soc: SocInfo) -> str:
    """The --cce-aicore-arch of a vector kernel on `soc`, from the toolkit's platform_config ini.
    SoCs with separate vector cores (the ini names CCEC_VECTOR_version, as the 910B's does) run
    vector kernels on them (CCEC_AIV_version); elsewhere (310P, 310B) they run on the AI core
    (CCEC_AIC_version) and the -vec arch is only the vector half of a mixed kernel."""
    ini = toolkit.platform_version(soc.name)
    arch = ini.get("CCEC_AIV_version") if "CCEC_VECTOR_version" in ini \
        else ini.get("CCEC_AIC_version")
    if not arch:
        where = toolkit.platform_dir or (toolkit.root / "<arch>-linux/data/platform_config")
        raise BuildError(f"CANN {toolkit.version} has no core arch for {soc.name}: "
                         f"{where}/{soc.name}.ini is missing or names no CCEC_AIC_version",
                         hint=f"this toolkit does not support {soc.name}; choose a SoC it lists "
                              "(opkg toolchain list) or another CANN release")
    return arch


# The SoC opc compiles a short name's kernels for (the project's cmake/util/const_var.py
# SOC_MAP_EXT, 8.1.RC1); ascendc_bin_param_build.py capitalizes any other short name.
OPC_SOC_VERSIONS = {"ascend310p": "Ascend310P3", "ascend310b": "Ascend310B1",
                    "ascend910": "Ascend910A", "ascend910b": "Ascend910B1",
                    "ascend910_93": "Ascend910_9391", "ascend610lite": "Ascend610Lite"}


def opc_soc_version(soc: SocInfo) -> str:
    """--soc_version of opc: the kernels of one short name are built once, for its
    representative SoC, whichever SoC of the family the package is built for."""
    return OPC_SOC_VERSIONS.get(soc.short) or soc.short.capitalize()


def opc_argv(opc: str, impl_py: str, kernel: str, param: str, soc_name: str,
             out_dir: str, impl_mode: str = "") -> list[str]:
    """One binary variant's opc call, as the project's gen/<Op>-<kernel>-<i>.sh makes it;
    `soc_name` is opc_soc_version's."""
    return [opc, impl_py, f"--main_func={kernel}", f"--input_param={param}",
            f"--soc_version={soc_name}", f"--output={out_dir}", f"--impl_mode={impl_mode}",
            "--simplified_key_mode=0", "--op_mode=dynamic"]


def host_argv(cxx: str, defines, sources, includes, lib_dirs, libs, out: str) -> list[str]:
    """A host library's compile-and-link line, with the flags of CANN's custom-op CMake. No
    RPATH: the installed libraries have none (the project's install sets it to ""); the
    runtime finds CANN's libraries through set_env.sh's LD_LIBRARY_PATH."""
    return [cxx, *HOST_COMPILE_FLAGS, *(f"-D{d}" for d in (*defines, *HOST_DEFINES)),
            *(f"-I{d}" for d in includes), *map(str, sources), *HOST_LINK_FLAGS,
            f"-Wl,-soname,{Path(out).name}", *(f"-L{d}" for d in lib_dirs), *libs, "-o", out]


def all_ops_argv(cxx: str, sources, includes, lib_dirs, out: str) -> list[str]:
    """cmake/func.cmake's opbuild() line: the library op_build loads to read the OpDefs."""
    return [cxx, *ALL_OPS_FLAGS, *map(str, sources), *(f"-I{d}" for d in includes),
            *(f"-L{d}" for d in lib_dirs), *ALL_OPS_LIBS, "-o", out]


def for_bin_query(sources) -> None:
    """Refuse an OpDef that maps variants onto other variants' binaries
    (.DataTypeForBinQuery / .FormatForBinQuery): the template's ascendc_bin_param_build.py then
    compresses the binary list and adds dtypeForBinQuery/formatForBinQuery to the param JSONs,
    which opkg's planned binaries do not reproduce."""
    import re

    for src in sources:
        try:
            lines = Path(src).read_text(errors="replace").splitlines()
        except OSError:
            continue
        for n, line in enumerate(lines, 1):
            m = re.search(r"\.(DataTypeForBinQuery|FormatForBinQuery)\s*\(", line)
            if m:
                raise ManifestError(
                    f"the CANN toolchain does not build OpDefs using {m.group(1)}: the "
                    "project's ascendc_bin_param_build.py would merge binary variants in a way "
                    "opkg does not plan",
                    location=Location(Path(src), n, m.start(1) + 1),
                    hint="list every dtype/format combination as its own variant (one binary "
                         "each), or build this package with the template's own build.sh")


def registered_ops(sources) -> list[str]:
    """Op types the op_host sources register with OP_ADD(...): what op_build will find."""
    from opkg.verify.prototype import OP_ADD_RE

    found = []
    for src in sources:
        try:
            text = Path(src).read_text(errors="replace")
        except OSError:
            continue
        found += OP_ADD_RE.findall(text)
    return found


# The value each attr type gets in a binary variant's param JSON (the project's
# cmake/util/const_var.py ATTR_DEF_VAL): kernels are compiled for dynamic attrs.
PARAM_ATTR_VALUES = {"str": "", "int": 0, "float": 0.0, "bool": False, "list_bool": [],
                     "list_int": [], "list_float": []}


def binary_variants(op: OpSpec) -> list[Variant]:
    """The variants that get a kernel binary: ascendc_bin_param_build.py's gen_input_json()
    skips a combination whose required and dynamic tensors have the (dtype, format) of an
    earlier one (its optional tensors alone differ): one binary serves both."""
    out, seen = [], set()
    for v in op.variants():
        dtypes, formats = dict(v.dtypes), dict(v.formats)
        key = tuple((dtypes[t.name], formats[t.name]) for t in (*op.inputs, *op.outputs)
                    if t.param_type != "optional")
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def compile_options_text(op_type: str, include_dirs) -> str:
    """custom_compile_options.ini as add_ops_compile_options(<OpType> OPTIONS -I<dir> ...)
    leaves it (ascendc_gen_options.py: "<OpType>,<SoCs, empty for all>,<opt;opt>"): the
    include directories of the package's deps and its own reach opc's bisheng this way."""
    if not include_dirs:
        return ""
    return f"{op_type},," + ";".join(f"-I{d}" for d in include_dirs) + "\n"


def bin_param(op: OpSpec, fields: dict | None = None) -> list[tuple[str, dict]]:
    """(binary name, param JSON) per binary variant, as the msopgen project's
    cmake/util/ascendc_bin_param_build.py writes <name>_param.json (param_text): the name is
    <OpType>_<md5 of the JSON dumped with indent '  ' and an empty bin_filename>, a repeated
    digest being re-hashed with '1' appended. `fields` are the extra per-tensor fields of newer
    templates (CANN 8.1.RC1: format_match_mode). opc compiles one kernel binary per file; one
    file per binary_variants() entry, in its order."""
    out, seen = [], set()
    for v in binary_variants(op):
        dtypes, formats = dict(v.dtypes), dict(v.formats)

        def tensors(ts):
            items = []
            for idx, t in enumerate(ts):
                para = {"name": t.name, "index": idx, "dtype": dtypes[t.name],
                        "format": formats[t.name], "paramType": t.param_type, "shape": [-2],
                        **(fields or {})}
                items.append([para] if t.param_type == "dynamic" else para)
            return items

        node: dict = {"bin_filename": "", "inputs": tensors(op.inputs),
                      "outputs": tensors(op.outputs)}
        if op.attrs:
            node["attrs"] = [{"name": a.name, "dtype": a.type, "value": PARAM_ATTR_VALUES[a.type]}
                             for a in op.attrs]
        param = {"op_type": op.type, "op_list": [node]}
        text = param_text(param)
        digest = hashlib.md5(text.encode()).hexdigest()
        while digest in seen:
            text += "1"
            digest = hashlib.md5(text.encode()).hexdigest()
        seen.add(digest)
        node["bin_filename"] = f"{op.type}_{digest}"
        out.append((node["bin_filename"], param))
    return out


def param_text(param: dict) -> str:
    """A param JSON's text as ascendc_bin_param_build.py dumps it (its md5 names the binary)."""
    return json.dumps(param, indent="  ")


def ops_info(op: OpSpec) -> dict:
    """aic-<soc>-ops-info.json: op_build's aic-<soc>-ops-info.ini as the project's
    parse_ini_to_json.py converts it (a built project's file has these keys): dtypes in CANN's
    ops-info spelling (float16,float32), attrs with type str/int/listInt... and value=all."""
    variants = op.variants()
    info: dict = {"opFile": {"value": op.kernel_name}, "opInterface": {"value": op.kernel_name},
                  "dynamicShapeSupport": {"flag": "true"}, "dynamicRankSupport": {"flag": "true"},
                  "dynamicCompileStatic": {"flag": "true"}, "dynamicFormat": {"flag": "true"},
                  "needCheckSupport": {"flag": "false"}, "precision_reduce": {"flag": "true"}}
    if op.attrs:
        info["attr"] = {"list": ",".join(a.name for a in op.attrs)}
        for a in op.attrs:
            entry = {"type": OPS_INFO_ATTR_TYPES[a.type], "value": "all",
                     "paramType": "required" if a.required else "optional"}
            if a.default is not None:
                entry["defaultValue"] = _default_text(a.default)
            info[f"attr_{a.name}"] = entry
    for kind, tensors in (("input", op.inputs), ("output", op.outputs)):
        for i, t in enumerate(tensors):
            info[f"{kind}{i}"] = {
                "name": t.name, "paramType": t.param_type, "shape": "all",
                "dtype": ",".join(dict(v.dtypes)[t.name] for v in variants),
                "format": ",".join(dict(v.formats)[t.name] for v in variants),
                "unknownshape_format": ",".join(dict(v.formats)[t.name] for v in variants)}
    return {op.type: info}


def ops_info_text(op: OpSpec) -> str:
    """The ops-info JSON's text as parse_ini_to_json.py dumps it: sorted keys, indent four,
    separators without a space after ':' and no final newline."""
    return json.dumps(ops_info(op), sort_keys=True, indent=4, separators=(",", ":"))


# opc's kernel JSON coreType as the project's ascendc_ops_config.py numbers it
CORE_TYPES = {"MIX": 0, "AiCore": 1, "VectorCore": 2, "MIX_AICORE": 3, "MIX_VECTOR_CORE": 4,
              "MIX_AIV": 4}
# supportInfo.implMode -> the p= field of a simplified key (insert_simplified_keys.py)
PRECISION = {"high_performance": 1, "high_precision": 2}


def simplified_keys(op: OpSpec, variant: Variant, impl_mode: str | None = None) -> list[str]:
    """The variant's simplified keys as the packer writes them:
    `<Op>/d=<dynamic rank 0|1>,p=<precision>/<ge dtype>,<ge format>/...` over inputs then
    outputs; the precision comes from the implMode opc recorded."""
    dtypes, formats = dict(variant.dtypes), dict(variant.formats)
    tensors = "/".join(f"{DTYPES[dtypes[t.name]].ge_value},{FORMATS[formats[t.name]]}"
                       for t in (*op.inputs, *op.outputs))
    p = PRECISION.get(impl_mode or "", 0)
    return [f"{op.type}/d={d},p={p}/{tensors}" for d in (0, 1)]


def kernel_config(op: OpSpec, soc: SocInfo, kernels: dict[str, dict],
                  fields: dict | None = None) -> tuple[dict, dict]:
    """(kernel/config/<soc>/<op>.json, kernel/config/<soc>/binary_info_config.json) as the
    project's cmake/util/ascendc_ops_config.py writes them from opc's kernel JSONs: per binary a
    binList entry with supportInfo's simplifiedKey, staticKey, int64Mode, inputs, outputs and
    attrs (as opc recorded them) and binInfo; per simplified key one binaryList entry with the
    numbered coreType. `kernels` are opc's kernel JSONs by binary name. Where opc wrote no
    simplified keys or tensors (the project's insert_simplified_keys.py fills them in), they
    come from the variant and its param JSON."""
    bins, binary_list = [], []
    for v, (name, param) in zip(binary_variants(op), bin_param(op, fields)):
        rel = f"{soc.short}/{op.kernel_name}/{name}"
        node = param["op_list"][0]
        kernel = kernels[name]
        core = CORE_TYPES.get(kernel.get("coreType"), -1)
        if core == -1 and soc.short != "ascend310b":
            raise BuildError(f"opc's {name}.json names no known coreType "
                             f"({kernel.get('coreType')!r}) for {soc.name}",
                             hint=f"one of {', '.join(CORE_TYPES)}; is opc from this toolkit?")
        info = kernel.get("supportInfo", {})
        keys = info.get("simplifiedKey") or simplified_keys(op, v, info.get("implMode"))
        entry = {"simplifiedKey": keys, "staticKey": info.get("staticKey"),
                 "int64Mode": info.get("int64Mode", False),
                 "inputs": info.get("inputs", node["inputs"]),
                 "outputs": info.get("outputs", node["outputs"])}
        attrs = info.get("attrs", node.get("attrs"))
        if attrs:
            entry["attrs"] = attrs
        entry["binInfo"] = {"jsonFilePath": f"{rel}.json"}
        bins.append(entry)
        binary_list += [{"coreType": core, "simplifiedKey": k, "binPath": f"{rel}.o"}
                        for k in keys]
    return ({"binList": bins},
            {op.type: {"dynamicRankSupport": True, "simplifiedKeyMode": 0,
                       "binaryList": binary_list}})


def config_text(config: dict) -> str:
    """A kernel config file's text as ascendc_ops_config.py dumps it (indent two, key order
    as built)."""
    return json.dumps(config, indent="  ")


def _named_ancestor(path: Path, name: str) -> Path:
    """The nearest directory above `path` called `name`, else `path`'s own directory."""
    for parent in Path(path).parents:
        if parent.name == name:
            return parent
    return Path(path).parent


def source_dirs(pkg) -> dict[str, Path]:
    """The op's op_host/, op_kernel/ and framework/ directories as a project build finds them:
    the package's own, or, for an operator imported from a repository (its sources are
    `@repo//` files), the op's directories in that repository: the kernel's op_kernel/ and the
    tiling sources' op_host/ (ops-nn's cmake/func.cmake compiles an op from its own
    directory there)."""
    dirs = {sub: pkg.dir / sub for sub in ("op_host", "op_kernel", "framework")}
    if pkg.kernel_source is not None and \
            not pkg.kernel_source.is_relative_to(dirs["op_kernel"]):
        dirs["op_kernel"] = _named_ancestor(pkg.kernel_source, "op_kernel")
    outside = [s for s in pkg.tiling_sources if not s.is_relative_to(pkg.dir)]
    if outside and not dirs["op_host"].is_dir():
        dirs["op_host"] = _named_ancestor(outside[0], "op_host")
    return dirs


def overlay_files(pkg, dirs: dict[str, Path]) -> dict[str, dict[str, str]]:
    """What is copied over msopgen's templates, per project directory: relative path ->
    source. The package's own directories whole; from a repository, the op's whole
    op_kernel/ (the repository's kernel build copies it, headers in subdirectories included)
    and only the package's op_host sources (its op_host/ also holds other architectures'
    sources, which the package does not build)."""
    out: dict[str, dict[str, str]] = {}
    for sub, src_dir in dirs.items():
        files: dict[str, str] = {}
        if sub == "op_kernel" and not src_dir.is_relative_to(pkg.dir) and \
                src_dir.name != "op_kernel":
            # a kernel file outside any op_kernel/ directory: that file alone
            files = {pkg.kernel_source.relative_to(src_dir).as_posix(): str(pkg.kernel_source)}
        elif src_dir.is_relative_to(pkg.dir) or sub == "op_kernel":
            if src_dir.is_dir():
                files = {f.relative_to(src_dir).as_posix(): str(f)
                         for f in sorted(p for p in src_dir.rglob("*") if p.is_file())}
        elif sub == "op_host":
            for f in (*pkg.tiling_sources, *([pkg.tiling_data] if pkg.tiling_data else ())):
                if f.is_relative_to(src_dir):
                    files[f.relative_to(src_dir).as_posix()] = str(f)
        if files:
            out[sub] = files
    return out


def unit_tree_files(tbe: Path, vendor: str, unit: dict) -> dict[str, str]:
    """One op's files of one compute unit in a vendor tree (dest -> built file): its kernel
    binaries and opc's kernel JSONs, its kernel config and, as add_kernels_install()
    installs binary/dynamic/, its adapter and kernel sources in <vendor>_impl/dynamic."""
    soc, op = unit["soc"], unit["op"]
    impl = tbe / f"{vendor}_impl" / "dynamic"
    copy = {str(tbe / "kernel" / "config" / soc.short / f"{op.kernel_name}.json"):
            unit["op_config"],
            str(impl / Path(unit["impl_py"]).name): unit["impl_py"]}
    for rel, staged in unit["impl_files"].items():
        copy[str(impl / rel)] = staged
    kdir = tbe / "kernel" / soc.short / op.kernel_name
    for obj, kjson in unit["binaries"]:
        copy[str(kdir / Path(obj).name)] = obj
        copy[str(kdir / Path(kjson).name)] = kjson     # opc's, as the config scripts left it
    return copy


# -- the backend ------------------------------------------------------------------------------


class CannToolchain:
    family = "cann"

    def __init__(self, toolchain_id: str, ws=None, installation=None):
        from opkg.toolchains.discovery import discover
        from opkg.core.releases import release_table
        from opkg.toolchains.resolve import parse_requested

        family, version = parse_requested(toolchain_id)
        if family != "cann" or version is None:
            raise ToolchainError(f"{toolchain_id!r} is not a CANN toolchain id",
                                 hint="CANN toolchains are named cann-<version>, e.g. cann-8.0.RC2")
        inst = installation if installation is not None else discover()
        same = [t for t in inst.toolkits if t.version == version]
        if not same:
            listed = ", ".join(f"{t.version} at {t.root}" for t in inst.toolkits) or "none"
            raise ToolchainError(f"{toolchain_id} is not installed; installed: {listed}",
                                 hint=f"install CANN {version}, point ASCEND_HOME_PATH at it, "
                                      "or choose an installed toolchain (opkg toolchain list)")
        self.id = toolchain_id
        self.ws = ws
        self.toolkit = same[0]
        self.installation = inst
        self.release = (ws.releases if ws is not None else release_table()).info(version)
        self._fingerprint: str | None = None

    def version(self) -> str:
        return str(self.toolkit.version)

    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = self.toolkit.fingerprint()
        return self._fingerprint

    def env_spec(self) -> dict:
        """set_env.sh's environment for this toolkit (opkg.toolchains.cann_env), as data."""
        from opkg.toolchains.cann_env import set_env_spec

        return set_env_spec(self.toolkit.root, host_arch(),
                            [t.root for t in self.installation.toolkits])

    def tool(self, name: str) -> str:
        path = self.toolkit.tool(name)
        if path is None:
            from opkg.toolchains.discovery import TOOL_PATHS

            raise ToolchainError(
                f"{name} not found in CANN {self.toolkit.version} at {self.toolkit.root}",
                hint=f"looked for {', '.join(TOOL_PATHS[name])}; install the toolkit's "
                     "development tools or repair the install")
        return str(path)

    def compiler_version_text(self) -> str:
        """custom_opp_compiler_version for version.info: compiler/version.info's Version, as
        CANN's custom-op build writes it, else the toolkit version."""
        info = self.toolkit.root / "compiler" / "version.info"
        if info.is_file():
            for line in info.read_text(errors="replace").splitlines():
                key, sep, value = line.partition("=")
                if sep and key.strip() == "Version" and value.strip():
                    return value.strip()
        return self.version()

    # -- planning -------------------------------------------------------------------------

    def package_socs(self, pkg, soc: SocInfo) -> list[SocInfo]:
        """The compute units of the package's one .run, as ASCEND_COMPUTE_UNIT of its msopgen
        project: `soc` and one SoC per other short name among the package's SoCs this toolkit
        has a platform ini for, in the order of the package's socs."""
        from opkg.core.socs import get_soc

        units = {soc.short: soc}
        for name in pkg.socs:
            other = self.ws.socs.get_soc(name) if self.ws is not None else get_soc(name)
            if other.short not in units and self.toolkit.platform_version(name):
                units[other.short] = other
        order = {s: i for i, s in enumerate(pkg.socs)}
        return sorted(units.values(), key=lambda s: order.get(s.name, -1))

    def plan_target(self, pkg, soc: SocInfo, deps, out: Path, *, provenance: dict,
                    verify: bool = True, bundle: bool = True, modes: SimModes = SimModes(),
                    select=None):
        # `select` (opkg test -k, --lf) picks verification cases; this backend runs none
        fp = self.fingerprint()
        tid = f"{pkg.label}@{soc.name}@{self.id}"
        base = Path(out) / "cann" / self.id / pkg.name
        actions, mine = self._plan_soc(pkg, soc, deps, out, tid)
        sdir, layout_outputs = mine["sdir"], mine["layout_outputs"]
        op = mine["op"]

        # 5b. the installable package, as the project's CPack/makeself step makes it: one .run
        #     per package holding every compute unit (ASCEND_COMPUTE_UNIT), the project's
        #     scripts/ (vendor_name set) at the top, the trees under packages/vendors/; the
        #     other compute units' steps are planned here too (shared with their own targets)
        parts = []
        for unit in self.package_socs(pkg, soc):
            if unit.short == soc.short:
                parts.append(mine)
            else:
                more, info = self._plan_soc(pkg, unit, deps, out, tid)
                actions.extend(more)
                parts.append(info)
        run_path = base / f"custom_opp_{host_os()}_{host_arch()}.run"
        actions.append(self._run_action(
            run_path, parts[0]["project"], mine["vendor"], [p["tree"] for p in parts],
            {str(p["marker"]) for p in parts} | {o for p in parts for o in p["layout_outputs"]},
            tid, f"{pkg.name} ({', '.join(p['soc'].short for p in parts)})"))
        # the units share the host libraries' steps: keep the first action per output
        seen: set[str] = set()
        actions = [a for a in actions if a.outputs[0] not in seen and not seen.update(a.outputs)]
        return self._finish_target(pkg, soc, deps, out, tid, actions, op, sdir, layout_outputs,
                                   run_path, provenance=provenance, verify=verify,
                                   bundle=bundle, modes=modes)

    def _run_action(self, run_path: Path, project: Path, vendor: str, trees, inputs,
                    tid: str, what: str) -> Action:
        """custom_opp_<os>_<arch>.run as the project's CPack/makeself step makes it: the
        project's scripts/ (vendor_name set) at the top, the vendor trees under
        packages/vendors/<vendor>/."""
        util = project / "cmake" / "util" / "makeself"
        return Action(
            "python", (str(run_path),), tuple(sorted(inputs)),
            function="opkg.toolchains.cann:scons_run",
            params={"scripts": str(project / "scripts"), "vendor": vendor,
                    "trees": [str(t) for t in trees],
                    "stage": str(run_path.parent / "run_stage"), "output": str(run_path),
                    "makeself": str(util / "makeself.sh"),
                    "header": str(util / "makeself-header.sh")},
            signature=self.fingerprint(), target=tid, step="package",
            description=f"{run_path.name} for {what}")

    def plan_package_set(self, members, out: Path, tid: str, vendor: str = DEFAULT_VENDOR):
        """One custom package for several operator packages built together, as one CANN
        project (or ops-nn's `build.sh --pkg --soc=<socs> --ops=<ops>`) makes it:
        vendors/<vendor>/ with every operator and every compute unit, one set of host
        libraries linked from all op_host sources, one ops-info JSON and one
        binary_info_config.json per compute unit listing every operator, one .run.
        `members`: [(package, deps, SoC names built)]. Each package's kernels are its own
        targets' opc steps (the same files); returns (actions, what the plan reports)."""
        from opkg.core.socs import get_soc

        soc_of = self.ws.socs.get_soc if self.ws is not None else get_soc
        base = Path(out) / "cann" / self.id / "_vendors" / vendor
        actions, units = [], {}        # soc short -> [unit info per package]
        for pkg, deps, socs in members:
            for unit_soc in self.package_socs(pkg, soc_of(socs[0])):
                more, info = self._plan_soc(pkg, unit_soc, deps, out, tid)
                actions.extend(more)
                units.setdefault(unit_soc.short, []).append(info)
        host_actions, host_info = self._plan_host(
            [(pkg, deps, pkg.op) for pkg, deps, _ in members], base / "host", tid,
            f"vendor {vendor}")
        actions.extend(host_actions)
        first = next(iter(units.values()))[0]
        tf_parsers = None
        if any(i["tf_sources"] for infos in units.values() for i in infos):
            # one parser library from every op's plugin source (each package's first unit)
            per_pkg = {}
            for infos in units.values():
                for i in infos:
                    per_pkg.setdefault(i["op"].type, i["tf_sources"])
            tf_srcs = list(dict.fromkeys(src for srcs in per_pkg.values() for src in srcs))
            root = self.toolkit.root
            tf_parsers = base / "host" / "libcust_tf_parsers.so"
            actions.append(Action(
                "exec", (str(tf_parsers),), tuple(tf_srcs),
                argv=tuple(host_argv(host_compiler(), TF_PARSER_DEFINES, tf_srcs,
                                     [str(root / "include"),
                                      *(str(source_dirs(p)["op_kernel"]) for p, _, _ in members)],
                                     [str(root / "lib64")], TF_PARSER_LIBS, str(tf_parsers))),
                scan_path=(str(root / "include"),), signature=self.fingerprint(), target=tid,
                step="link", description=f"TensorFlow parser library for vendor {vendor}"))
        tree = base / "opp" / "vendors" / vendor
        tbe = tree / "op_impl" / "ai_core" / "tbe"
        write, copy, link = self._host_tree(tree, vendor, host_info,
                                            [pkg.op.type for pkg, _, _ in members], tf_parsers)
        merge, impl_from = {}, {}
        for short, infos in units.items():
            for info in infos:
                # two packages' kernel directories may hold a header of the same name: one
                # <vendor>_impl/dynamic/ holds one of them
                for rel, src in info["impl_sources"].items():
                    other = impl_from.setdefault(rel, (src, info["op"].type))
                    if other[0] != src and Path(other[0]).read_bytes() != Path(src).read_bytes():
                        raise BuildError(
                            f"{other[1]} and {info['op'].type} both install "
                            f"{vendor}_impl/dynamic/{rel} with different contents ({other[0]}, "
                            f"{src}): one custom package ({vendor}) has one such file",
                            hint="rename one of the headers, or build the packages separately")
                for dest, src in unit_tree_files(tbe, vendor, info).items():
                    copy.setdefault(dest, src)
            ops_info = infos[0]["ops_info"]
            merge[str(tbe / "config" / short / Path(ops_info).name)] = {
                "kind": "ops_info", "sources": [i["ops_info"] for i in infos]}
            merge[str(tbe / "kernel" / "config" / short / "binary_info_config.json")] = {
                "kind": "config", "sources": [i["bin_config"] for i in infos]}
        layout_outputs = tuple(sorted([*write, *copy, *link, *merge]))
        actions.append(Action(
            "python", layout_outputs,
            tuple(sorted({*copy.values(), *(s for m in merge.values() for s in m["sources"])})),
            function="opkg.toolchains.cann:scons_layout",
            params={"write": write, "copy": copy, "link": link, "merge": merge},
            signature=self.fingerprint(), target=tid, step="layout",
            description=f"custom-op package vendor {vendor} "
                        f"({len(members)} operators, {', '.join(units)})"))
        run_path = base / f"custom_opp_{host_os()}_{host_arch()}.run"
        actions.append(self._run_action(
            run_path, first["project"], vendor, [tree],
            {*layout_outputs, *(str(i["marker"]) for infos in units.values() for i in infos)},
            tid, f"vendor {vendor}"))
        return actions, {"vendor": vendor, "run": str(run_path), "toolchain": self.id,
                         "packages": [pkg.label for pkg, _, _ in members],
                         "operators": [pkg.op.type for pkg, _, _ in members],
                         "socs": list(units)}

    def _plan_soc(self, pkg, soc: SocInfo, deps, out: Path, tid: str):
        """Steps 1-5 for one compute unit: (actions, what the package steps need of them)."""
        op = pkg.op.for_soc(soc.short)    # this SoC's dtype variants (op.soc_configs)
        fp = self.fingerprint()
        base = Path(out) / "cann" / self.id / pkg.name
        sdir = base / soc.name
        project = sdir / "project"
        vendor = pkg.name
        actions: list[Action] = []
        env_spec = self.env_spec()

        # 1. msopgen input
        op_json = sdir / f"{op.kernel_name}.json"
        actions.append(Action("write", (str(op_json),),
                              content=msopgen_json_text(op),
                              signature=fp, target=tid, step="generate",
                              description=f"generate {pkg.name} msopgen JSON ({soc.name})"))

        # 2. msopgen project + overlay of the op's sources (the package's own directories,
        #    or an imported operator's in its repository)
        dirs = source_dirs(pkg)
        overlay = {str(project / sub / rel): str(src)
                   for sub, files in overlay_files(pkg, dirs).items()
                   for rel, src in files.items()}
        argv = msopgen_argv(self.tool("msopgen"), str(op_json), soc, str(project),
                            self.release.msopgen_framework)
        marker = project / "CMakePresets.json"
        # msopgen's default (TensorFlow) project has one parser plugin source per op
        plugin_dir = project / "framework" / "tf_plugin"
        plugin = [] if self.release.msopgen_framework else \
            [str(plugin_dir / f"tensorflow_{op.kernel_name}_plugin.cc")]
        generated = sorted({str(marker), *plugin, *overlay})
        actions.append(Action(
            "python", tuple(generated), (str(op_json), *overlay.values()),
            function="opkg.toolchains.cann:scons_project",
            params={"argv": argv, "out_dir": str(project), "overlay": overlay,
                    "marker": str(marker), "expect": plugin,
                    # msopgen (op_gen on PYTHONPATH) finds its project templates through
                    # $ASCEND_HOME_PATH: set_env.sh's environment of this toolkit
                    "env": env_spec},
            signature=fp, target=tid, step="generate",
            # msopgen also writes the template's cmake/util scripts that later steps run; they
            # are not declared (msopgen decides the list), so a restored entry would lack them
            cacheable=False,
            description=f"msopgen {pkg.name} project ({soc.name})"))

        # 4. host libraries (SoC-independent, shared by the package's SoCs)
        if op.type not in registered_ops(pkg.tiling_sources):
            raise ManifestError(
                f"the CANN toolchain needs an OpDef for {op.type}: no OP_ADD({op.type}) in "
                f"{', '.join(s.name for s in pkg.tiling_sources)}",
                location=Location(pkg.manifest_path), field="tiling.sources",
                hint=f"register the prototype in op_host (class {op.type} : public OpDef ... "
                     f"OP_ADD({op.type});), as msopgen's template op_host/{op.kernel_name}.cpp "
                     "does; CANN's op_build generates the proto and aclnn sources from it")
        for_bin_query(pkg.tiling_sources)
        root = self.toolkit.root
        arch = host_arch()
        more, host_info = self._plan_host([(pkg, deps, op)], base / "host", tid, pkg.name)
        actions.extend(more)
        autogen, proto_cc, gen = host_info["autogen"], host_info["proto_cc"], host_info["gen"]
        tiling_lib, proto_lib, opapi_lib = (host_info[k] for k in ("tiling", "proto", "opapi"))
        kernel_inc = str(dirs["op_kernel"])
        cxx = host_compiler()
        lib_dirs = [str(root / "lib64")]

        def host_lib(lib: Path, defines, sources, includes, libs, what: str) -> Action:
            return Action("exec", (str(lib),), tuple(sources),
                          argv=tuple(host_argv(cxx, defines, sources, includes, lib_dirs, libs,
                                               str(lib))),
                          scan_path=tuple(includes[:1]), signature=fp, target=tid, step="link",
                          description=f"{what} for {pkg.name}")

        # the TensorFlow parser library from the project's framework/tf_plugin (msopgen's
        # template plus any of the package's own framework/tf_plugin/*.cc)
        tf_parsers, tf_srcs = None, []
        if plugin:
            tf_srcs = sorted({*plugin, *(d for d in overlay if Path(d).parent == plugin_dir
                                         and d.endswith(".cc"))})
            tf_parsers = sdir / "host" / "libcust_tf_parsers.so"
            actions.append(host_lib(tf_parsers, TF_PARSER_DEFINES, tf_srcs,
                                    [str(root / "include"), kernel_inc], TF_PARSER_LIBS,
                                    f"TensorFlow parser library ({soc.name})"))

        # 3. kernels through opc, one call per binary variant (as the msopgen project's
        #    op_kernel/CMakeLists.txt does): the project's own cmake/util/ascendc_impl_build.py
        #    writes the Python adapter opc loads from op_build's ops-info ini; each variant's
        #    param JSON names its binary; opc generates the tiling header and calls bisheng with
        #    the SoC's core arch and flags.
        kernel_src = project / "op_kernel" / pkg.kernel_source.relative_to(dirs["op_kernel"])
        bindir = sdir / "binary"
        # the impl script writes into <out>/dynamic unless <out> already ends in dynamic
        src_dir = bindir / "dynamic"
        impl_py = src_dir / f"{op.kernel_name}.py"
        # func.cmake's add_kernels_compile(): `cp -rf op_kernel/* binary/dynamic/` without
        # CMakeLists.txt, subdirectories included; the whole directory is what the package
        # installs as <vendor>_impl/dynamic (online compilation reads the headers there)
        kernel_files = {str(src_dir / Path(dest).relative_to(project / "op_kernel")): dest
                        for dest in overlay
                        if Path(dest).is_relative_to(project / "op_kernel")
                        and Path(dest).name != "CMakeLists.txt"}
        actions.append(Action(
            "python", (str(impl_py), *kernel_files), (str(marker), *kernel_files.values(),
                                                       str(proto_cc)),
            function="opkg.toolchains.cann:scons_impl",
            params={"script": str(project / "cmake" / "util" / "ascendc_impl_build.py"),
                    "argv": [sys.executable, str(project / "cmake" / "util" /
                                                 "ascendc_impl_build.py"),
                             str(autogen / f"aic-{soc.short}-ops-info.ini"), "", "",
                             str(project / "op_kernel"), str(src_dir), str(autogen)],
                    "expect": str(impl_py), "copy": kernel_files,
                    "ini": str(autogen / f"aic-{soc.short}-ops-info.ini"), "op": op.type,
                    "soc": soc.short, "env": env_spec},
            signature=fp, target=tid, step="generate",
            description=f"ascendc_impl_build {pkg.name} adapter ({soc.name})"))
        kernel_arch(self.toolkit, soc)    # refuse a SoC the toolkit has no platform ini for
        # opc runs the package's tiling to generate the tiling header: it loads
        # <dir>/op_impl/ai_core/tbe/op_tiling/liboptiling.so from $ASCEND_CUSTOM_OPP_PATH and
        # reads the op's ops-info JSON from <dir>/op_impl/ai_core/tbe/config/<soc>/ there (the
        # template's ascendc_compile_kernel.py stages both, ascendc_put_tiling/put_json)
        tiling_opp = bindir / "tiling_opp"
        ini = autogen / f"aic-{soc.short}-ops-info.ini"
        ops_info_json = bindir / "config" / f"aic-{soc.short}-ops-info.json"
        opc_stage = {str(tiling_opp / TILING_SO_PATH): str(tiling_lib),
                     str(tiling_opp / "op_impl/ai_core/tbe/config" / soc.short /
                         ops_info_json.name): str(ops_info_json)}
        opc_env = {"ASCEND_CUSTOM_OPP_PATH": str(tiling_opp),
                   # gen/*.sh --kernel-src=<project>/op_kernel/<kernel>.cpp
                   "BUILD_KERNEL_SRC": str(kernel_src)}
        self.tool("bisheng")    # opc finds it on set_env.sh's PATH; refuse a toolkit without
        kernels: dict[str, tuple[str, str]] = {}
        variants = binary_variants(op)
        params_ = bin_param(op, self.release.bin_param_fields)
        gen_dir = bindir / "gen"
        script = project / "cmake" / "util" / "ascendc_bin_param_build.py"
        actions.append(Action(
            "python", tuple(str(gen_dir / f"{n}_param.json") for n, _ in params_),
            (str(marker), str(proto_cc)),
            function="opkg.toolchains.cann:scons_params",
            params={"write": {str(gen_dir / f"{n}_param.json"): param_text(p)
                              for n, p in params_},
                    "script": str(script),
                    "argv": [sys.executable, str(script),
                             str(autogen / f"aic-{soc.short}-ops-info.ini"),
                             str(bindir / "gen_project"), soc.short],
                    "release": self.version(), "env": env_spec},
            signature=fp, target=tid, step="generate",
            description=f"param JSONs {pkg.name} ({soc.name})"))
        for v, (name, _) in zip(variants, params_):
            param = gen_dir / f"{name}_param.json"
            out_dir = bindir / "bin" / op.kernel_name
            obj, kjson = out_dir / f"{name}.o", out_dir / f"{name}.json"
            actions.append(Action(
                "python", (str(obj), str(kjson)),
                (str(impl_py), str(param), *kernel_files, *opc_stage.values()),
                function="opkg.toolchains.cann:scons_opc",
                params={"argv": opc_argv(self.tool("opc"), str(impl_py), op.kernel_name,
                                         str(param), opc_soc_version(soc), str(out_dir),
                                         self.release.opc_impl_mode),
                        "env": env_spec, "opc_env": opc_env, "stage": opc_stage,
                        "expect": [str(obj), str(kjson)]},
                scan_path=(str(project / "op_kernel"), str(project / "op_host")),
                signature=fp, target=tid, step="compile",
                description=f"opc {pkg.name} kernel {v.name} ({soc.name})"))
            kernels[v.name] = (str(obj), str(kjson))

        # the kernel configs, as the project's op_kernel build makes them after opc: its
        # insert_simplified_keys.py and ascendc_ops_config.py over the kernel JSONs, here a
        # staged copy of them (the newer script edits them in place; opc's outputs stay as
        # opc wrote them); opkg's kernel_config() where the project has no such script
        cfg_root = bindir / "config" / soc.short
        staged = {kjson: str(cfg_root / op.kernel_name / Path(kjson).name)
                  for _, kjson in kernels.values()}
        cfg_files = {"op_json": str(cfg_root / f"{op.kernel_name}.json"),
                     "bin_json": str(cfg_root / "binary_info_config.json")}
        actions.append(Action(
            "python", tuple(sorted([*cfg_files.values(), *staged.values()])),
            (str(marker), *staged),
            function="opkg.toolchains.cann:scons_kernel_config",
            params={"util": str(project / "cmake" / "util"), "root": str(cfg_root),
                    "soc_short": soc.short, "staged": staged, **cfg_files,
                    "op": op.to_json(), "soc": soc.to_json(),
                    "fields": self.release.bin_param_fields, "env": env_spec},
            signature=fp, target=tid, step="generate",
            description=f"kernel configs {pkg.name} ({soc.name})"))

        # the ops-info JSON: op_build's ini converted by the project's parse_ini_to_json.py
        # (its add_ops_info_target), or by opkg where the project has no such script
        actions.append(Action(
            "python", (str(ops_info_json),), (str(marker), str(proto_cc)),
            function="opkg.toolchains.cann:scons_ops_info",
            params={"script": str(project / "cmake" / "util" / "parse_ini_to_json.py"),
                    "ini": str(ini), "output": str(ops_info_json), "text": ops_info_text(op),
                    "op": op.type, "soc": soc.short, "env": env_spec},
            signature=fp, target=tid, step="generate",
            description=f"ops-info JSON {pkg.name} ({soc.name})"))

        # 5. the custom-op package tree
        tree = sdir / "opp" / "vendors" / vendor
        tbe = tree / "op_impl" / "ai_core" / "tbe"
        unit = {"soc": soc, "op": op, "impl_py": str(impl_py),
                "impl_files": {Path(staged_src).relative_to(src_dir).as_posix(): staged_src
                               for staged_src in kernel_files},
                "binaries": [(kernels[v.name][0], staged[kernels[v.name][1]])
                             for v in variants],
                "op_config": cfg_files["op_json"]}
        write, copy, link = self._host_tree(tree, vendor, host_info, [op.type],
                                            tf_parsers=tf_parsers)
        copy.update(unit_tree_files(tbe, vendor, unit))
        cfg_dir = tbe / "kernel" / "config" / soc.short
        copy[str(tbe / "config" / soc.short / ops_info_json.name)] = str(ops_info_json)
        copy[str(cfg_dir / "binary_info_config.json")] = cfg_files["bin_json"]
        layout_outputs = tuple(sorted([*write, *copy, *link]))
        actions.append(Action(
            "python", layout_outputs, tuple(sorted(set(copy.values()))),
            function="opkg.toolchains.cann:scons_layout",
            params={"write": write, "copy": copy, "link": link},
            signature=fp, target=tid,
            step="layout", description=f"custom-op package {pkg.name} ({soc.name})"))
        return actions, {**unit, "sdir": sdir, "project": project, "marker": marker,
                         "tree": tree, "vendor": vendor, "layout_outputs": layout_outputs,
                         "ops_info": str(ops_info_json), "bin_config": cfg_files["bin_json"],
                         "impl_sources": {rel: overlay[dest] for rel, dest in (
                             (Path(st).relative_to(src_dir).as_posix(), d)
                             for st, d in kernel_files.items())},
                         "tf_sources": tf_srcs}

    def _host_tree(self, tree: Path, vendor: str, host_info: dict, op_types,
                   tf_parsers: Path | None):
        """(write, copy, link) of a vendor tree's SoC-independent files: version.info, the
        host libraries, op_proto.h, the aclnn headers, the TensorFlow parser library and
        npu_supported_ops.json (the default framework project)."""
        arch = host_arch()
        tbe = tree / "op_impl" / "ai_core" / "tbe"
        write = {str(tree / "version.info"):
                 f"custom_opp_compiler_version={self.compiler_version_text()}\n"}
        tiling_lib, proto_lib, opapi_lib = (host_info[k] for k in ("tiling", "proto", "opapi"))
        copy = {
            str(tbe / "op_tiling" / "lib" / "linux" / arch / tiling_lib.name): str(tiling_lib),
            str(tree / "op_proto" / "lib" / "linux" / arch / proto_lib.name): str(proto_lib),
            str(tree / "op_proto" / "inc" / "op_proto.h"): str(host_info["gen"]["op_proto.h"]),
            str(tree / "op_api" / "lib" / opapi_lib.name): str(opapi_lib),
        }
        for _, header in host_info["gen"]["aclnn"].values():
            copy[str(tree / "op_api" / "include" / header.name)] = str(header)
        # op_host/CMakeLists.txt's optiling_compat: a relative link for older runtimes
        link = {str(tbe / "op_tiling" / "liboptiling.so"):
                f"lib/linux/{arch}/{tiling_lib.name}"}
        if tf_parsers is not None:     # the default (TensorFlow) framework project
            write[str(tree / "framework" / "tensorflow" / "npu_supported_ops.json")] = \
                npu_supported_ops_text(op_types)
            copy[str(tree / "framework" / "tensorflow" / tf_parsers.name)] = str(tf_parsers)
        return write, copy, link

    def _plan_host(self, members, host: Path, tid: str, what: str):
        """Step 4 for the operators of one custom package, `members` [(package, deps, op)]:
        libascend_all_ops.so from every op_host source, op_build's proto and aclnn sources
        (and custom_compile_options.ini, one line per op), the tiling, proto and aclnn
        libraries. One package's, or a vendor's over several packages as one project's
        op_host/ holds all its operators."""
        fp = self.fingerprint()
        env_spec = self.env_spec()
        cxx = host_compiler()
        root = self.toolkit.root
        autogen = host / "autogen"
        lib_dirs = [str(root / "lib64")]
        srcs: list[str] = []
        host_inc: list[str] = []
        kernel_incs: list[str] = []
        options = []

        def add(seq: list, items) -> None:     # an ordered union
            seq.extend(i for i in dict.fromkeys(items) if i not in seq)

        for pkg, deps, op in members:
            dirs = source_dirs(pkg)
            # the include directories of the package's deps and its own reach every host
            # library (and, through custom_compile_options.ini, opc), as they reach the sim's
            pkg_inc = [*(str(d) for dep in deps for d in dep.include_dirs),
                       *(str(d) for d in pkg.include_dirs),
                       # a library's private directories, for its host sources built in here
                       *(str(d) for dep in deps if dep.host_sources
                         for d in dep.host_include_dirs)]
            # cmake/intf.cmake's intf_pub (every host library links it) and func.cmake's
            # opbuild(): -I <toolkit>/include -I op_kernel, here the op's own op_kernel/ (the
            # projects' copies of it differ per compute unit by path only)
            kernel_inc = str(dirs["op_kernel"])
            add(host_inc, [str(dirs["op_host"]), *pkg_inc, str(root / "include"), kernel_inc])
            add(kernel_incs, [kernel_inc])
            add(srcs, [*(str(s) for s in pkg.tiling_sources),
                       *(str(s) for dep in deps for s in dep.host_sources)])
            # opc's kernels: -I op_kernel as the sim compiles kernels (a header in a
            # subdirectory may include one at op_kernel's top), then the deps' directories
            # (a library of an external repository may give kernels other directories)
            options.append(compile_options_text(op.type, [
                kernel_inc, *(str(d) for dep in deps for d in dep.kernel_includes),
                *(str(d) for d in pkg.include_dirs)]))

        def host_lib(lib: Path, defines, sources, includes, libs, step: str,
                     argv=None) -> Action:
            return Action("exec", (str(lib),), tuple(sources),
                          argv=tuple(argv or host_argv(cxx, defines, sources, includes, lib_dirs,
                                                       libs, str(lib))),
                          scan_path=tuple(includes[:1]), signature=fp, target=tid, step="link",
                          description=f"{step} for {what}")

        actions = []
        all_ops = autogen / "libascend_all_ops.so"
        actions.append(host_lib(all_ops, (), srcs, host_inc, (),
                                "host op library (op_build input)",
                                argv=all_ops_argv(cxx, srcs, host_inc, lib_dirs, str(all_ops))))
        proto_cc = autogen / "op_proto.cc"
        options_ini = autogen / "custom_compile_options.ini"
        aclnn = {op.type: (autogen / f"aclnn_{op.kernel_name}.cpp",
                           autogen / f"aclnn_{op.kernel_name}.h") for _, _, op in members}
        gen = [proto_cc, autogen / "op_proto.h", *(p for pair in aclnn.values() for p in pair)]
        types = [op.type for _, _, op in members]
        actions.append(Action(
            "python", (*(str(p) for p in gen), str(options_ini)), (str(all_ops),),
            function="opkg.toolchains.cann:scons_opbuild",
            params={"argv": [self.tool("op_build"), str(all_ops), str(autogen)],
                    "expect": [str(p) for p in gen], "op": ", ".join(types),
                    "env": env_spec, "options_ini": str(options_ini),
                    "options": "".join(options)},
            signature=fp, target=tid, step="generate",
            # it also writes an ops-info ini per SoC the OpDefs configure, which the adapter
            # and param steps read: a set the plan cannot declare, so it always runs
            cacheable=False,
            description=f"op_build {what} proto and aclnn sources"))
        tiling_lib = host / "libcust_opmaster_rt2.0.so"
        proto_lib = host / "libcust_opsproto_rt2.0.so"
        opapi_lib = host / "libcust_opapi.so"
        actions.append(host_lib(tiling_lib, ("OP_TILING_LIB",), srcs, host_inc,
                                (*(f"-l{lib}" for lib in self.release.tiling_extra_libs),
                                 *REGISTRY_LIBS), "tiling library"))
        actions.append(host_lib(proto_lib, ("OP_PROTO_LIB",), [*srcs, str(proto_cc)],
                                [*host_inc, str(autogen)], REGISTRY_LIBS, "proto library"))
        actions.append(host_lib(opapi_lib, (), [str(cpp) for cpp, _ in aclnn.values()],
                                [str(autogen), str(root / "include"),
                                 str(root / "include" / "aclnn"), *kernel_incs],
                                OPAPI_LIBS, "aclnn API library"))
        return actions, {"autogen": autogen, "proto_cc": proto_cc,
                         "gen": {"op_proto.h": autogen / "op_proto.h", "aclnn": aclnn},
                         "tiling": tiling_lib, "proto": proto_lib, "opapi": opapi_lib}

    def _finish_target(self, pkg, soc, deps, out, tid, actions, op, sdir, layout_outputs,
                       run_path, *, provenance, verify, bundle, modes):
        """Steps 6 and 7: the sim's verification of the same sources, and the bundle."""
        from opkg.core.bundle import bundle_filename

        fp = self.fingerprint()

        # 6. verification of the same sources with the sim backend
        reports: dict[str, str] = {}
        if verify and pkg.verify is not None:
            from opkg.toolchains import get_toolchain

            sim_target, sim_actions = get_toolchain("sim", self.ws).plan_target(
                pkg, soc, deps, out, provenance=provenance, verify=True, bundle=False,
                modes=modes)
            actions.extend(sim_actions)
            reports = dict(sim_target.reports)

        if not bundle:
            return Target(tid, pkg.label, pkg.name, pkg.version, soc.name, self.id, "",
                          reports), actions
        bundle_path = Path(out) / "bundles" / bundle_filename(pkg.name, pkg.version, soc.name,
                                                              self.id)
        files = {"opkg.yaml": str(pkg.manifest_path)}
        for path in layout_outputs:
            files["opp/" + Path(path).relative_to(sdir / "opp").as_posix()] = path
        files[run_path.name] = str(run_path)
        for vname, rep in reports.items():
            files[f"verification/{vname}.json"] = rep
        from opkg.core.actions import digest_files

        sources = [*pkg.source_files()]
        meta = {
            "name": pkg.name, "version": pkg.version, "summary": pkg.summary, "soc": soc.name,
            "toolchain": {"id": self.id, "version": self.version(), "fingerprint": fp,
                          "root": str(self.toolkit.root)},
            "op": pkg.op.to_json(), "label": pkg.label, "vendor": pkg.name,
            "verification_by": "sim" if reports else None,
            "provenance": {**provenance, "source_digest": digest_files(sources, pkg.dir),
                           "lock_digest": provenance.get("lock_digest")},
        }
        actions.append(Action(
            "python", (str(bundle_path),), tuple(sorted(set(files.values()))),
            function="opkg.core.bundle:scons_action",
            params={"output": str(bundle_path), "metadata": meta, "files": files,
                    "variants": {v.name: dict(v.dtypes) for v in op.variants()}},
            signature=fp, target=tid, step="bundle",
            description=f"bundle {pkg.name} ({soc.name}, {self.id})"))
        return Target(tid, pkg.label, pkg.name, pkg.version, soc.name, self.id,
                      str(bundle_path), reports), actions



# -- steps run inside SCons (opkg.build.scons_glue calls function(params) -> error text | None) ----


def scons_project(params: dict) -> str | None:
    """Run msopgen into a fresh directory (over an existing project it only logs that the
    directory is not empty, leaving stale files), then overlay."""
    out_dir = Path(params["out_dir"])
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    rc, text = _run_tool(params["argv"], env=_tool_env(params))
    if rc != 0:
        return text or f"msopgen exit status {rc}"
    for made in (params["marker"], *params.get("expect", ())):
        if not Path(made).is_file():
            return f"msopgen did not create {Path(made).relative_to(out_dir)} in {out_dir}:\n{text}"
    for dest, src in params["overlay"].items():
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    return None


def scons_opbuild(params: dict) -> str | None:
    """Run CANN's op_build on the host op library; it must generate the proto and aclnn sources."""
    from opkg.util.fsutil import atomic_write_text

    Path(params["argv"][2]).mkdir(parents=True, exist_ok=True)
    rc, text = _run_tool(params["argv"], env=_tool_env(params))
    if rc != 0:
        return text or f"op_build exit status {rc}"
    # cmake/config.cmake starts custom_compile_options.ini empty; add_ops_compile_options()
    # (ascendc_gen_options.py) appends "<OpType>,<socs>,<opt;opt>" lines, which the project's
    # ascendc_impl_build.py writes into the adapter opc loads
    atomic_write_text(Path(params["options_ini"]), params["options"])
    missing = [Path(p).name for p in params["expect"] if not Path(p).is_file()]
    if missing:
        return (f"op_build did not generate {', '.join(missing)}: is {params['op']} registered "
                f"with OP_ADD({params['op']}) in op_host?\n{text}")
    return None


def _tool_env(params: dict, **kw) -> dict:
    """The step's environment: set_env.sh's for the toolkit (params["env"], a
    cann_env.set_env_spec) over the caller's."""
    from opkg.toolchains.cann_env import compose

    return compose(params["env"], **kw)


def _run_tool(argv, env=None, cwd=None) -> tuple[int, str]:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    except OSError as exc:
        return 127, f"cannot run {argv[0]}: {exc.strerror}"
    return proc.returncode, (proc.stderr + proc.stdout).strip()


def scons_impl(params: dict) -> str | None:
    """The project's ascendc_impl_build.py writes the Python adapter opc loads; the kernel
    sources are copied beside it (op_kernel/CMakeLists.txt's `cp -r <impl dir>/*.* src`)."""
    if not Path(params["script"]).is_file():
        return (f"the msopgen project has no {params['script']}: msopgen's templates are "
                "incomplete (is $ASCEND_HOME_PATH the toolkit msopgen belongs to?)")
    # op_build writes one ops-info ini per SoC the OpDefs configure; without it the script
    # fails with a traceback
    if not Path(params["ini"]).is_file():
        return _no_ini(params)
    rc, text = _run_tool(params["argv"], env=_tool_env(params))
    if rc != 0:
        return text or f"ascendc_impl_build.py exit status {rc}"
    if not Path(params["expect"]).is_file():
        return f"ascendc_impl_build.py did not write {params['expect']}:\n{text}"
    for dest, src in params["copy"].items():
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    return None


def _no_ini(params: dict) -> str:
    return (f"op_build wrote no {Path(params['ini']).name}: the OpDef of {params['op']} "
            f"has no AI core config for {params['soc']}\nhint: add "
            f"this->AICore().AddConfig(\"{params['soc']}\") to the OpDef in op_host, or "
            f"build for a SoC it configures")


def scons_ops_info(params: dict) -> str | None:
    """aic-<soc>-ops-info.json: the project's parse_ini_to_json.py converts op_build's ini
    (`parse_ini_to_json.py <ini> <json>`); without the script, opkg's text of the same file."""
    from opkg.util.fsutil import atomic_write_text

    out = Path(params["output"])
    out.parent.mkdir(parents=True, exist_ok=True)
    if not Path(params["script"]).is_file():
        atomic_write_text(out, params["text"])
        return None
    if not Path(params["ini"]).is_file():
        return _no_ini(params)
    out.unlink(missing_ok=True)
    rc, text = _run_tool([sys.executable, params["script"], params["ini"], str(out)],
                         env=_tool_env(params))
    if rc != 0 or not out.is_file():
        return text or f"parse_ini_to_json.py exit status {rc}"
    return None


def scons_params(params: dict) -> str | None:
    """Write the planned param JSONs; when the msopgen project has its own
    ascendc_bin_param_build.py, run it too and require the same binary names (the names are
    planned ahead so every opc call is its own cached step)."""
    from opkg.util.fsutil import atomic_write_text

    for dest, text in params["write"].items():
        atomic_write_text(Path(dest), text)    # json.dump's text, no final newline
    if not Path(params["script"]).is_file():
        return None
    out = Path(params["argv"][3])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rc, text = _run_tool(params["argv"], env=_tool_env(params))
    if rc != 0:
        return text or f"ascendc_bin_param_build.py exit status {rc}"
    theirs = sorted(p.name for p in out.glob("*_param.json"))
    ours = sorted(Path(p).name for p in params["write"])
    if theirs != ours:
        return (f"the project's ascendc_bin_param_build.py names the kernel binaries "
                f"{', '.join(theirs) or 'nothing'}; opkg planned {', '.join(ours)}.\n"
                f"hint: the param JSON format of CANN {params['release']}'s template differs: "
                "set bin_param_fields (the extra per-tensor fields in its param JSONs) for this "
                "release in toolchains/cann_releases.yaml")
    return None


def scons_opc(params: dict) -> str | None:
    """One opc call as the project's gen/<Op>-<kernel>-<i>.sh makes it, in the environment
    set_env.sh and ascendc_compile_kernel.py give it (cann_env): the toolkit's PATH (bisheng),
    PYTHONPATH (tbe, the op compiler) and LD_LIBRARY_PATH, opc's log to stdout, and
    ASCEND_CUSTOM_OPP_PATH at a staged opp holding the package's tiling library and ops-info
    JSON; BUILD_KERNEL_SRC names the kernel in the project's op_kernel/ (--kernel-src), so
    headers beside it and in its subdirectories are found. It must write the .o and .json."""
    from opkg.toolchains.cann_env import OPC_DEFAULTS, OPC_SET

    env = _tool_env(params, extra={**OPC_SET, **params["opc_env"]}, defaults=OPC_DEFAULTS)
    Path(params["expect"][0]).parent.mkdir(parents=True, exist_ok=True)
    for link, target in params["stage"].items():
        _symlink(Path(link), target)
    rc, text = _run_tool(params["argv"], env)
    if rc != 0:
        return text or f"opc exit status {rc}"
    missing = [Path(p).name for p in params["expect"] if not Path(p).is_file()]
    if missing:
        return f"opc did not generate {', '.join(missing)}:\n{text}"
    return None


def scons_kernel_config(params: dict) -> str | None:
    """Stage opc's kernel JSONs under <root>/<op>/ and write <root>/<op>.json and
    <root>/binary_info_config.json: with the project's insert_simplified_keys.py and
    ascendc_ops_config.py (`-p <root> -s <soc short>`, as its op_kernel build runs them) when
    it has them, else with kernel_config()."""
    from opkg.util.fsutil import atomic_write_text

    root, util = Path(params["root"]), Path(params["util"])
    if root.exists():
        shutil.rmtree(root)
    for src, dest in params["staged"].items():
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    script = util / "ascendc_ops_config.py"
    if script.is_file():
        keys = util / "insert_simplified_keys.py"
        for argv in ([sys.executable, str(keys), "-p", str(root)] if keys.is_file() else None,
                     [sys.executable, str(script), "-p", str(root), "-s", params["soc_short"]]):
            if argv is None:
                continue
            rc, text = _run_tool(argv, cwd=str(util), env=_tool_env(params))
            if rc != 0:
                return text or f"{Path(argv[1]).name} exit status {rc}"
        missing = [Path(p).name for p in (params["op_json"], params["bin_json"])
                   if not Path(p).is_file()]
        if missing:
            return f"{script} did not write {', '.join(missing)} in {root}:\n{text}"
        return None
    kernels = {Path(path).stem: json.loads(Path(path).read_text())
               for path in params["staged"].values()}
    try:
        op_cfg, bin_cfg = kernel_config(OpSpec.from_json(params["op"]),
                                        SocInfo.from_json(params["soc"]), kernels,
                                        params["fields"])
    except BuildError as exc:
        return f"{exc}\nhint: {exc.hint}"
    atomic_write_text(Path(params["op_json"]), config_text(op_cfg))
    atomic_write_text(Path(params["bin_json"]), config_text(bin_cfg))
    return None


def scons_layout(params: dict) -> str | None:
    from opkg.util.fsutil import atomic_write_bytes, atomic_write_text

    write = dict(params["write"])
    for dest, text in write.items():
        atomic_write_text(Path(dest), text)
    for dest, src in params["copy"].items():
        atomic_write_bytes(Path(dest), Path(src).read_bytes(),
                           0o755 if os.access(src, os.X_OK) else 0o644)
    for dest, target in params.get("link", {}).items():
        _symlink(Path(dest), target)
    # a vendor's ops-info JSON and binary_info_config.json list every operator: each
    # package's file, merged by op type (the texts as parse_ini_to_json.py and
    # ascendc_ops_config.py write theirs)
    for dest, spec in params.get("merge", {}).items():
        merged: dict = {}
        for src in spec["sources"]:
            merged.update(json.loads(Path(src).read_text()))
        atomic_write_text(Path(dest), json.dumps(merged, sort_keys=True, indent=4,
                                                 separators=(",", ":"))
                          if spec["kind"] == "ops_info" else config_text(merged))
    return None


def _symlink(dest: Path, target: str) -> None:
    """Point `dest` at `target` atomically (opc steps of one SoC may stage the same link at
    once, each from its own thread)."""
    import threading

    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f"{dest.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    os.replace(tmp, dest)


def scons_run(params: dict) -> str | None:
    """custom_opp_<os>_<arch>.run: stage the project's scripts/ (vendor_name=customize replaced,
    as the project's CMakeLists.txt does) and packages/vendors/<vendor>/ (every compute unit's
    tree: kernel/<soc>/, config/<soc>/ side by side; the files they share, host libraries and
    the like, built from the same sources, from the first), then makeself with the project's
    makeself.cmake arguments. The project's own cmake/util/makeself is used when it has one,
    else `makeself` from PATH (Debian and PyPI package it)."""
    stage, scripts = Path(params["stage"]), Path(params["scripts"])
    if not (scripts / "install.sh").is_file():
        return f"the msopgen project has no {scripts / 'install.sh'} to package"
    if stage.exists():
        shutil.rmtree(stage)
    dest = stage / "packages" / "vendors" / params["vendor"]
    for tree in params["trees"]:
        for src in sorted(Path(tree).rglob("*")):
            target = dest / src.relative_to(tree)
            if src.is_dir() and not src.is_symlink() or target.exists() or target.is_symlink():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                target.symlink_to(os.readlink(src))
            else:
                shutil.copy2(src, target)
    for src in sorted(scripts.iterdir()):
        if src.is_file():
            text = src.read_text().replace("vendor_name=customize",
                                           f"vendor_name={params['vendor']}")
            (stage / src.name).write_text(text)
            (stage / src.name).chmod(0o540)    # OWNER_EXECUTE OWNER_READ GROUP_READ
    if Path(params["makeself"]).is_file():
        argv = ["bash", params["makeself"], "--header", params["header"]]
    elif shutil.which("makeself"):
        argv = [shutil.which("makeself")]
    else:
        return ("makeself not found: the project has no cmake/util/makeself/makeself.sh and "
                "there is no makeself on PATH (apt install makeself, or pip install makeself)")
    help_header = ["--help-header", "./help.info"] if (stage / "help.info").is_file() else []
    out = Path(params["output"])
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    rc, text = _run_tool([*argv, *help_header, "--gzip", "--complevel", "4", "--nomd5",
                          "--sha256", "./", str(tmp), "version:1.0", "./install.sh"], cwd=stage)
    if rc != 0 or not tmp.is_file():
        return text or f"makeself exit status {rc}"
    os.replace(tmp, out)
    return None
