"""Read an operator's prototype (the OpDef in op_host/*.cpp) without compiling it.

cann-ops declares the prototype in C++: `this->Input("x").ParamType(DYNAMIC).DataType({...})`,
`this->Attr("reduction").AttrType(OPTIONAL).String("mean")`, and the foreach family through
macros of src/common/inc/foreach/foreach_proto_utils.h (FOREACH_OPDEF(..., UNARY, Abs, dtypes)).
This scanner recovers names, param types, dtypes per variant and attr defaults with regular
expressions: enough to check the case modules against the real names; opkg import does the real
parsing for builds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DT = {  # ge::DT_* -> manifest dtype name
    "FLOAT": "float32", "FLOAT16": "float16", "BF16": "bfloat16", "DOUBLE": "float64",
    "INT8": "int8", "INT16": "int16", "INT32": "int32", "INT64": "int64",
    "UINT8": "uint8", "UINT16": "uint16", "UINT32": "uint32", "UINT64": "uint64",
    "BOOL": "bool", "COMPLEX64": "complex64", "COMPLEX128": "complex128",
}
# foreach_proto_utils.h: tensor dtype -> dtype of a Scalar() input / of a scalar-tensor input
SCALAR_OF = {"float16": "float32", "float32": "float32", "bfloat16": "float32", "int32": "int64"}
SCALAR_TENSOR_OF = {"float16": "float16", "float32": "float32", "bfloat16": "float32", "int32": "int32"}


@dataclass
class Param:
    name: str
    kind: str = "required"          # required | optional | dynamic
    dtypes: list[str] = field(default_factory=list)   # one per variant; [] when not literal


@dataclass
class AttrDecl:
    name: str
    type: str | None = None         # int float str bool list_int list_float list_bool
    required: bool = True           # CANN's OpAttrDef default is REQUIRED
    default: object = None


@dataclass
class OpDef:
    op_type: str
    inputs: list[Param]
    outputs: list[Param]
    attrs: list[AttrDecl]

    def names(self, what: str) -> list[str]:
        return [p.name for p in getattr(self, what)]


_CHAIN = re.compile(r'this->(Input|Output|Attr)\(\s*"([^"]+)"\s*\)(.*?);', re.S)
_CLASS = re.compile(r'class\s+(\w+)\s*:\s*public\s+OpDef')
_DTYPES = re.compile(r'\.DataType\(\s*\{([^}]*)\}')
_ATTR_VAL = re.compile(r'\.(Int|Float|String|Bool|ListInt|ListFloat|ListBool)\(([^()]*)\)')
_ATTR_TYPES = {"Int": "int", "Float": "float", "String": "str", "Bool": "bool",
               "ListInt": "list_int", "ListFloat": "list_float", "ListBool": "list_bool"}


def _dtypes(text: str) -> list[str]:
    return [DT.get(t, t.lower()) for t in re.findall(r'DT_(\w+)', text)]


def _attr(name: str, chain: str) -> AttrDecl:
    a = AttrDecl(name)
    m = re.search(r'AttrType\(\s*(REQUIRED|OPTIONAL)\s*\)', chain)
    v = _ATTR_VAL.search(chain)
    if v:
        a.type = _ATTR_TYPES[v.group(1)]
        raw = v.group(2).strip()
        if raw:
            a.default = raw
    a.required = not (m and m.group(1) == "OPTIONAL")
    return a


def _foreach_macros(header: Path) -> dict[str, list[tuple[str, str, str]]]:
    """FOREACH_<TYPE>_PARAM -> [(param macro kind, Input|Output, name)] from the common header."""
    text = header.read_text(errors="replace").replace("\\\n", " ")
    out = {}
    for m in re.finditer(r'#define\s+FOREACH_(\w+)_PARAM\(\.\.\.\)(.*)', text):
        out[m.group(1)] = re.findall(r'FOREACH_OPDEF_PARAM_(\w+)\(\s*(Input|Output)\s*,\s*(\w+)\s*\)',
                                     m.group(2))
    return out


def _foreach_param(kind: str, io: str, name: str, tensor_dtypes: list[str],
                   scalar_dtypes: list[str] | None) -> Param:
    if kind == "TENSORLIST":
        return Param(name, "dynamic", list(tensor_dtypes))
    if kind == "TENSOR":
        return Param(name, "required", list(tensor_dtypes))
    if kind in ("SCALAR", "SCALARLIST"):
        return Param(name, "required", scalar_dtypes or [SCALAR_OF.get(d, d) for d in tensor_dtypes])
    if kind == "SCALAR_TENSOR":
        return Param(name, "required",
                     scalar_dtypes or [SCALAR_TENSOR_OF.get(d, d) for d in tensor_dtypes])
    raise ValueError(f"unknown foreach param macro {kind}")


def _scan_foreach(text: str, header: Path) -> OpDef | None:
    macros = _foreach_macros(header) if header.exists() else {}
    explicit = None
    m = re.search(r'FOREACH_OPDEF\(\s*\w+\s*,\s*(\w+)\s*,\s*(\w+)\s*,([^)]*)\)', text)
    if m:
        op, dts, triples = "Foreach" + m.group(2), _dtypes(m.group(3)), macros[m.group(1)]
    else:
        b = re.search(r'FOREACH_OPDEF_BEGIN\(\s*(\w+)\s*\)', text)
        if not b:
            return None
        op = "Foreach" + b.group(1)
        prep = re.search(r'FOREACH_TENSOR_DTYPE_AND_FORMAT_PREPARE\(([^)]*)\)', text)
        dts = _dtypes(prep.group(1)) if prep else []
        triples = re.findall(r'FOREACH_OPDEF_PARAM_(\w+)\(\s*(Input|Output)\s*,\s*(\w+)\s*\)', text)
        # an op that spells its scalar dtype list out (LerpScalar, RoundOffNumber)
        e = re.search(r'std::vector<ge::DataType>\s+scalar\w*_dtype_list\s*(?:\{([^}]*)\}|\(([^)]*)\))',
                      text)
        if e:
            explicit = _dtypes(e.group(1)) if e.group(1) else _dtypes(e.group(2)) * len(dts)
    ins, outs = [], []
    for kind, io, name in triples:
        (ins if io == "Input" else outs).append(_foreach_param(kind, io, name, dts, explicit))
    return OpDef(op, ins, outs, [])


def scan(project: Path, corpus_root: Path | None = None) -> OpDef | None:
    """The OpDef of one operator project (src/<family>/<op>), or None when none is found."""
    files = sorted((project / "op_host").glob("*.cpp")) if (project / "op_host").is_dir() else []
    for f in files:
        text = f.read_text(errors="replace")
        text = re.sub(r'//[^\n]*', '', text)
        if "FOREACH_OPDEF" in text:
            root = corpus_root or project.resolve().parents[2]
            return _scan_foreach(text, root / "src/common/inc/foreach/foreach_proto_utils.h")
        c = _CLASS.search(text)
        if not c:
            continue
        body = text[c.end():]
        ins, outs, attrs = [], [], []
        for m in _CHAIN.finditer(body):
            what, name, chain = m.groups()
            if what == "Attr":
                attrs.append(_attr(name, chain))
                continue
            pt = re.search(r'ParamType\(\s*(\w+)\s*\)', chain)
            kind = {"DYNAMIC": "dynamic", "OPTIONAL": "optional"}.get(pt.group(1) if pt else "", "required")
            d = _DTYPES.search(chain)
            (ins if what == "Input" else outs).append(Param(name, kind, _dtypes(d.group(1)) if d else []))
        op = c.group(1)
        return OpDef(op, ins, outs, attrs)
    return None


if __name__ == "__main__":
    import sys
    for p in sys.argv[1:]:
        print(p, scan(Path(p)))
