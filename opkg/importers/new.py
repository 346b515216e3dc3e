"""`opkg new`: an operator package from opkg's own Jinja2 templates (opkg/templates/new_*.j2)
that builds and verifies as written."""

from __future__ import annotations

import json
import re
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


def op_type_for(name: str) -> str:
    """The op type `opkg new NAME` gives a package without --op-type: NAME in CamelCase, so the
    kernel entry (the op type's snake_case) is NAME itself."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def new_package(name: str, op_type: str | None, dest: Path, socs=("Ascend910B1",),
                root=None) -> list[Path]:
    """Render the element-wise template into dest; returns the files written."""
    op_type = op_type or op_type_for(name)
    _check_new(name, op_type, socs, root)
    check_dest(dest)
    check_unique(name, op_type)
    return _render_new(name, op_type, dest, socs, root)


def _check_new(name: str, op_type: str | None, socs, root) -> None:
    op_type = op_type or op_type_for(name)
    if not NAME_RE.match(name):
        raise UsageError(f"{name!r} is not a package name", field="NAME",
                         hint="lower case letters, digits and '_', starting with a letter, "
                              "e.g. my_add")
    if not OP_TYPE_RE.match(op_type):
        raise UsageError(f"{op_type!r} is not an op type", field="--op-type",
                         hint="CamelCase starting with a capital letter, e.g. MyAddCustom")
    for r in soc_rows(socs, root):
        if r.family not in PAD_FAMILIES:
            raise UsageError(f"SoC {r.name} has no DataCopyPad, which the template's kernel uses "
                             "for the ragged end of a tensor", field="--soc",
                             hint="pick an Atlas A2/A3 or 200I/500 A2 part (e.g. Ascend910B1), "
                                  "or adapt the kernel after generating it")


def _render_new(name: str, op_type: str | None, dest: Path, socs, root) -> list[Path]:
    op_type = op_type or op_type_for(name)
    rows = soc_rows(socs, root)
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


# -- opkg init ----------------------------------------------------------------------------------

# keys the workspace file `opkg init` writes sets, the others are there as comments
_INIT_SET = ("package_roots", "output_dir", "registry")
GITIGNORE = """\
# opkg: build outputs (deleted by `opkg clean`) and the local registry (`opkg publish`)
/out/
/registry/
"""


def workspace_file_text() -> str:
    """opkg-workspace.yaml as `opkg init` writes it: every key of the workspace schema, its
    description as a comment, set to its default or commented out with an example."""
    import textwrap
    from importlib.resources import files

    import yaml

    schema = json.loads(files("opkg").joinpath("schema", "opkg-workspace.schema.json")
                        .read_text())
    lines = ["# The opkg workspace: this directory is its root. Every key is optional (the ones",
             "# set here hold their defaults); reference: docs/workspace.md in opkg's sources,",
             "# JSON Schema: `opkg schema workspace`.", ""]
    for key, spec in schema["properties"].items():
        lines += textwrap.wrap(re.sub(r"`([^`]*)`", r"\1", spec["description"]), 96,
                               initial_indent="# ", subsequent_indent="# ")
        active = key in _INIT_SET
        value = spec["default"] if active else (spec.get("examples") or [spec.get("default")])[0]
        text = yaml.safe_dump({key: value}, default_flow_style=True, width=1000).strip()
        text = text.removeprefix("{").removesuffix("}")
        lines += [text if active else f"# {text}", ""]
    return "\n".join(lines)


def init_workspace(dest: Path, sample: str | None, op_type: str | None, socs) -> list[Path]:
    """A workspace in dest: opkg-workspace.yaml, .gitignore (kept when present) and, unless
    sample is None, a package from the `opkg new` template. Returns the files written."""
    from opkg.util.fsutil import atomic_write_text
    from opkg.core.workspace import WORKSPACE_FILE

    if dest.exists() and not dest.is_dir():
        raise UsageError(f"{dest} exists and is not a directory", field="DIR")
    if (dest / WORKSPACE_FILE).exists():
        raise UsageError(f"{dest / WORKSPACE_FILE} already exists: {dest} is a workspace",
                         field="DIR", hint="create packages in it with: opkg new NAME")
    if sample is not None:      # checked before anything is written
        _check_new(sample, op_type, tuple(socs), None)
        check_dest(dest / "packages" / sample)
    dest.mkdir(parents=True, exist_ok=True)
    written = [dest / WORKSPACE_FILE]
    atomic_write_text(written[0], workspace_file_text())
    if not (dest / ".gitignore").exists():
        atomic_write_text(dest / ".gitignore", GITIGNORE)
        written.append(dest / ".gitignore")
    if sample is not None:
        written += _render_new(sample, op_type, dest / "packages" / sample, tuple(socs), None)
    return written
