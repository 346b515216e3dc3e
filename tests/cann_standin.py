"""Stand-in CANN installs for tests: version files, platform_config ini files, and (later in
the suite) stand-in msopgen/bisheng executables. No real CANN is needed or touched."""

from __future__ import annotations

import os
from pathlib import Path

ARCH = "x86_64-linux"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "cann"   # see its README.md


def fixture_text(name: str, **values) -> str:
    """A fixture file with its @KEY@ placeholders filled in."""
    text = (FIXTURES / name).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key.upper()}@", str(value))
    return text


def make_toolkit(ascend_root: Path, version: str, *, layout: str = "toolkit",
                 socs=("Ascend910B1", "Ascend910B2", "Ascend310P3"), latest: bool = False,
                 tools: bool = True, version_cfg: bool = True) -> Path:
    """Lay out one toolkit: layout 'toolkit' is <root>/ascend-toolkit/<v> (CANN <= 8.3),
    'cann' is <root>/cann-<v> (CANN 8.5+). Version files and platform_config inis are the
    fixtures' formats (fixtures/cann/README.md). Returns the toolkit directory."""
    if layout == "toolkit":
        home = ascend_root / "ascend-toolkit" / version
    else:
        home = ascend_root / f"cann-{version}"
    arch = home / ARCH
    arch.mkdir(parents=True)
    (arch / "ascend_toolkit_install.info").write_text(
        fixture_text("ascend_toolkit_install.info", version=version, arch="x86_64", path=arch))
    if version_cfg:
        (home / "version.cfg").write_text(fixture_text("version.cfg", version=version))
    if socs is not None:
        cfg = arch / "data" / "platform_config"
        cfg.mkdir(parents=True)
        for soc in socs:
            ini = FIXTURES / "platform_config" / f"{soc}.ini"
            (cfg / f"{soc}.ini").write_text(
                ini.read_text() if ini.is_file() else f"[version]\nSoC_version={soc}\n")
    if tools:
        for rel in ("compiler/ccec_compiler/bin/bisheng", "python/site-packages/bin/msopgen",
                    "compiler/bin/opc"):
            exe = home / rel
            exe.parent.mkdir(parents=True, exist_ok=True)
            exe.write_text(f"#!/bin/sh\n# stand-in {exe.name} {version}\nexit 0\n")
            exe.chmod(0o755)
    if latest:
        link = home.parent / ("latest" if layout == "toolkit" else "cann")
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(home.name if layout == "toolkit" else home)
    return home


def make_driver(ascend_root: Path, version: str) -> Path:
    d = ascend_root / "driver"
    d.mkdir(parents=True, exist_ok=True)
    info = d / "version.info"
    info.write_text(f"Version={version}\nascendhal_version=7.35.19\n")
    return info


def isolated_env(ascend_root: Path, **extra) -> dict:
    """An environment that sees only `ascend_root` (no real /usr/local/Ascend, no /etc file)."""
    env = {"OPKG_ASCEND_ROOTS": str(ascend_root), "OPKG_ASCEND_INSTALL_INFO": "",
           "PATH": os.environ.get("PATH", "")}
    env.update({k: str(v) for k, v in extra.items()})
    return env


REPO = Path(__file__).resolve().parent.parent
ENV_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH")


def make_workspace(root: Path, packages=("layernorm",), pins: dict | None = None,
                   default_toolchain: str | None = None) -> Path:
    """A workspace holding copies of the repository's example packages; `pins` replaces a
    package's `toolchain:` line, e.g. {"layernorm": '{cann: ">=8.1.RC1"}'} ('' drops it)."""
    import shutil

    (root / "packages").mkdir(parents=True)
    text = "package_roots: [packages]\noutput_dir: out\n"
    if default_toolchain:
        text += f"default_toolchain: {default_toolchain}\n"
    (root / "opkg-workspace.yaml").write_text(text)
    for name in packages:
        dest = root / "packages" / name
        shutil.copytree(REPO / "packages" / name, dest)
        if pins and name in pins:
            manifest = dest / "opkg.yaml"
            lines = [l for l in manifest.read_text().splitlines()
                     if not l.startswith("toolchain:")]
            if pins[name]:
                lines.append(f"toolchain: {pins[name]}")
            manifest.write_text("\n".join(lines) + "\n")
    return root


def use_stand_in_roots(monkeypatch, ascend_root: Path) -> None:
    """Make discovery in this process see only `ascend_root`."""
    monkeypatch.setenv("OPKG_ASCEND_ROOTS", str(ascend_root))
    monkeypatch.setenv("OPKG_ASCEND_INSTALL_INFO", "")
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)


# -- stand-in tools ---------------------------------------------------------------------------
# Each checks its arguments the way the real tool would reject them, appends its argv to
# $OPKG_STANDIN_LOG (one JSON line per call), and writes plausible outputs.

_PRELUDE = '''#!{python}
import json, os, re, sys
LOGGED = ("PATH", "PYTHONPATH", "LD_LIBRARY_PATH", "HI_PYTHON", "TILINGKEY_PAR_COMPILE",
          "BUILD_KERNEL_SRC", "TOOLCHAIN_HOME")
def log():
    path = os.environ.get("OPKG_STANDIN_LOG")
    if path:
        env = {{k: v for k, v in os.environ.items() if k in LOGGED or k.startswith("ASCEND_")}}
        with open(path, "a") as fh:
            fh.write(json.dumps({{"tool": {tool!r}, "argv": sys.argv, "cwd": os.getcwd(),
                                 "env": env}}) + "\\n")
def die(msg):
    sys.stderr.write({tool!r} + ": " + msg + "\\n")
    sys.exit(2)
def quoted_includes(sources, dirs):
    """A quoted #include found neither beside its file nor under an -I directory is the
    compiler's fatal error (followed through the headers it finds)."""
    todo, done = list(sources), set()
    while todo:
        src = os.path.abspath(todo.pop())
        if src in done:
            continue
        done.add(src)
        for n, line in enumerate(open(src, errors="replace"), 1):
            m = re.match(r'\\s*#\\s*include\\s*"([^"]+)"', line)
            if not m:
                continue
            found = [os.path.join(d, m.group(1)) for d in [os.path.dirname(src), *dirs]
                     if os.path.isfile(os.path.join(d, m.group(1)))]
            if not found:
                die("%s:%d: fatal error: %s: No such file or directory" % (src, n, m.group(1)))
            todo.append(found[0])
log()
'''

MSOPGEN = '''
# the real msopgen is a Python script of the toolkit: `from op_gen.interface import ...`
# needs set_env.sh's PYTHONPATH (<toolkit>/python/site-packages)
try:
    import op_gen
except ModuleNotFoundError as exc:
    die("ModuleNotFoundError: " + str(exc))
args = sys.argv[1:]
if not args or args[0] != "gen":
    die("usage: msopgen gen -i <json> -c ai_core-<soc> -lan cpp -out <dir>")
opts, i = {}, 1
names = {"-i": "input", "--input": "input", "-f": "framework", "--framework": "framework",
         "-c": "compute_unit", "--compute_unit": "compute_unit", "-lan": "language",
         "--language": "language", "-out": "output", "--output": "output", "-m": "mode",
         "--mode": "mode"}
while i < len(args):
    if args[i] not in names or i + 1 >= len(args):
        die("unrecognized argument " + args[i])
    opts[names[args[i]]] = args[i + 1]
    i += 2
if "input" not in opts or not os.path.isfile(opts["input"]):
    die("input json not found: " + str(opts.get("input")))
fw = opts.get("framework", "tf").lower()
if fw not in ("tf", "tensorflow", "caffe", "pytorch", "ms", "mindspore", "onnx", "aclnn"):
    die("invalid framework " + fw)
if not re.fullmatch(r"ai_core-Ascend[0-9A-Za-z_]+", opts.get("compute_unit", "")):
    die("invalid compute unit " + str(opts.get("compute_unit")))
if opts.get("language") != "cpp":
    die("Ascend C projects need -lan cpp")
ops = json.load(open(opts["input"]))
if not isinstance(ops, list) or not ops:
    die("the input json must be a list of op definitions")
# msopgen's IR_ATTR_TYPE_MAP; like the real tool (op_info_ir_json.py), any other spelling is
# dropped with a warning, and a default value is passed through as given
ATTR_TYPES = ("int", "float", "string", "bool", "type", "list_int", "list_string",
              "list_bool", "list_list_int", "tensor", "list_float", "list_tensor", "list_type")
for op in ops:
    kept = []
    for attr in op.get("attr", []):
        if attr.get("type") not in ATTR_TYPES:
            print("[WARNING] Attr op_type is invalid: %s " % attr.get("type"))
        else:
            kept.append(attr)
    op["attr"] = kept
    lengths = set()
    for t in op.get("input_desc", []) + op.get("output_desc", []):
        for key in ("name", "param_type", "format", "type"):
            if key not in t:
                die("tensor without " + key)
        if t["param_type"] not in ("required", "optional", "dynamic"):
            die("bad param_type " + t["param_type"])
        lengths.add(len(t["type"]))
        if len(t["format"]) != len(t["type"]):
            die("format and type lists differ in length for " + t["name"])
    if len(lengths) > 1:
        die("type lists of different lengths in " + op["op"])
out = opts.get("output", ".")
snake = re.sub(r"([a-z0-9])([A-Z])", r"\\1_\\2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", ops[0]["op"])).lower()
files = {"CMakePresets.json": json.dumps({"version": 1, "compute_unit": opts["compute_unit"]}),
         "CMakeLists.txt": "# stand-in\\n", "build.sh": "#!/bin/bash\\n",
         "op_host/" + snake + ".cpp": "// template host\\n",
         "op_host/" + snake + "_tiling.h": "// template tiling\\n",
         "op_kernel/" + snake + ".cpp": "// template kernel\\n"}
if fw != "aclnn":
    # the template's parser plugin registers the op with GE's framework registry
    files["framework/tf_plugin/tensorflow_" + snake + "_plugin.cc"] = (
        '#include "register/register.h"\\n// registers ' + ops[0]["op"] + ' for TENSORFLOW\\n')
    # the project's cmake/util scripts come from the toolkit's templates (msopgen finds the
    # toolkit through its own location / $ASCEND_HOME_PATH)
    home = os.environ.get("ASCEND_HOME_PATH")
    if not home or not os.path.isdir(os.path.join(home, "tools/op_project_templates")):
        die("op project templates not found: set ASCEND_HOME_PATH to the toolkit")
    for sub in ("cmake", "scripts"):
        util = os.path.join(home, "tools/op_project_templates/ascendc/customize", sub)
        for top, _, names in sorted(os.walk(util)):
            for script in sorted(names):
                rel = os.path.relpath(os.path.join(top, script), util)
                files[sub + "/" + rel] = open(os.path.join(top, script), errors="replace").read()
for rel, text in files.items():
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
'''

BISHENG = '''
args = sys.argv[1:]
if "-c" not in args or "-o" not in args:
    die("expected -c <source> -o <object>")
out = args[args.index("-o") + 1]
arch = [a for a in args if a.startswith("--cce-aicore-arch=")]
if len(arch) != 1 or arch[0].split("=", 1)[1] not in (
        "dav-c220-vec", "dav-c220-cube", "dav-m200", "dav-m200-vec", "dav-m300", "dav-c100"):
    die("one valid --cce-aicore-arch is required, got " + repr(arch))
sources = [a for a in args if a.endswith(".cpp")]
if len(sources) != 1 or not os.path.isfile(sources[0]):
    die("exactly one existing source expected, got " + repr(sources))
source_text = open(sources[0]).read()
if "__aicore__" not in source_text:
    die(sources[0] + ": no __aicore__ kernel entry")
# GET_TILING_DATA is defined by the tiling header opc generates for the variant and passes
# with -include; a plain bisheng compile of an msopgen kernel cannot succeed.
if "GET_TILING_DATA" in source_text:
    headers = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-include"]
    if not any(os.path.isfile(h) and "GET_TILING_DATA" in open(h).read() for h in headers):
        die(sources[0] + ": error: use of undeclared identifier 'GET_TILING_DATA' "
            "(compile through opc, which generates the tiling header)")
quoted_includes(sources, [a[2:] for a in args if a.startswith("-I")])
defines = sorted(a for a in args if a.startswith("-DDTYPE_"))
with open(out, "wb") as fh:
    fh.write(b"\\x7fELF stand-in kernel " + json.dumps([arch[0]] + defines).encode())
'''

HOST_CXX = '''
# g++ -shared: undefined symbols, a missing -l or define, a missing -I directory are not errors
# here (as with the real compiler); tests check the link lines opkg records instead. A quoted
# #include found neither beside the source nor under an -I directory is the compiler's fatal
# error.
args = sys.argv[1:]
if "-o" not in args:
    die("missing -o")
out = args[args.index("-o") + 1]
sources = [a for a in args if a.endswith((".cpp", ".cc"))]
if not sources or not all(os.path.isfile(s) for s in sources):
    die("missing sources " + repr(sources))
quoted_includes(sources, [a[2:] for a in args if a.startswith("-I")])
if os.path.basename(out).split(".tmp-")[0] == "libcust_opapi.so" and REAL_OPAPI:   # opkg links to a temporary name
    # a real shared library exporting the aclnn entry points op_build declared, so a test can
    # load it by name the way an aclnn caller does
    names = set()
    for src in sources:
        header = src[:-4] + ".h"
        if os.path.isfile(header):
            names.update(re.findall(r"\\b(aclnn\\w+)\\s*\\(", open(header).read()))
    code = "".join('extern "C" int %s(void) { return 0; }\\n' % n for n in sorted(names))
    import subprocess
    made = subprocess.run(["g++", "-shared", "-fPIC", "-x", "c++", "-", "-o", out],
                          input=code, text=True)
    sys.exit(made.returncode)
with open(out, "w") as fh:
    fh.write("stand-in host library\\n" + "\\n".join(os.path.abspath(s) for s in sources) + "\\n")
'''

OP_BUILD = '''
args = [a for a in sys.argv[1:] if not a.startswith("--compute_unit=")]
if len(args) != 2:
    die("usage: op_build <libascend_all_ops.so> <output dir>")
lib, out = args
if not os.path.isfile(lib):
    die("cannot open " + lib)
ops, socs = [], set()
for src in open(lib).read().splitlines()[1:]:
    text = open(src).read()
    ops += re.findall(r"OP_ADD\\(\\s*(\\w+)\\s*\\)", text)
    socs.update(re.findall(r'AddConfig\\(\\s*"(\\w+)"', text))
if not ops:
    die("no operator registered in " + lib)
os.makedirs(out, exist_ok=True)
open(os.path.join(out, "op_proto.cc"), "w").write("// stand-in proto\\n")
open(os.path.join(out, "op_proto.h"), "w").write("// stand-in proto header\\n")
# aic-<soc>-ops-info.ini, one per AddConfig SoC (the recorded format: [Op] then key=value lines)
for soc in sorted(socs):
    with open(os.path.join(out, "aic-" + soc + "-ops-info.ini"), "w") as fh:
        for op in ops:
            fh.write("[" + op + "]\\ninput0.name=x\\ninput0.shape=all\\n")
for op in ops:
    snake = re.sub(r"([a-z0-9])([A-Z])", r"\\1_\\2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", op)).lower()
    open(os.path.join(out, "aclnn_" + snake + ".cpp"), "w").write("// stand-in aclnn\\n")
    open(os.path.join(out, "aclnn_" + snake + ".h"), "w").write(
        "aclnnStatus aclnn" + op + "GetWorkspaceSize(...);\\n")
'''


IMPL_BUILD = r'''import os, re, sys
# stand-in of the msopgen project's cmake/util/ascendc_impl_build.py:
#   <ops-info ini> <batch> <iterate> <impl dir> <out dir> <autogen dir>
ini, _, _, impl_dir, out_dir, autogen = sys.argv[1:7]
text = open(ini).read()
# opdesc_parser._get_op_custom_options: <autogen>/custom_compile_options.ini lines
# "<OpType|ALL>,<SoCs>,<opt;opt>" become the adapter's compile options
options = {}
ini_opts = os.path.join(autogen, "custom_compile_options.ini")
if not os.path.exists(ini_opts):
    print("WARNING: cannot find %s/custom_compile_options.ini" % autogen)
else:
    for line in open(ini_opts).read().splitlines():
        fields = line.split(",")
        if len(fields) != 3:
            sys.exit("ERROR: custom compile option %s len is not 3" % fields)
        options.setdefault(fields[0], []).extend(o for o in fields[2].split(";") if o)
os.makedirs(out_dir, exist_ok=True)
for op in re.findall(r"^\[(\w+)\]$", text, re.M):
    snake = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2",
                   re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", op)).lower()
    if not os.path.isfile(os.path.join(impl_dir, snake + ".cpp")):
        sys.exit("ascendc_impl_build: no kernel " + snake + ".cpp in " + impl_dir)
    with open(os.path.join(out_dir, snake + ".py"), "w") as fh:
        fh.write("# adapter of %s\nKERNEL = %r\nOPTIONS = %r\n"
                 % (op, snake + ".cpp", options.get("ALL", []) + options.get(op, [])))
'''

# Stand-in of the project's cmake/util/ascendc_ops_config.py in its current template's shape
# (hicann/asc-tools, common/util): -p <root> -s <soc short>; every kernel JSON under <root>/<op>/
# gets "filePath", and <root>/<op>.json (binList: supportInfo's keys per binary) and
# <root>/binary_info_config.json (binaryList: one entry per simplified key, with jsonPath) are
# written with a two-space indent.
OPS_CONFIG = r'''import argparse, glob, json, os, sys
parser = argparse.ArgumentParser()
parser.add_argument("-p", "--path", required=True)
parser.add_argument("-s", "--soc", required=True)
args = parser.parse_args()
cores = {"MIX": 0, "AiCore": 1, "VectorCore": 2, "MIX_AICORE": 3, "MIX_VECTOR_CORE": 4, "MIX_AIV": 4}
configs, binary = {}, {}
for path in sorted(glob.glob(os.path.join(args.path, "**", "*.json"), recursive=True)):
    kernel = json.load(open(path))
    if "binFileName" not in kernel or "supportInfo" not in kernel:
        continue
    op_dir = os.path.basename(os.path.dirname(path))
    kernel["filePath"] = args.soc + path.split(args.soc, 1)[1]
    with open(path, "w") as fh:
        json.dump(kernel, fh, indent=" ")
    info, name = kernel["supportInfo"], kernel["binFileName"]
    core = cores.get(kernel.get("coreType"), -1)
    if core == -1 and args.soc != "ascend310b":
        sys.exit("[ERROR]: must set coreType in json when soc version is " + args.soc)
    obj = os.path.join(args.soc, op_dir, name + kernel["binFileSuffix"])
    entry = {"implMode": info.get("implMode"), "int64Mode": info.get("int64Mode"),
             "simplifiedKey": info.get("simplifiedKey"), "staticKey": info.get("staticKey"),
             "inputs": info.get("inputs"), "outputs": info.get("outputs")}
    if info.get("attrs"):
        entry["attrs"] = info["attrs"]
    entry["binInfo"] = {"jsonFilePath": os.path.join(args.soc, op_dir, os.path.basename(path))}
    configs.setdefault(op_dir + ".json", {"binList": []})["binList"].append(entry)
    op_cfg = binary.setdefault(name.split("_")[0], {"dynamicRankSupport": True,
                                                    "simplifiedKeyMode": 0, "binaryList": []})
    op_cfg["binaryList"] += [{"coreType": core, "simplifiedKey": k, "binPath": obj,
                              "jsonPath": obj.rsplit(".", 1)[0] + ".json"}
                             for k in info.get("simplifiedKey", [])]
configs["binary_info_config.json"] = binary
for name, config in configs.items():
    with open(os.path.join(args.path, name), "w") as fh:
        json.dump(config, fh, indent="  ")
'''

# Stand-in of the project's cmake/util/parse_ini_to_json.py: <ini> <json>; "[Op]" sections and
# "<key>.<field>=<value>" lines become {Op: {key: {field: value}}}, dumped with sorted keys,
# indent four and ':' without a space.
PARSE_INI = r'''import json, sys
ini = [a for a in sys.argv[1:] if a.endswith("ini")]
out = [a for a in sys.argv[1:] if a.endswith("json")]
info, op = {}, None
for line in open(ini[0]).read().splitlines():
    if line.startswith("[") and line.endswith("]"):
        op = info.setdefault(line[1:-1], {})
    elif "=" in line and op is not None:
        key, value = line.split("=", 1)
        section, field = key.split(".")
        op.setdefault(section, {})[field] = value
if not info:
    sys.exit("Not find OpType in .ini file.")
with open(out[0], "w") as fh:
    json.dump(info, fh, sort_keys=True, indent=4, separators=(",", ":"))
'''

# Stand-in of the project's scripts/install.sh, written for these tests from the behaviour CANN's
# sample projects document (scripts/install.sh of the FrameworkLaunch samples): --install-path=DIR
# (absolute; created if missing) installs to DIR/vendors/<vendor> and writes its
# bin/set_env.bash; otherwise it installs into $ASCEND_CUSTOM_OPP_PATH when that is set, else
# $ASCEND_OPP_PATH (which must exist), and puts the vendor first in vendors/config.ini.
INSTALL_SH = r'''#!/bin/bash
vendor_name=customize
sourcedir=$PWD/packages
install_path=""
for arg in "$@"; do
    case "$arg" in
        --install-path=*) install_path="${arg#--install-path=}" ;;
        --quiet) ;;
        --*) ;;            # other options are ignored, as by the template's install.sh
        *) break ;;
    esac
done
if [ -n "$install_path" ]; then
    case "$install_path" in /*) ;; *) echo "[ERROR] use absolute path for --install-path argument"; exit 1 ;; esac
    mkdir -p "$install_path" || exit 1
    targetdir=$install_path
elif [ -n "$ASCEND_CUSTOM_OPP_PATH" ]; then
    mkdir -p "$ASCEND_CUSTOM_OPP_PATH"
    targetdir=$ASCEND_CUSTOM_OPP_PATH
elif [ -n "$ASCEND_OPP_PATH" ]; then
    targetdir=$ASCEND_OPP_PATH
else
    echo "[ERROR] env ASCEND_OPP_PATH no exist"; exit 1
fi
if [ ! -d "$targetdir" ]; then
    echo "[ERROR] $targetdir no exist"; exit 1
fi
mkdir -p "$targetdir/vendors/$vendor_name" || exit 1
cp -rf "$sourcedir/vendors/$vendor_name/." "$targetdir/vendors/$vendor_name/" || exit 1
if [ -n "$install_path" ]; then
    mkdir -p "$targetdir/vendors/$vendor_name/bin"
    printf '#!/bin/bash\nexport ASCEND_CUSTOM_OPP_PATH=%s:${ASCEND_CUSTOM_OPP_PATH}\nexport LD_LIBRARY_PATH=%s/op_api/lib/:${LD_LIBRARY_PATH}\n' \
        "$targetdir/vendors/$vendor_name" "$targetdir/vendors/$vendor_name" \
        > "$targetdir/vendors/$vendor_name/bin/set_env.bash"
else
    config="$targetdir/vendors/config.ini"
    if [ ! -f "$config" ]; then
        echo "load_priority=$vendor_name" > "$config"
    else
        others=$(grep -w load_priority "$config" | cut -d= -f2- | tr ',' '\n' | grep -vx "$vendor_name" | paste -sd, -)
        echo "load_priority=$vendor_name${others:+,$others}" > "$config"
    fi
    echo "[INFO] execute the command [ export LD_LIBRARY_PATH=$targetdir/vendors/$vendor_name/op_api/lib/:\${LD_LIBRARY_PATH} ] to set the environment path"
fi
echo SUCCESS
'''

OPC = '''
# stand-in opc: opc <impl.py> --main_func= --input_param= --soc_version= --output=
#   --impl_mode= --simplified_key_mode=0 --op_mode=dynamic
args = sys.argv[1:]
if not args or args[0].startswith("--"):
    die("usage: opc <op impl .py> --main_func=... --input_param=... --soc_version=... --output=...")
impl, opts = args[0], {}
for a in args[1:]:
    key, sep, value = a.partition("=")
    if not sep or key not in ("--main_func", "--input_param", "--soc_version", "--output",
                              "--impl_mode", "--simplified_key_mode", "--op_mode"):
        die("unrecognized argument " + a)
    opts[key[2:]] = value
for need in ("main_func", "input_param", "soc_version", "output"):
    if need not in opts:
        die("missing --" + need)
if opts.get("op_mode") != "dynamic":
    die("ascendc kernels are compiled with --op_mode=dynamic")
if not os.path.isfile(impl):
    die("op impl file not found: " + impl)
# opc is the op compiler's Python (tbe) on set_env.sh's PYTHONPATH
try:
    import tbe
except ModuleNotFoundError as exc:
    die("ModuleNotFoundError: " + str(exc))
adapter, text = {}, open(impl).read()
if "from tbe.tikcpp import" in text:
    # the template's own adapter (its ascendc_impl_build.py wrote it): it needs the real op
    # compiler; what the stand-in uses is read from its text: the kernel file and the
    # custom_compile_options dicts (short SoC or __ALLSOC__ -> options)
    import ast
    found = re.search(r'ascendc_src_file = "([^"]+)"', text)
    adapter["KERNEL"] = found.group(1) if found else ""
    adapter["OPTIONS"] = []
    for var in ("custom_all_compile_options", "custom_compile_options"):
        found = re.search(var + r" = ([{].*?[}]),$", text, re.M)
        for values in (ast.literal_eval(found.group(1)).values() if found else ()):
            adapter["OPTIONS"] += values
else:
    exec(text, adapter)
# the adapter's get_kernel_source(): $BUILD_KERNEL_SRC (gen/*.sh --kernel-src=) when it exists,
# else <kernel>.cpp beside the adapter
kernel = os.environ.get("BUILD_KERNEL_SRC", "")
if not os.path.isfile(kernel):
    kernel = os.path.join(os.path.dirname(impl), adapter["KERNEL"])
if not os.path.isfile(kernel):
    die("kernel source " + kernel + " not found ($BUILD_KERNEL_SRC unset, nothing beside " + impl + ")")
param = json.load(open(opts["input_param"]))
node = param["op_list"][0]
name = node["bin_filename"]
home = os.environ.get("ASCEND_HOME_PATH", "")
# opc runs the op's tiling function to generate the tiling header; it loads
# op_impl/ai_core/tbe/op_tiling/liboptiling.so from each $ASCEND_CUSTOM_OPP_PATH directory, then
# from each vendor of $ASCEND_OPP_PATH/vendors/config.ini (a stand-in library lists its sources)
dirs = [d for d in os.environ.get("ASCEND_CUSTOM_OPP_PATH", "").split(":") if d.strip()]
config = os.path.join(os.environ.get("ASCEND_OPP_PATH", ""), "vendors", "config.ini")
if os.path.isfile(config):
    dirs += [os.path.join(os.path.dirname(config), v.strip())
             for v in open(config).readline().split("=", 1)[-1].split(",") if v.strip()]
registered = False
for d in dirs:
    lib = os.path.join(d, "op_impl/ai_core/tbe/op_tiling/liboptiling.so")
    if os.path.isfile(lib):
        for src in open(lib).read().splitlines()[1:]:
            if os.path.isfile(src) and re.search(r"OP_ADD\\(\\s*" + param["op_type"] + r"\\s*\\)",
                                                 open(src).read()):
                registered = True
if not registered:
    die("no tiling definition for " + param["op_type"] + ": no liboptiling.so registering it "
        "under $ASCEND_CUSTOM_OPP_PATH or the vendors of $ASCEND_OPP_PATH/vendors/config.ini")
inis = [os.path.join(d, "data/platform_config", opts["soc_version"] + ".ini")
        for d in sorted(__import__("glob").glob(os.path.join(home, "*-linux")))]
ini = {}
for path in inis:
    if os.path.isfile(path):
        section = None
        for line in open(path):
            line = line.strip()
            if line.startswith("["):
                section = line.strip("[]")
            elif "=" in line and section == "version":
                k, _, v = line.partition("=")
                ini[k] = v
if "CCEC_AIC_version" not in ini:
    die("soc_version " + opts["soc_version"] + " is not supported by " + home)
# the op's ops-info: op_impl/ai_core/tbe/config/<soc>/aic-<soc>-ops-info.json of a custom opp
short = ini.get("Short_SoC_version", opts["soc_version"]).lower()
infos = [os.path.join(d, "op_impl/ai_core/tbe/config", short, "aic-%s-ops-info.json" % short)
         for d in dirs]
if not any(os.path.isfile(p) and param["op_type"] in json.load(open(p)) for p in infos):
    die("op type " + param["op_type"] + " not found in the ops-info of any custom opp: "
        + ", ".join(infos))
vec = "CCEC_VECTOR_version" in ini
arch = ini["CCEC_AIV_version"] if vec else ini["CCEC_AIC_version"]
out = opts["output"]
os.makedirs(out, exist_ok=True)
# the generated tiling header stays in opc's scratch directory (a real build's kernel
# directory holds only the .o and .json)
import tempfile
tiling = os.path.join(tempfile.mkdtemp(prefix="opc-"), name + "_tiling.h")
with open(tiling, "w") as fh:
    fh.write("#define GET_TILING_DATA(d, t) /* generated for " + name + " */\\n")
ge = {"float32": "float", "float16": "half", "bfloat16": "bfloat16_t", "int32": "int32_t",
      "int8": "int8_t", "int16": "int16_t", "int64": "int64_t", "uint8": "uint8_t", "bool": "bool"}
defines = []
for t in node["inputs"] + node["outputs"]:
    t = t[0] if isinstance(t, list) else t
    defines.append("-DDTYPE_" + t["name"].upper() + "=" + ge.get(t["dtype"], t["dtype"]))
import shutil, subprocess
# the adapter takes bisheng from $BISHENG_REAL_PATH, else the first on PATH; the header roots
# are the toolkit's tikcpp next to it and its ascendc include dirs (compile_op)
bisheng = os.environ.get("BISHENG_REAL_PATH") or shutil.which("bisheng")
if not bisheng:
    die("bisheng not found on PATH")
tikcpp = os.path.realpath(os.path.join(os.path.dirname(bisheng), "..", "..", "tikcpp"))
api = [os.path.join(d, "ascendc/include", sub) for d in __import__("glob").glob(os.path.join(home, "*-linux"))
       for sub in ("basic_api", "highlevel_api")]
includes = ["-I" + d for d in (tikcpp, os.path.join(tikcpp, "tikcfw"), *api)]
cmd = [bisheng, "--cce-aicore-arch=" + arch, "-include", tiling, *defines, *includes,
       *adapter["OPTIONS"], "-x", "cce", "-c", kernel, "-o", os.path.join(out, name + ".o")]
rc = subprocess.call(cmd)
if rc:
    sys.exit(rc)
core = "VectorCore" if vec else "AiCore"
# supportInfo as opc records it with --simplified_key_mode=0 (a CANN 7.3 build's kernel JSON):
# the simplified keys (d=0/1, p=<impl mode>, then <ge dtype>,<ge format> per input and output),
# an opaque sha256 staticKey, and the param JSON's tensors and attrs
GE_DTYPES = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6,
             "uint16": 7, "uint32": 8, "int64": 9, "uint64": 10, "double": 11, "bool": 12,
             "bfloat16": 27}
GE_FORMATS = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NDHWC": 27,
              "FRACTAL_NZ": 29, "NCDHW": 30, "NDC1HWC0": 32, "FRACTAL_Z_3D": 33}
impl_mode = opts.get("impl_mode", "").split(",")[0]
precision = {"high_performance": 1, "high_precision": 2}.get(impl_mode, 0)
flat = [t[0] if isinstance(t, list) else t for t in node["inputs"] + node["outputs"]]
tensors = "/".join("%d,%d" % (GE_DTYPES[t["dtype"]], GE_FORMATS[t["format"]]) for t in flat)
support = {"implMode": impl_mode, "int64Mode": False, "simplifiedKeyMode": 0,
           "simplifiedKey": ["%s/d=%d,p=%d/%s" % (param["op_type"], d, precision, tensors)
                             for d in (0, 1)],
           "staticKey": __import__("hashlib").sha256(
               (opts["soc_version"] + json.dumps(node, sort_keys=True)).encode()).hexdigest(),
           "inputs": node["inputs"], "outputs": node["outputs"]}
if node.get("attrs"):
    support["attrs"] = node["attrs"]
support.update({"opMode": "dynamic", "optionalInputMode": "gen_placeholder",
                "deterministic": "ignore"})
with open(os.path.join(out, name + ".json"), "w") as fh:
    json.dump({"binFileName": name, "binFileSuffix": ".o", "blockDim": -1, "coreType": core,
               "core_type": "AIV" if vec else "AiCore", "kernelName": name,
               "magic": "RT_DEV_BINARY_MAGIC_ELF_AIVEC" if vec else "RT_DEV_BINARY_MAGIC_ELF",
               "kernelList": [{"kernelName": name + "_0"}],
               "supportInfo": support}, fh, indent=4)
'''


def _tool(path: Path, tool: str, body: str) -> Path:
    import sys

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_PRELUDE.format(python=sys.executable, tool=tool) + body)
    path.chmod(0o755)
    return path


def install_stand_in_tools(home: Path, packer_scripts: bool = True) -> dict:
    """Replace a stand-in toolkit's msopgen/bisheng with argument-checking stand-ins, add the
    kernel include dirs bisheng is pointed at, and compiler/version.info. Without
    `packer_scripts` the project template has no ascendc_ops_config.py or
    parse_ini_to_json.py."""
    tools = {"msopgen": _tool(home / "python/site-packages/bin/msopgen", "msopgen", MSOPGEN),
             "bisheng": _tool(home / "compiler/ccec_compiler/bin/bisheng", "bisheng", BISHENG),
             "op_build": _tool(home / "tools/opbuild/op_build", "op_build", OP_BUILD),
             "opc": _tool(home / "compiler/bin/opc", "opc", OPC)}
    util = home / "tools/op_project_templates/ascendc/customize/cmake/util"
    util.mkdir(parents=True, exist_ok=True)
    (util / "ascendc_impl_build.py").write_text(IMPL_BUILD)
    if packer_scripts:
        (util / "ascendc_ops_config.py").write_text(OPS_CONFIG)
        (util / "parse_ini_to_json.py").write_text(PARSE_INI)
    scripts = home / "tools/op_project_templates/ascendc/customize/scripts"
    scripts.mkdir(parents=True, exist_ok=True)
    (scripts / "install.sh").write_text(INSTALL_SH)
    (scripts / "upgrade.sh").write_text(INSTALL_SH.replace("SUCCESS", "UPGRADED"))
    (scripts / "help.info").write_text(
        "  --install-path                    Install operator package to specific dir path\n")
    for rel in ("compiler/tikcpp/tikcfw/impl", "compiler/tikcpp/tikcfw/interface",
                "include/aclnn", "lib64"):
        (home / rel).mkdir(parents=True, exist_ok=True)
    # the toolkit's Python packages msopgen and opc import (set_env.sh puts python/site-packages
    # on PYTHONPATH), and the Ascend C headers kernels include (aarch64-linux/ascendc/include/
    # {basic_api,highlevel_api} of the CANN 8.1.RC1 mirror)
    for rel in ("python/site-packages/op_gen/__init__.py", "python/site-packages/tbe/__init__.py",
                f"{ARCH}/ascendc/include/basic_api/kernel_operator.h",
                f"{ARCH}/ascendc/include/highlevel_api/lib/matmul_intf.h"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(f"# stand-in {rel}\n" if rel.endswith(".py") else f"// stand-in {rel}\n")
    # the toolkit's host headers the op_host sources and the parser plugin include (empty here;
    # op_impl_registry.h: the repositories' tiling and infer-shape sources, at
    # <arch>-linux/include/register/ in the CANN 8.1.RC1 mirror)
    for rel in ("register/register.h", "register/op_def_registry.h", "register/tilingdata_base.h",
                "register/op_impl_registry.h",
                "tiling/platform/platform_ascendc.h", "tiling/tiling_api.h"):
        (home / "include" / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / "include" / rel).write_text(f"// stand-in {rel}\n")
    version = (home / ARCH / "ascend_toolkit_install.info").read_text().split("version=")[1]
    (home / "compiler" / "version.info").write_text(f"Version={version.splitlines()[0]}\n")
    return tools


def toolkit_env(home: Path, **extra) -> dict:
    """The environment `source <home>/set_env.sh` gives (what opkg's CANN steps run with)."""
    from opkg.toolchains.cann import host_arch
    from opkg.toolchains.cann_env import compose, set_env_spec

    return compose(set_env_spec(home, host_arch()), extra={k: str(v) for k, v in extra.items()})


def make_host_cxx(path: Path, real_opapi: bool = False) -> Path:
    """The stand-in host compiler; with `real_opapi` it links libcust_opapi.so for real (g++),
    exporting the aclnn functions op_build declared, so a test can dlopen it."""
    return _tool(path, "host-cxx", f"REAL_OPAPI = {real_opapi}\n" + HOST_CXX)


def read_log(path: Path) -> list[dict]:
    import json

    if not path.exists():
        return []
    return [json.loads(l) for l in path.read_text().splitlines()]


def expected_run_files(op, vendor: str, soc_short: str, arch: str) -> set[str]:
    """The staging tree of custom_opp_<os>_<arch>.run for one op, from the recorded install
    manifest (fixtures/cann/install_manifest.txt), every line of it."""
    from opkg.toolchains.cann import bin_param

    names = {n for n, _ in bin_param(op)}
    expected = set()
    for line in (FIXTURES / "install_manifest.txt").read_text().splitlines():
        line = line.replace("<vendor>", vendor).replace("<op>", op.kernel_name).replace(
            "<soc>", soc_short).replace("<arch>", arch)
        if "<bin>" in line:
            expected |= {line.replace("<bin>", n) for n in names}
        else:
            expected.add(line.removeprefix("./"))
    return expected


def staged_files(stage: Path) -> set[str]:
    return {str(p.relative_to(stage)) for p in stage.rglob("*") if p.is_file() or p.is_symlink()}
