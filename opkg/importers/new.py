"""`opkg new`: an operator package from opkg's own Jinja2 templates (opkg/templates/new_*.j2)
that builds and verifies as written."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from opkg.core.errors import UsageError
from opkg.core.model import snake_case
from opkg.importers.destination import NAME_RE, OP_TYPE_RE, check_dest, check_unique, soc_rows


# Families whose parts have DataCopyPad (Atlas A2/A3, 200I/500 A2); the `new` template uses it.
PAD_FAMILIES = ("c220", "m300")


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("opkg", "templates"),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              autoescape=False)


def new_package(name: str, op_type: str, dest: Path, socs=("Ascend910B1",), root=None) -> list[Path]:
    """Render the element-wise template into dest; returns the files written."""
    if not NAME_RE.match(name):
        raise UsageError(f"{name!r} is not a package name", field="NAME",
                         hint="lower case letters, digits and '_', starting with a letter, "
                              "e.g. my_add")
    if not OP_TYPE_RE.match(op_type):
        raise UsageError(f"{op_type!r} is not an op type", field="--op-type",
                         hint="CamelCase starting with a capital letter, e.g. MyAddCustom")
    rows = soc_rows(socs, root)
    for r in rows:
        if r.family not in PAD_FAMILIES:
            raise UsageError(f"SoC {r.name} has no DataCopyPad, which the template's kernel uses "
                             "for the ragged end of a tensor", field="--soc",
                             hint="pick an Atlas A2/A3 or 200I/500 A2 part (e.g. Ascend910B1), "
                                  "or adapt the kernel after generating it")
    check_dest(dest)
    check_unique(name, op_type)
    kernel = snake_case(op_type)
    shorts = list(dict.fromkeys(r.short for r in rows))
    ctx = {"name": name, "op_type": op_type, "kernel_name": kernel, "func": kernel,
           "guard": f"{kernel.upper()}_TILING_H", "socs": [r.name for r in rows],
           "shorts": shorts}
    files = {
        "opkg.yaml": "new_opkg.yaml.j2",
        f"op_host/{kernel}.cpp": "new_op_host.cpp.j2",
        f"op_host/{kernel}_tiling.h": "new_tiling.h.j2",
        f"op_kernel/{kernel}.cpp": "new_op_kernel.cpp.j2",
        "golden.py": "new_golden.py.j2",
    }
    written = []
    for rel, template in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_env().get_template(template).render(**ctx))
        written.append(path)
    return written
