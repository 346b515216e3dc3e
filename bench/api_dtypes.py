"""Which floating dtypes the test packages run each tested CANN 8.1 vector API name in (issue 12's
"a numerical test per dtype"). A measurement, not a test: `python bench/api_dtypes.py [--json OUT]`.

For every name bench/api_coverage.py counts as tested, the test packages whose op_kernel sources
call it, and the dtypes those packages build: the `ge::DT_*` of their op_host's first Input, or, for
kernels that name their types explicitly, the float types (`half`, `float`, `bfloat16_t`) written
in the calls of that name (both when a call also names the kernel's T). A heuristic: the test
modules decide which variants they run. A name whose calls reach only one of half and float is listed, so a
reader can check it is an API with one dtype (int-only, bit-level, or documented for one type).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import api_coverage  # noqa: E402

DT = {"DT_FLOAT": "float", "DT_FLOAT16": "half", "DT_BF16": "bfloat16_t"}
FLOATS = ("half", "float", "bfloat16_t")


def package_dtypes(pkg: Path) -> set[str]:
    """The dtypes of the package's first input, from its op_host sources."""
    found: set[str] = set()
    for src in sorted(pkg.glob("op_host/*.cpp")):
        m = re.search(r"(?:\.|->)Input\([^)]*\)[^;]*?\.DataType\(\{([^}]*)\}", src.read_text(errors="replace"), re.S)
        if m:
            found |= {DT[d] for d in re.findall(r"ge::(DT_\w+)", m.group(1)) if d in DT}
    return found


def call_types(name: str, text: str) -> tuple[set[str], bool]:
    """Float types spelled in the line of each call of `name`, and whether a call is generic (names
    the kernel's own T / DTYPE_*, so it runs in every dtype the package builds)."""
    found: set[str] = set()
    generic = False
    for m in re.finditer(rf"(?<![\w:.>]){re.escape(name)}\s*[(<]", text):
        line = text[m.start():text.find("\n", m.start())]
        found |= {t for t in FLOATS if re.search(rf"\b{t}\b", line)}
        generic = generic or re.search(r"\b(T|DTYPE_\w+)\b", line) is not None
    return found, generic


def measure() -> dict:
    cov = api_coverage.measure()
    missing = {r["name"] for r in cov["missing"]}
    names = api_coverage.read_table(api_coverage.NAMES)
    kernels = {}
    for src in sorted(api_coverage.TESTS.rglob("*.cpp")):
        if "op_kernel" in src.parts:
            pkg = src.parent.parent
            kernels.setdefault(pkg, []).append(src.read_text(errors="replace"))
    rows = []
    for name, family in names.items():
        if name in missing:
            continue
        dtypes: set[str] = set()
        pkgs = []
        for pkg, texts in kernels.items():
            text = "\n".join(texts)
            if not api_coverage.declared(name, text):
                continue
            pkgs.append(str(pkg.relative_to(api_coverage.REPO)))
            spelled, generic = call_types(name, text)
            dtypes |= spelled
            if generic or not spelled:
                dtypes |= package_dtypes(pkg)
        rows.append({"name": name, "family": family, "dtypes": sorted(dtypes), "packages": pkgs})
    single = [r for r in rows if not ({"half", "float"} <= set(r["dtypes"]))]
    return {"tested": len(rows), "half_and_float": len(rows) - len(single), "one_or_none": single}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="also write the result as JSON here")
    args = ap.parse_args(argv)
    result = measure()
    print(f"tested names run in both half and float: {result['half_and_float']}/{result['tested']}")
    print("in one float dtype or none (check each is an API with one dtype):")
    for r in result["one_or_none"]:
        print(f"  {r['name']:28s} {r['family']:14s} {','.join(r['dtypes']) or '-':18s} {' '.join(r['packages'])}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
