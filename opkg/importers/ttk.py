"""Verification cases from an ops repository's own tests, for `opkg import`.

hicann/ops-nn keeps per operator `tests/**/ttk_kernel_*.csv` tables: one row per case with
`testcase_name, op_name, input_shapes | input_ori_shapes, input_dtypes, output_dtypes,
attributes, input_data_ranges, precision_tolerances, soc_series, ...`, the tuples and dicts
written as Python literals. A row applies to a SoC when its `soc_series` is empty or names the
SoC's series (`('Ascend950',)`); tables under an `arch35/` directory are Ascend 950's, and give
the cases of another SoC that has no table of its own (210 of ops-nn's 217 tables are arch35's).
A dynamic input's shapes are a tuple of shapes, one per tensor. Where an operator has no table
at all, `examples/test_aclnn_<op>.cpp` gives one case: its `std::vector<int64_t> <name>Shape =
{...}` for each input of that name.

Pure data in, manifest case mappings out; manifest.py checks them like any other case.
"""

from __future__ import annotations

import ast
import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

MAX_CASES = 8        # a handful of distinct cases is enough to verify; more only costs time
# elements of one case's inputs beyond which a row is not taken: fuzz tables hold tensors of
# tens of millions of elements, minutes each on the sim, and smaller rows verify the same code
MAX_ELEMENTS = 1 << 21


@dataclass
class Cases:
    cases: list[dict] = field(default_factory=list)    # manifest case mappings
    tolerance: dict = field(default_factory=dict)      # dtype -> {rtol, atol}, the tightest asked
    source: str | None = None                          # where they came from, for the manifest
    # inputs the rows' output_inplace_indexes name (an operator without outputs rewrites them),
    # in the OpDef's order; empty when no row says
    inplace: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)   # why rows were not used


def _literal(text):
    if text is None or not str(text).strip():
        return None
    try:
        return ast.literal_eval(str(text).strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _series_match(soc_series, short_series: str) -> bool:
    value = _literal(soc_series)
    if not value:
        return True
    names = [value] if isinstance(value, str) else list(value)
    return any(str(n).lower() == short_series.lower() for n in names)


def table_files(op_dir: Path, arch: str | None) -> list[Path]:
    """The operator's ttk tables that can apply to a SoC of tiling directory `arch` (a table
    under another arch directory is that architecture's)."""
    out = []
    for p in sorted((op_dir / "tests").rglob("ttk_kernel_*.csv")):
        dirs = {d for d in p.relative_to(op_dir).parts[:-1] if re.fullmatch(r"arch\d+", d)}
        if not dirs or arch in dirs:
            out.append(p)
    return out


def _dims(s) -> list[int] | None:
    if isinstance(s, (list, tuple)) and all(isinstance(d, int) and not isinstance(d, bool)
                                            and d >= 0 for d in s):
        return list(s)
    return None


def _shapes(value, count: int, dynamic=()):
    """A row's per-input shapes: a list of `count` lists of ints (None for an absent optional
    input; for the positions in `dynamic`, a non-empty list of them: the tensors of a dynamic
    input), or None when the row's value is not that."""
    if not isinstance(value, (list, tuple)) or len(value) != count:
        return None
    out = []
    for k, s in enumerate(value):
        if s is None:
            out.append(None)
        elif k in dynamic:
            shapes = [_dims(t) for t in s] if isinstance(s, (list, tuple)) and s else [None]
            if None in shapes:
                return None
            out.append(shapes)
        elif (dims := _dims(s)) is not None:
            out.append(dims)
        else:
            return None
    return out


def _elements(shapes) -> int:
    """Elements of a case's tensors (a dynamic input's summed)."""
    total = 0
    for s in shapes:
        for dims in (s if s and isinstance(s[0], list) else [s] if s is not None else []):
            n = 1
            for d in dims:
                n *= d
            total += n
    return total


def _range(r):
    """A row's data range for one input: (lo, hi), or for a dynamic input the span of its
    tensors' ranges; None when it names no range opkg draws from (lo <= hi; one value, as
    ops-nn's gather_elements index `(0, 0)`, is a range)."""
    if not isinstance(r, (list, tuple)):
        return None
    if len(r) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in r):
        return [r[0], r[1]] if r[0] <= r[1] else None
    spans = [_range(x) for x in r]
    if not spans or None in spans:
        return None
    return [min(lo for lo, _ in spans), max(hi for _, hi in spans)]


def _per_tensor_ranges(r, shapes, dynamic: bool) -> list | None:
    """A dynamic input's ranges one per tensor, when the row gives as many as the case has
    tensors, each a range opkg draws from (ops-nn's foreach_lerp_scalar rows give x1's 45
    tensors ranges from (-0.001, 0) to (-1000, -100)): drawing every tensor from their span
    would give the small ones values a thousand times larger than the row tests. None
    otherwise (the span is taken)."""
    if not dynamic or not isinstance(r, (list, tuple)) or len(r) != len(shapes) or len(r) < 2:
        return None
    if not all(isinstance(x, (list, tuple)) and len(x) == 2 for x in r):
        return None
    each = [_range(x) for x in r]
    return None if None in each else each


def _attr_value(kind: str, value):
    if kind.startswith("list_"):
        if not isinstance(value, (list, tuple)):
            return None
        items = [_attr_value(kind[5:], v) for v in value]
        return None if any(i is None for i in items) else items
    if kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "str" and isinstance(value, str):
        return value
    return None


def other_tables(op_dir: Path, arch: str | None) -> list[Path]:
    """The operator's ttk tables of other architectures (`tests/st/arch35/` is Ascend 950's)."""
    mine = set(table_files(op_dir, arch))
    return [p for p in sorted((op_dir / "tests").rglob("ttk_kernel_*.csv")) if p not in mine]


def ttk_cases(op_dir: Path, op: dict, short_series: str, arch: str | None,
              has_infer_shape: bool = True) -> Cases:
    """Cases from the operator's ttk tables that apply to `short_series` (e.g. Ascend910B):
    the distinct (shapes, attrs, ranges) of the rows, with the tightest precision tolerances
    the rows ask per output dtype. `op` is the manifest `op:` mapping; an operator without
    InferShape also takes each row's output shapes (the case must say them).

    Without a row for the SoC, another architecture's table gives the cases: how an operator's
    shapes, attributes and value ranges relate (a scalar input of one element, as many index
    rows as updates) is the operator's, not the architecture's. Its tolerances are not taken
    (they are that architecture's precision): opkg's defaults apply, and the source says so.
    Each such case may be refused (`if_supported`): the repository's test tool runs a table on
    its own architecture only, so a row this SoC's tiling refuses is outside its contract."""
    result = _cases(table_files(op_dir, arch), op_dir, op, short_series, has_infer_shape)
    if result.cases:
        return result
    other = _cases(other_tables(op_dir, arch), op_dir, op, None, has_infer_shape,
                   documented_only_values(op_dir, op))
    if other.cases:
        other.tolerance = {}
        # the repository's test tool runs such a row only on its own architecture: where this
        # SoC's tiling refuses it, it is outside the operator's contract here, not a failure
        for case in other.cases:
            case["if_supported"] = f"a row of {other.source}, another architecture's table"
        other.source += " (another architecture's table: its shapes, attrs and ranges)"
        other.skipped = result.skipped + other.skipped
        return other
    result.skipped += other.skipped
    return result


def _cases(files: list[Path], op_dir: Path, op: dict, short_series: str | None,
           has_infer_shape: bool, only_values: dict | None = None) -> Cases:
    """The cases of `files`' rows (of `short_series` unless None: any); a row giving an attr
    another value than `only_values` allows ({attr: (value, where)}) is not taken."""
    result = Cases()
    if not files:
        return result
    inputs = op["inputs"]
    dynamic = {k for k, t in enumerate(inputs) if t.get("param_type") == "dynamic"}
    attr_kinds = {a["name"]: a["type"] for a in op["attrs"]}
    seen = set()
    candidates: list[dict] = []
    for path in files:
        try:
            rows = list(csv.DictReader(path.open(encoding="utf-8", newline="")))
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            result.skipped.append(f"{path.name}: unreadable ({exc})")
            continue
        dtype_attrs = _table_dtype_attrs(rows, op["outputs"])
        for row in rows:
            name = row.get("testcase_name") or f"row{len(seen)}"
            if short_series is not None and not _series_match(row.get("soc_series"),
                                                              short_series):
                continue
            if row.get("is_enabled") not in (None, "", "1", "True", "true"):
                continue
            shapes = _shapes(_literal(row.get("input_ori_shapes")) or _literal(row.get("input_shapes")),
                             len(inputs), dynamic)
            if shapes is None:
                result.skipped.append(f"{name}: input shapes do not match the OpDef's "
                                      f"{len(inputs)} inputs")
                continue
            if _elements(shapes) > MAX_ELEMENTS:
                result.skipped.append(f"{name}: {_elements(shapes)} input elements, more than "
                                      f"the {MAX_ELEMENTS} a case takes here")
                continue
            case = {"shapes": {t["name"]: s for t, s in zip(inputs, shapes) if s is not None}}
            missing = [t["name"] for t, s in zip(inputs, shapes)
                       if s is None and t.get("param_type", "required") == "required"]
            if missing:
                result.skipped.append(f"{name}: no shape for required input {missing[0]}")
                continue
            attrs_in = _literal(row.get("attributes")) or {}
            attrs = {}
            if isinstance(attrs_in, dict):
                for k, v in attrs_in.items():
                    if k in attr_kinds and (value := _attr_value(attr_kinds[k], v)) is not None:
                        attrs[k] = value
            if (outside := _outside_documented(attrs, only_values or {})):
                result.skipped.append(f"{name}: {outside}")
                continue
            if any(a.get("required") and a["name"] not in attrs for a in op["attrs"]):
                result.skipped.append(f"{name}: a required attr has no value")
                continue
            for attr, output in _dtype_attrs(attrs, _literal(row.get("output_dtypes")),
                                             op["outputs"], dtype_attrs).items():
                attrs[attr] = {"output_dtype": output}
            if attrs:
                case["attrs"] = attrs
            values = _input_values(attrs_in, inputs, case["shapes"], attr_kinds)
            if values:
                case["values"] = values
            ranges = _literal(row.get("input_data_ranges"))
            if isinstance(ranges, (list, tuple)) and len(ranges) == len(inputs):
                picked = {}
                for t, r in zip(inputs, ranges):
                    # an input whose values the row gives (an attr-valued input such as
                    # conv3d_backprop's filter_size) takes no range: the values are its data
                    if t["name"] not in case["shapes"] or t["name"] in (values or {}):
                        continue
                    if (each := _per_tensor_ranges(r, case["shapes"][t["name"]],
                                                   t.get("param_type") == "dynamic")):
                        picked[t["name"]] = each
                    elif (span := _range(r)) is not None:
                        picked[t["name"]] = span
                if picked:
                    case["ranges"] = picked
            if not has_infer_shape and op["outputs"]:
                outs = _shapes(_literal(row.get("output_ori_shapes"))
                               or _literal(row.get("output_shapes")), len(op["outputs"]),
                               {k for k, t in enumerate(op["outputs"])
                                if t.get("param_type") == "dynamic"})
                if outs is None or None in outs:
                    result.skipped.append(f"{name}: no output shapes, and the OpDef registers "
                                          "no InferShape")
                    continue
                ins = {t["name"] for t in inputs}
                case["output_shapes"] = {t["name"]: sh for t, sh in zip(op["outputs"], outs)
                                         if t["name"] not in ins}
            # the variants the row was written for (Case.dtypes, manifest.cases_for): a row of
            # the SoC's own table names every tensor's dtype; one of another architecture's
            # table (or whose columns do not line up) its outputs' dtypes that differ between
            # variants
            dtypes = ((_row_dtypes(row, inputs, op["outputs"]) if short_series is not None
                       else {})
                      or _varying_output_dtypes(_literal(row.get("output_dtypes")), op["outputs"]))
            if dtypes:
                case["dtypes"] = dtypes
            _tolerances(row, result.tolerance)
            for rewritten in _inplace(row, inputs, shapes):
                if rewritten not in result.inplace:
                    result.inplace.append(rewritten)
            key = repr(sorted((k, repr(v)) for k, v in case.items()))
            if key in seen:
                continue
            seen.add(key)
            candidates.append({"name": re.sub(r"\W", "_", name), **case})
    result.cases = spread_over_dtypes(candidates, MAX_CASES)
    if result.cases:
        result.source = (files[0].relative_to(op_dir).as_posix() if len(files) == 1
                         else "tests/**/ttk_kernel_*.csv")
    return result


# a row of an aclnn API document's parameter table: `<td>labelSmoothing（double）</td>` and the
# cells after it; one whose usage cell says the API takes a single value (`当前仅支持输入0.0。`,
# "only 0.0 is supported at present"; `当前仅支持取值为0。`, `当前仅支持 `1`。`), not a list of them
_DOC_ROW = re.compile(r"<tr>\s*<td>\s*(\w+)\s*[（(][^<]*[)）]\s*</td>(.*?)</tr>", re.S)
_DOC_ONLY = re.compile(r"当前仅支持(?:输入|取值为)?\s*`?(-?\d+(?:\.\d+)?)`?\s*(?=[。（(<]|$)")


def documented_only_values(op_dir: Path, op: dict) -> dict:
    """{attr: (value, "docs/<api>.md:line")} for the OpDef's attrs whose aclnn API parameter
    (same name or camelCase) the operator's docs say takes one value only: the API checks its
    parameters before the kernel runs, so a value it does not take is outside the operator's
    contract (ops-nn's cross_entropy_loss_grad: labelSmoothing "当前仅支持输入0.0", and its 910B
    kernel never queues its output for another, cross_entropy_loss_grad_weight_none.h:119).
    The Ascend 950's tables test values its own kernel takes; read here for rows borrowed from
    them. Two documents saying different values: neither is taken."""
    names = {}
    for a in op.get("attrs", []):
        names[a["name"]] = names[_camel(a["name"])] = a["name"]
    found: dict[str, set] = {}
    for path in sorted((op_dir / "docs").glob("aclnn*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for row in _DOC_ROW.finditer(text):
            attr = names.get(re.sub(r"(Optional|Ref)$", "", row.group(1)))
            only = _DOC_ONLY.search(row.group(2))
            if attr is None or only is None:
                continue
            line = text.count("\n", 0, row.start(2) + only.start()) + 1
            found.setdefault(attr, set()).add((float(only.group(1)),
                                               f"{path.relative_to(op_dir).as_posix()}:{line}"))
    return {attr: min(seen, key=lambda s: s[1]) for attr, seen in found.items()
            if len({v for v, _ in seen}) == 1}


def _outside_documented(attrs: dict, only_values: dict) -> str | None:
    """Why a row's attrs are outside what the operator's documentation allows, or None."""
    for attr, (value, where) in only_values.items():
        given = attrs.get(attr)
        if isinstance(given, (int, float)) and not isinstance(given, bool) and given != value:
            return f"{attr} {given:g}, where {where} says only {value:g} is supported"
    return None


def spread_over_dtypes(cases: list[dict], limit: int) -> list[dict]:
    """At most `limit` of `cases`, spread over the dtype combinations they are written for
    (`dtypes`): taken in turn from each combination, in table order, so that every combination
    keeps a row (more than `limit` when there are more combinations). A case runs in the
    variants its dtypes fit (manifest.cases_for), so the first `limit` rows of a table sorted by
    dtype would leave the later variants none of their own (softmax_v2: 50 rows, float16 to
    float32 from the 19th on), and they would run rows written for other dtypes instead."""
    groups: dict[str, list[int]] = {}
    for i, case in enumerate(cases):
        groups.setdefault(repr(sorted(case.get("dtypes", {}).items())), []).append(i)
    queues = [list(reversed(g)) for g in groups.values()]
    cap = max(limit, len(queues))
    taken: list[int] = []
    while len(taken) < cap and any(queues):
        for q in queues:
            if q and len(taken) < cap:
                taken.append(q.pop())
    return [cases[i] for i in sorted(taken)]


def _row_dtypes(row: dict, inputs: list[dict], outputs: list[dict]) -> dict:
    """{tensor: dtype} a row of the SoC's own table is written for (input_dtypes and
    output_dtypes, one per OpDef tensor; an absent optional input's None left out), or {} when
    the columns do not line up with the OpDef's tensors."""
    from opkg.core.model import DTYPE_ALIASES, DTYPES

    out = {}
    for column, tensors in (("input_dtypes", inputs), ("output_dtypes", outputs)):
        given = _literal(row.get(column))
        if not isinstance(given, (list, tuple)) or len(given) != len(tensors):
            return {}
        for t, d in zip(tensors, given):
            if d is None:
                continue
            if not isinstance(d, str) or t.get("param_type") == "dynamic":
                return {}
            d = DTYPE_ALIASES.get(d, d)
            if d not in DTYPES:
                return {}
            out[t["name"]] = d
    return out


def _dtype_attrs(attrs: dict, out_dtypes, outputs: list[dict], table_attrs: set) -> dict:
    """The int attrs of a row that name one of its outputs' dtypes (the row's value is that
    dtype's ge::DataType number: a quant operator's `dst_type`), as {attr: output name}, of
    those that do so in every row of the table (`table_attrs`: _table_dtype_attrs). Such a
    value follows the variant a case runs in (the manifest writes it per variant), since a
    table's rows may run in other variants: ops-nn's arch35 quant tables give dst_type 29
    (int4), 34 (hifloat8) or 35 (float8_e5m2) in rows an int8 variant of Ascend 910B runs."""
    named = {k: v for k, v in _dtype_numbers(attrs, out_dtypes, outputs).items() if k in table_attrs}
    # two attrs with the number of one output's dtype: which names it is not said
    outputs_named = list(named.values())
    return {k: v for k, v in named.items() if outputs_named.count(v) == 1}


def _dtype_numbers(attrs: dict, out_dtypes, outputs: list[dict]) -> dict:
    """{attr: output} for a row's int attrs equal to the ge::DataType number of the row's dtype
    of an output whose dtype differs between variants."""
    from opkg.core.model import DTYPES

    if not isinstance(out_dtypes, (list, tuple)) or len(out_dtypes) != len(outputs):
        return {}
    named = {}
    for name, value in attrs.items():
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        hits = [t["name"] for t, d in zip(outputs, out_dtypes)
                if isinstance(d, str) and d in DTYPES and DTYPES[d].ge_value == value
                and len(set(t.get("dtypes", ()))) > 1]
        if len(hits) == 1:
            named[name] = hits[0]
    return named


def _table_dtype_attrs(rows: list[dict], outputs: list[dict]) -> set:
    """The attrs that name an output's dtype in every row of a table that gives them (a quant
    table's `dst_type`); an attr whose number only sometimes matches is not one (ops-nn's
    scatter_elements_v2: `axis: 2` in its int8 row, where int8 is ge::DataType 2)."""
    seen, other = set(), set()
    for row in rows:
        attrs = _literal(row.get("attributes"))
        if not isinstance(attrs, dict):
            continue
        hits = _dtype_numbers(attrs, _literal(row.get("output_dtypes")), outputs)
        for k, v in attrs.items():
            if isinstance(v, int) and not isinstance(v, bool):
                seen.add(k)
                if k not in hits:
                    other.add(k)      # here it is not a dtype's number
    return seen - other


def _varying_output_dtypes(out_dtypes, outputs: list[dict]) -> dict:
    """{output name: the row's dtype} for the outputs whose dtype differs between variants:
    which variants a row of another architecture's table was written for (it runs only there
    when they have rows of their own: manifest.cases_for)."""
    from opkg.core.model import DTYPE_ALIASES, DTYPES

    if not isinstance(out_dtypes, (list, tuple)) or len(out_dtypes) != len(outputs):
        return {}
    named = {t["name"]: DTYPE_ALIASES.get(d, d) for t, d in zip(outputs, out_dtypes)
             if isinstance(d, str) and len(set(t.get("dtypes", ()))) > 1}
    return {t: d for t, d in named.items() if d in DTYPES}


def _input_values(attrs_in, inputs: list[dict], shapes: dict, attr_kinds: dict) -> dict:
    """The values a row's `attributes` give an input tensor: a key naming an input (not an
    attr) holds its data, as the test tool feeds it (ops-nn's repeat_interleave_grad:
    `'repeats': [80, 85, ...]`, its repeats input, which random data would make negative).
    Taken when the numbers fill the row's shape of that input exactly."""
    if not isinstance(attrs_in, dict):
        return {}
    out = {}
    for t in inputs:
        name, shape = t["name"], shapes.get(t["name"])
        if name in attr_kinds or name not in attrs_in or shape is None \
                or t.get("param_type") == "dynamic":
            continue
        flat = _flatten(attrs_in[name])
        count = 1
        for d in shape:
            count *= d
        if flat is not None and len(flat) == count:
            out[name] = flat
    return out


def _flatten(value) -> list | None:
    """Nested lists/tuples of numbers row-major, a single number as one; None for anything else."""
    if isinstance(value, bool):
        return [int(value)]
    if isinstance(value, (int, float)):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            inner = _flatten(v)
            if inner is None:
                return None
            out += inner
        return out
    return None


def _inplace(row: dict, inputs: list[dict], shapes: list) -> list[str]:
    """The inputs `output_inplace_indexes` names: indexes into the row's inputs flattened
    tensor by tensor (a dynamic input counts one per tensor), as the test tool numbers them."""
    indexes = _literal(row.get("output_inplace_indexes"))
    if not isinstance(indexes, (list, tuple)):
        return []
    flat = []
    for t, s in zip(inputs, shapes):
        if s is None:
            continue
        flat += [t["name"]] * (len(s) if t.get("param_type") == "dynamic" else 1)
    named = {flat[i] for i in indexes if isinstance(i, int) and 0 <= i < len(flat)}
    return [t["name"] for t in inputs if t["name"] in named]


def _tolerances(row: dict, into: dict) -> None:
    """Per output dtype, the row's tolerance as the test tool reads it (its `close` compare,
    which ops-nn's matmul/common/tests/st/arch35/matmul_golden_util.py isclose_compare
    reproduces): `precision_tolerances` `((rtol, ptol), ...)` per output, ptol the share of
    elements allowed outside `|actual - golden| <= atol + rtol * |golden|`, atol the row's
    `absolute_precision` (1e-8 when empty); several rows: the tightest. Integer and bool
    outputs are left exact: the tool compares them bit for bit unless the golden declares a
    standard (norm/group_norm_silu_quant/tests/assets/golden.py says so)."""
    from opkg.core.model import DTYPES

    tols = _literal(row.get("precision_tolerances"))
    dtypes = _literal(row.get("output_dtypes"))
    if not isinstance(tols, (list, tuple)) or not isinstance(dtypes, (list, tuple)):
        return
    atol = _literal(row.get("absolute_precision"))
    atol = 1e-8 if atol is None or atol == "" else atol
    if not isinstance(atol, (int, float)) or isinstance(atol, bool) or atol < 0:
        return
    if len(tols) == 1 and len(dtypes) > 1:
        tols = list(tols) * len(dtypes)
    for dtype, tol in zip(dtypes, tols):
        if (not isinstance(dtype, str) or not isinstance(tol, (list, tuple)) or len(tol) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
                           for v in tol) or tol[1] > 0.5):
            continue
        if dtype in DTYPES and DTYPES[dtype].kind not in ("float", "complex"):
            continue
        mine = {"rtol": float(tol[0]), "atol": float(atol), "error_ratio": float(tol[1])}
        have = into.get(dtype)
        into[dtype] = mine if have is None else {k: min(have[k], mine[k]) for k in mine}


_EXAMPLE_SHAPE = re.compile(r"std::vector<\s*int64_t\s*>\s*(\w+)\s*=\s*\{([^}]*)\}")
# CreateAclTensor(hostData, shapeVariable, &deviceAddr, dtype, &tensor)
_EXAMPLE_TENSOR = re.compile(r"CreateAclTensor\s*\(\s*\w+\s*,\s*(\w+)\s*,[^;]*?&\s*(\w+)\s*\)")


# std::vector<aclTensor*> tmp{a, b}; (or = {a, b}) and aclCreateTensorList(tmp.data(), ...)
_EXAMPLE_LIST_ITEMS = re.compile(r"std::vector<\s*aclTensor\s*\*\s*>\s*(\w+)\s*=?\s*\{([^}]*)\}")
_EXAMPLE_LIST = re.compile(r"(\w+)\s*=\s*aclCreateTensorList\s*\(\s*(\w+)\s*\.\s*data\s*\(\)")
_EXAMPLE_CALL = re.compile(r"\b(aclnn\w+)GetWorkspaceSize\s*\(([^;]*?)\)\s*;")
_PARAM_NAME = re.compile(r"(\w+)\s*(?:\[\s*\])?\s*$")


def example_case(op_dir: Path, op: dict) -> dict | None:
    """One case from examples/test_aclnn_<op>.cpp, its tensors' shapes: the shape variable
    each `CreateAclTensor(..., shape, ..., &<input>)` passes, else `<input>Shape = {...}` (aclnn's
    parameter names often follow the OpDef's); else the arguments of its
    `aclnn<Api>GetWorkspaceSize(...)` call by the parameters the API's documentation
    (`docs/aclnn<Api>.md`) declares (`const` tensors are inputs): by name, then the inputs no
    name matched in order, when as many of each are left (aclnn's `self` for the OpDef's `x`);
    a tensor list as the shapes of its tensors (ops-nn's foreach examples pass
    `tensorListInput1` for the OpDef's dynamic `x1`). Attrs the call passes as literals or
    variables initialised with one are taken the same way. None when a required input has
    no shape.

    Without one at the top of examples/, another architecture's example (examples/<arch>/,
    ops-nn's arch35 for the Ascend 950) gives the case as its ttk tables do (ttk_cases): its
    shapes and attributes, marked `if_supported`, since its architecture's tiling is the one it
    was written for. Its tensors may be named in capitals (`AShape`, `&A` for the OpDef's `a`),
    and scalar variables named as attributes give their values (`float alpha = 1.0f;`)."""
    examples = op_dir / "examples"
    own = sorted(examples.glob("test_aclnn_*.cpp"), key=lambda p: -_shared_prefix(p, op_dir))
    others = [] if own else sorted(examples.glob("*/test_aclnn_*.cpp"))
    for path in own + others:
        text = path.read_text(errors="replace")
        variables = _example_shapes(text)
        tensors = {tensor: variables[var] for var, tensor in _EXAMPLE_TENSOR.findall(text)
                   if var in variables}
        by_name = {var[:-len("Shape")]: shape for var, shape in variables.items()
                   if var.endswith("Shape")}
        by_name.update(tensors)
        by_name.update({k.lower(): v for k, v in list(by_name.items()) if k.lower() not in by_name})
        host = _example_host_data(text)
        case = _case_of(op, by_name)
        if case is not None:
            out = {"name": "example", "shapes": case}
            values = _example_values(op, case, {t["name"]: v for t in op["inputs"]
                                                for v in (t["name"], _camel(t["name"]))
                                                if v in tensors}, host)
            if values:
                out["values"] = values
            if path.parent == examples and (attrs := _example_list_attrs(op_dir, op, text)):
                out["attrs"] = attrs
            if path.parent != examples:
                kinds = {a["name"]: a["type"] for a in op.get("attrs", [])}
                scalars = {name: v for name, lit in _EXAMPLE_SCALAR.findall(text)
                           if (v := _scalar(lit)) is not None}
                attrs = {}
                for a in op.get("attrs", []):
                    given = scalars.get(a["name"], scalars.get(_camel(a["name"])))
                    if given is not None and (v := _attr_value(kinds[a["name"]], given)) is not None:
                        attrs[a["name"]] = v
                if attrs:
                    out["attrs"] = attrs
                out["if_supported"] = (f"the example of {path.relative_to(op_dir)}, another "
                                       "architecture's")
            return out
        params = _call_arguments(op_dir, text, tensors)
        if params is None:
            continue
        given = _matched(op["inputs"], [(n, (v, var)) for n, kind, v, var in params if kind == "in"])
        case = _case_of(op, {k: v for k, (v, _) in given.items()})
        if case is None:
            continue
        out = {"name": "example", "shapes": case}
        if (values := _example_values(op, case, {k: var for k, (_, var) in given.items()}, host)):
            out["values"] = values
        kinds = {a["name"]: a["type"] for a in op.get("attrs", [])}
        attrs = {}
        for name, value in _matched(op.get("attrs", []),
                                    [(n, v) for n, kind, v, _ in params if kind == "scalar"]).items():
            if (v := _attr_value(kinds[name], value)) is not None:
                attrs[name] = v
        if attrs:
            out["attrs"] = attrs
        return out
    return None


def _shared_prefix(example: Path, op_dir: Path) -> int:
    """How many leading characters an example's API name shares with the operator's
    directory: of ops-nn's max_pool3d_with_argmax_v2 examples (max_pool2d_with_indices,
    max_pool2d_with_mask, max_pool3d_with_argmax), the operator's own API comes first."""
    api, name = example.stem[len("test_aclnn_"):], op_dir.name
    n = 0
    while n < min(len(api), len(name)) and api[n] == name[n]:
        n += 1
    return n


def _example_shapes(text: str) -> dict:
    """{variable: shape} of an example's `std::vector<int64_t> x1Shape = {...}`, each dimension a
    literal or an integer variable initialised with one (ops-nn's transpose_batch_mat_mul:
    `int32_t M = 32; ... x1Shape = {M, Batch, K}`); a vector with another dimension is left out."""
    ints = {name: v for name, lit in _EXAMPLE_SCALAR.findall(text)
            if isinstance(v := _scalar(lit), int) and not isinstance(v, bool)}
    variables = {}
    for var, dims in _EXAMPLE_SHAPE.findall(text):
        shape = []
        for d in (d.strip() for d in dims.split(",") if d.strip()):
            v = ints.get(d, _scalar(d))
            if not isinstance(v, int) or isinstance(v, bool):
                break
            shape.append(v)
        else:
            variables.setdefault(var, shape)
    return variables


def _example_list_attrs(op_dir: Path, op: dict, text: str) -> dict:
    """The OpDef's list-of-int attrs an example's aclnn call passes as `aclIntArray`s
    (_example_int_arrays; ops-nn's transpose_batch_mat_mul: `permX1 = aclCreateIntArray(
    permX1Series.data(), ...)` for `perm_x1`), matched to the documented parameter by name or
    camelCase, as the call's other arguments are (_call_arguments)."""
    arrays = _example_int_arrays(text)
    if not arrays:
        return {}
    out = {}
    for params, values in _documented_calls(op_dir, text):
        for param, value in zip(params, values):
            m = _PARAM_NAME.search(param.replace("*", " "))
            if m is None or "aclIntArray" not in param or value not in arrays:
                continue
            for a in op.get("attrs", []):
                if a["type"] == "list_int" and m.group(1) in (a["name"], _camel(a["name"])):
                    out[a["name"]] = arrays[value]
        return out
    return out


def _documented_calls(op_dir: Path, text: str):
    """Each aclnn<Api>GetWorkspaceSize(...) call of an example whose aclnn<Api>.md (the
    operator's docs/, else a sibling operator's: _api_docs) declares as many parameters as it
    passes: (the declared parameters, the arguments as written, `&`
    dropped), in the example's order."""
    for api, args in _EXAMPLE_CALL.findall(text):
        declared = None
        for doc in _api_docs(op_dir, api):
            declared = re.search(rf"\b{api}GetWorkspaceSize\s*\(([^;{{]*?)\)\s*;?",
                                 doc.read_text(errors="replace"))
            if declared is not None:
                break
        if declared is None:
            continue
        params = [p.strip() for p in declared.group(1).split(",")]
        values = [a.strip().lstrip("&").strip() for a in args.split(",")]
        if len(params) == len(values):
            yield params, values


# std::vector<int> indexHostData = {0, 1, 2, 3}; and CreateAclTensor(indexHostData, ..., &index)
_EXAMPLE_INT_DATA = re.compile(r"std::vector<\s*(?:u?int(?:8|16|32|64)_t|int|long|size_t)\s*>\s*"
                               r"(\w+)\s*=?\s*\{([^}]*)\}")
_EXAMPLE_HOST = re.compile(r"CreateAclTensor\s*\(\s*(\w+)\s*,\s*\w+\s*,[^;]*?&\s*(\w+)\s*\)")


def _example_host_data(text: str) -> dict:
    """{aclTensor variable: its integer host data} of an example: the index tensors an aclnn
    example fills by hand (ops-nn's inplace_scatter_add: `indexHostData = {0, 1, 2, 3}`),
    which random data would put out of range."""
    data = _int_vectors(text)
    return {tensor: data[var] for var, tensor in _EXAMPLE_HOST.findall(text) if var in data}


def _int_vectors(text: str) -> dict:
    """{variable: its integers} of the integer vectors an example initialises."""
    data = {}
    for var, body in _EXAMPLE_INT_DATA.findall(text):
        try:
            data[var] = [int(x.strip()) for x in body.split(",") if x.strip()]
        except ValueError:
            continue
    return data


def _example_values(op: dict, case: dict, tensor_of: dict, host: dict) -> dict:
    """The case's `values` for the inputs of an integer dtype whose example tensor
    (`tensor_of`: input -> aclTensor variable) has integer host data filling its shape."""
    from opkg.core.model import DTYPES

    out = {}
    for t in op["inputs"]:
        name, shape = t["name"], case.get(t["name"])
        data = host.get(tensor_of.get(name))
        if data is None or shape is None or t.get("param_type") == "dynamic" or not all(
                d in DTYPES and DTYPES[d].kind in ("int", "uint") for d in t["dtypes"]):
            continue
        count = 1
        for d in shape:
            count *= d
        if len(data) == count:
            out[name] = data
    return out


def _matched(declared: list[dict], given: list[tuple[str, object]]) -> dict:
    """The values `given` (parameter name, value; in call order) for the OpDef's `declared`
    inputs or attrs, keyed by their names: by name or camelCase, then by the word's singular
    (aclnn's `index` for the OpDef's `indices`), then aclnn's `self` for the OpDef's first
    input when that is the API's first parameter given and no name matched it (the tensor the
    operation applies to: inplace_scatter_add's `var`), then the one left on each side when
    exactly one is (a name the API spells otherwise: `self` for `x`)."""
    values = dict(given)
    out, used = {}, set()
    for t in declared:
        for key in (t["name"], _camel(t["name"])):
            if key in values and key not in used:
                out[t["name"]] = values[key]
                used.add(key)
                break
    stems = {}
    for n, _ in given:
        if n not in used:
            stems.setdefault(_singular(n), []).append(n)
    for t in declared:
        found = stems.get(_singular(t["name"]), []) if t["name"] not in out else []
        if len(found) == 1 and found[0] not in used:
            out[t["name"]] = values[found[0]]
            used.add(found[0])
    if (declared and given and given[0][0] == "self" and "self" not in used
            and declared[0]["name"] not in out):
        out[declared[0]["name"]] = values["self"]
        used.add("self")
    rest = [t["name"] for t in declared if t["name"] not in out]
    left = [(n, v) for n, v in given if n not in used]
    if len(rest) == 1 and len(left) == 1:   # two or more: the orders may differ
        out[rest[0]] = left[0][1]
        return out
    for name in rest:                       # an abbreviation, each way the only one
        found = [n for n, _ in left if _abbreviates(name, n)]
        if len(found) == 1 and sum(_abbreviates(r, found[0]) for r in rest) == 1:
            out[name] = values[found[0]]
    return out


def _abbreviates(short: str, long: str) -> bool:
    """Whether one name is the other's abbreviation: the shorter's word (at least three
    letters) is in the longer's in order, from its first letter (the OpDef's `ksize` for aclnn's
    `kernelSize`, `pads` for `padding`)."""
    a, b = sorted((_singular(short), _singular(long)), key=len)
    if len(a) < 3 or a == b or a[0] != b[0]:
        return False
    it = iter(b)
    return all(c in it for c in a)


def _case_of(op: dict, shapes: dict) -> dict | None:
    """Each input's shape from `shapes` (by its name or camelCase; a dynamic input takes a list
    of shapes only, any other one shape only); None when a required input has none."""
    case = {}
    for t in op["inputs"]:
        given = shapes.get(t["name"]) or shapes.get(_camel(t["name"]))
        dynamic = t.get("param_type") == "dynamic"
        if given is not None and dynamic != isinstance(given[0] if given else None, list):
            given = None
        if given is None:
            if t.get("param_type", "required") == "required" or dynamic:
                return None
            continue
        case[t["name"]] = given
    return case or None


# a scalar variable of the example: `int64_t group = 2;`, `double eps = 1e-5;`, `bool b = true;`
_EXAMPLE_SCALAR = re.compile(r"\b(?:u?int\d+_t|int|float|double|bool|size_t)\s+(\w+)\s*=\s*"
                             r"(-?[\d.]+(?:[eE][-+]?\d+)?[fFlLuU]*|true|false)\s*;")


def _scalar(text: str):
    """A C++ literal as Python: 2 -> 2, 1e-5 / 0.5f -> float, true -> True; None otherwise."""
    if text in ("true", "false"):
        return text == "true"
    body = text.rstrip("fFlLuU")
    try:
        return int(body)
    except ValueError:
        pass
    try:
        return float(body)
    except ValueError:
        return None


def _call_arguments(op_dir: Path, text: str, tensors: dict) -> list | None:
    """The example's aclnn call as (parameter name, kind, value, the argument as written) in
    the order its documentation
    declares the parameters: kind "in" for a `const` tensor or tensor list (value: its shape, a
    list of shapes for a list), "out" for another tensor, "scalar" for a literal or a variable
    initialised with one; `Optional`/`Ref` suffixes dropped, as the OpDef has none. None when
    no call is matched by a declaration."""
    lists = {}
    items = {v: [x.strip() for x in body.split(",") if x.strip()]
             for v, body in _EXAMPLE_LIST_ITEMS.findall(text)}
    for var, vec in _EXAMPLE_LIST.findall(text):
        if vec in items and all(x in tensors for x in items[vec]):
            lists[var] = [tensors[x] for x in items[vec]]
    scalars = {name: v for name, lit in _EXAMPLE_SCALAR.findall(text)
               if (v := _scalar(lit)) is not None}
    scalars.update(_example_int_arrays(text))
    for params, values in _documented_calls(op_dir, text):
        out = []
        for param, value in zip(params, values):
            m = _PARAM_NAME.search(param)
            if m is None:
                continue
            name = re.sub(r"(Optional|Ref)$", "", m.group(1))
            shape = tensors.get(value) or lists.get(value)
            if shape is not None:
                tensor_input = param.startswith("const") or m.group(1).endswith("Ref")
                out.append((name, "in" if tensor_input else "out", shape, value))
            elif "*" not in param and (v := scalars.get(value, _scalar(value))) is not None:
                out.append((name, "scalar", v, value))
            elif "aclIntArray" in param and isinstance(scalars.get(value), list):
                out.append((name, "scalar", scalars[value], value))
        return out
    return None


# aclIntArray* kernelSize = aclCreateIntArray(kernelSizeData.data(), 3);  (or .size())
_EXAMPLE_INT_ARRAY = re.compile(r"(\w+)\s*=\s*aclCreateIntArray\s*\(\s*(\w+)\s*\.\s*data\s*\(\)\s*,"
                                r"\s*(\d+|\w+\s*\.\s*size\s*\(\))\s*\)")


def _example_int_arrays(text: str) -> dict:
    """{aclIntArray variable: its integers} of an example: the list attrs aclnn takes as
    `aclIntArray` (ops-nn's pooling examples: `outputSize`, `kernelSize`, `padding`), built
    from an integer vector and its length (a literal count takes that many)."""
    data = _int_vectors(text)
    out = {}
    for var, vec, count in _EXAMPLE_INT_ARRAY.findall(text):
        if vec in data:
            n = int(count) if count.isdigit() else len(data[vec])
            if n <= len(data[vec]):
                out[var] = data[vec][:n]
    return out


def _api_docs(op_dir: Path, api: str) -> list[Path]:
    """The document `<api>.md` of an aclnn API: the operator's `docs/`, else a sibling
    operator's (ops-nn's mse_loss_v2 calls aclnnMseLoss, documented in `loss/mse_loss/docs/`)."""
    own = op_dir / "docs" / f"{api}.md"
    if own.is_file():
        return [own]
    return sorted(op_dir.parent.glob(f"*/docs/{api}.md"))


def _singular(name: str) -> str:
    """A parameter name's word, lower case, without separators or a plural ending: indices,
    index and Index are one."""
    word = name.replace("_", "").lower()
    if word.endswith("ices"):
        return word[:-4] + "ex"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)
