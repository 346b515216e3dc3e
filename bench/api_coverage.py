"""Share of CANN 8.1's public vector API names that the sim implements and tests (issue 12's
measure), then the same for the cube side (issue 28: the basic cube API, the Matmul object, the
host's matmul tiling). A measurement, not a test: `python bench/api_coverage.py [--json OUT]`.
On the cube side the share is of the names a user can call: those CANN 8.1.RC1 declares private or
protected are listed apart with the header line that makes them so
(bench/data/cann-8.1-cube-private.txt); `--cube-table` prints every cube name with its status.

The names are data (bench/data/cann-8.1-vector-api.txt, extracted once from CANN 8.1.RC1's
headers). A name counts as implemented when the emulation headers declare it (a call or template
form `Name(` / `Name<`, or a declaring macro's argument `(Name)`), and as tested when a test
package under tests/ calls it (its op_kernel sources; op_host ones for the host tiling functions). Reasons for names left out on purpose come from
bench/data/api-coverage-reasons.txt (`<name> <reason>`); the others are listed as missing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NAMES = REPO / "bench" / "data" / "cann-8.1-vector-api.txt"
REASONS = REPO / "bench" / "data" / "api-coverage-reasons.txt"
SIM = REPO / "opkg" / "sim" / "include"
TESTS = REPO / "tests"


def read_table(path: Path) -> dict[str, str]:
    rows = {}
    if not path.exists():
        return rows
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, rest = line.partition("\t") if "\t" in line else line.partition(" ")
        rows[name.strip()] = rest.strip()
    return rows


def _text(paths) -> str:
    return "\n".join(p.read_text(errors="replace") for p in paths)


def called(name: str, text: str) -> bool:
    """`Name(` or `Name<`, not as a member or another name's tail."""
    return re.search(rf"(?<![\w:.>]){re.escape(name)}\s*[(<]", text) is not None


def declared(name: str, text: str) -> bool:
    """Called/declared, or an argument of a declaring macro: `(Name,` `, Name,` `(Name)`."""
    return called(name, text) or re.search(rf"[(,]\s*{re.escape(name)}\s*[,)]", text) is not None


def measure() -> dict:
    names = read_table(NAMES)
    reasons = read_table(REASONS)
    sim = _text(sorted(SIM.rglob("*.h")))
    kernels = _text(sorted(p for p in TESTS.rglob("*.cpp") if "op_kernel" in p.parts or "op_host" in p.parts))
    rows = []
    for name, family in names.items():
        implemented = declared(name, sim)
        tested = implemented and declared(name, kernels)   # test kernels also pass APIs to macros
        reason = "" if tested else (reasons.get(name) or ("no test kernel calls it" if implemented else "not emulated"))
        rows.append({"name": name, "family": family, "implemented": implemented, "tested": tested, "reason": reason})
    done = sum(r["tested"] for r in rows)
    families = {}
    for r in rows:
        f = families.setdefault(r["family"], [0, 0])
        f[0] += r["tested"]
        f[1] += 1
    return {"total": len(rows), "implemented_and_tested": done,
            "share": round(done / len(rows), 4) if rows else 0.0,
            "families": {k: {"tested": v[0], "total": v[1]} for k, v in sorted(families.items())},
            "missing": [r for r in rows if not r["tested"]]}


CUBE_NAMES = REPO / "bench" / "data" / "cann-8.1-cube-api.txt"
CUBE_PRIVATE = REPO / "bench" / "data" / "cann-8.1-cube-private.txt"
NOT_ON_TARGET = "not on Atlas A2/A3"   # the reasons of names documented as not on the sim's cube SoCs
# Where each cube family is emulated, and which test sources exercise it: member functions are
# looked for in their own header (a name like SetShape is declared by other APIs too) and counted
# as tested when a test calls them on an object (`.Name(` or `->Name(`); the family's free
# functions (`inline` at namespace level in that header) when a test calls them.
CUBE_FAMILIES = {
    "cube": (None, "op_kernel"),
    "matmul": (SIM / "opkg_sim" / "adv_api" / "matmul" / "hl_matmul.h", "op_kernel"),
    "matmul-host": (SIM / "opkg_sim" / "host" / "host_matmul_tiling.h", "op_host"),
}


def measure_cube() -> dict:
    """The cube side as `measure` does the vector side: the basic cube API, the Matmul object's
    member functions and the host's matmul tiling methods (bench/data/cann-8.1-cube-api.txt; a
    name may be in two families)."""
    pairs = [tuple(line.split("\t")) for line in CUBE_NAMES.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    reasons = read_table(REASONS)
    sim = _text(sorted(SIM.rglob("*.h")))
    rows = []
    for name, family in pairs:
        header, part = CUBE_FAMILIES[family]
        tests = _text(sorted(p for p in TESTS.rglob("*.cpp") if part in p.parts))
        if header is None:
            implemented = declared(name, sim)
            tested = implemented and declared(name, tests)
        else:
            text = header.read_text()
            implemented = re.search(rf"\b{re.escape(name)}\s*[(<]", text) is not None
            # a free function of the family (declared `inline` at namespace level, as
            # InitKfcClient or MatmulGetTmpBufSize) is called plainly, a member on an object
            free = re.search(rf"^inline\b[^;{{]*\b{re.escape(name)}\s*\(", text, re.M) is not None
            tested = implemented and (declared(name, tests) if free else
                                      re.search(rf"(\.|->){re.escape(name)}\s*[(<]", tests) is not None)
        reason = "" if tested else (reasons.get(name) or ("no test calls it" if implemented else "not emulated"))
        rows.append({"name": name, "family": family, "implemented": implemented, "tested": tested,
                     "reason": reason})
    private = {}
    for line in CUBE_PRIVATE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, access, cls, decl, spec = line.split("\t")
            private[name] = f"{access} in CANN 8.1.RC1 ({cls}, declared at {decl} under the `{access}:` of {spec})"
    for r in rows:
        r["status"] = ("tested" if r["tested"] else "private" if r["name"] in private
                       else "not on A2/A3" if NOT_ON_TARGET in r["reason"]
                       else "untested" if r["implemented"] else "missing")
        if r["status"] == "private":
            r["reason"] = private[r["name"]] + ": no kernel or tiling function can call it"
    families = {}
    for r in rows:
        f = families.setdefault(r["family"], [0, 0])
        f[0] += r["tested"]
        f[1] += r["status"] != "private"
    callable_ = [r for r in rows if r["status"] != "private"]
    return {"total": len(rows), "callable": len(callable_),
            "implemented_and_tested": sum(r["tested"] for r in rows),
            "families": {k: {"tested": v[0], "total": v[1]} for k, v in families.items()},
            "not_on_target": [r for r in callable_ if r["status"] == "not on A2/A3"],
            "private": [r for r in rows if r["status"] == "private"],
            "missing": [r for r in callable_ if not r["tested"]], "rows": rows}


def cube_table(cube: dict) -> str:
    """Every cube name with its status, as docs/api.md lists them (`--cube-table`)."""
    out = ["| name | family | status | note |", "| --- | --- | --- | --- |"]
    for r in cube["rows"]:
        out.append(f"| `{r['name']}` | {r['family']} | {r['status']} | {r['reason'] or '–'} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="also write the result as JSON here")
    ap.add_argument("--cube-table", action="store_true", help="print the cube names' status table (Markdown) only")
    args = ap.parse_args(argv)
    if args.cube_table:
        print(cube_table(measure_cube()))
        return 0
    result = measure()
    print(f"CANN 8.1 vector API names implemented and tested: {result['implemented_and_tested']}/{result['total']} "
          f"({100 * result['share']:.1f} %)")
    for fam, v in result["families"].items():
        print(f"  {fam:14s} {v['tested']:3d}/{v['total']}")
    print("missing:")
    for r in result["missing"]:
        print(f"  {r['name']:28s} {r['family']:14s} {r['reason']}")
    cube = measure_cube()
    on_target = cube["callable"] - len(cube["not_on_target"])
    print(f"CANN 8.1 cube API names implemented and tested: {cube['implemented_and_tested']}/{cube['callable']} "
          f"callable ({100 * cube['implemented_and_tested'] / cube['callable']:.1f} %; {on_target} of them on "
          f"Atlas A2/A3); {len(cube['private'])} of the {cube['total']} names are private or protected, listed below")
    for fam, v in cube["families"].items():
        print(f"  {fam:14s} {v['tested']:3d}/{v['total']}")
    print("missing (callable):")
    for r in cube["missing"]:
        print(f"  {r['name']:28s} {r['family']:14s} {r['status']}: {r['reason']}")
    print("private or protected in CANN 8.1.RC1 (not counted as callable):")
    for r in cube["private"]:
        print(f"  {r['name']:28s} {r['family']:14s} {r['reason']}")
    if args.json:
        args.json.write_text(json.dumps({**result, "cube": cube}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
