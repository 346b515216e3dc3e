"""Host sources linked the way CANN groups them into libraries.

CANN builds a project's host sources into separate shared libraries, one per CMake target
(cann-ops: the OpDef source into `opsproto`, the tiling source into `optiling`), so a function a
shared header defines without `inline` exists once in each and links. The sim links one host
library; a package's `tiling.libraries` names the groups, and each group is first linked into one
relocatable object (`g++ -r`) whose strong definitions that another group defines too are made
local to it (`objcopy --localize-symbol`): each group then calls its own copy, as each CANN library
does, while everything else (registries, the sim's runtime) stays shared. A duplicate inside one
group remains the link error it is in CANN.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

# nm's letters for strong global definitions (text, data, bss, read-only, absolute, small data)
_STRONG = set("TDBRAGS")


def _tool(cxx: str, name: str) -> str:
    """The binutils program `name` the compiler driver `cxx` uses (a cross g++ names its own)."""
    out = subprocess.run([cxx, f"-print-prog-name={name}"], capture_output=True, text=True)
    return out.stdout.strip() or name


def strong_definitions(nm: str, obj: str) -> set[str]:
    out = subprocess.run([nm, "--defined-only", "-g", obj], capture_output=True, text=True, check=True)
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-2] in _STRONG:
            names.add(parts[-1])
    return names


def link_groups(cxx: str, groups: list[list[str]], outputs: list[str]) -> str | None:
    """Links each group of objects into its output relocatable object and localises the strong
    definitions found in more than one group. Returns the error text, or None. Each output is
    written under a temporary name and renamed into place when all are done."""
    nm, objcopy = _tool(cxx, "nm"), _tool(cxx, "objcopy")
    temps = [f"{out}.{os.getpid()}.tmp" for out in outputs]
    try:
        for objs, tmp in zip(groups, temps):
            Path(tmp).parent.mkdir(parents=True, exist_ok=True)
            proc = subprocess.run([cxx, "-r", "-nostdlib", "-o", tmp, *objs], capture_output=True, text=True)
            if proc.returncode != 0:
                return proc.stderr.strip()[-4000:] or f"{cxx} -r failed ({proc.returncode})"
        defined = [strong_definitions(nm, tmp) for tmp in temps]
        counts = Counter(name for names in defined for name in names)
        shared = {name for name, n in counts.items() if n > 1}
        for names, tmp in zip(defined, temps):
            local = sorted(names & shared)
            if not local:
                continue
            proc = subprocess.run([objcopy, *(f"--localize-symbol={n}" for n in local), tmp],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                return proc.stderr.strip()[-4000:] or f"{objcopy} failed ({proc.returncode})"
        for tmp, out in zip(temps, outputs):
            os.replace(tmp, out)
        return None
    finally:
        for tmp in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def scons_action(params: dict) -> str | None:
    """SCons 'python' step: params 'cxx', 'groups' (lists of object paths), 'outputs'."""
    return link_groups(params["cxx"], params["groups"], params["outputs"])


def defined_symbols(nm: str, obj: str) -> set[str]:
    """Every global definition of an object, weak and unique ones included."""
    out = subprocess.run([nm, "--defined-only", "-g", obj], capture_output=True, text=True, check=True)
    return {parts[-1] for parts in (line.split() for line in out.stdout.splitlines()) if len(parts) >= 3}


CUBE_ENTRY = "opkg_sim_cube_entry"


def cube_body(cxx: str, cube_obj: str, vector_obj: str, runtime_obj: str, entry: str, output: str) -> str | None:
    """The kernel's cube-core compile (flags.CUBE_BODY_FLAGS) made linkable beside its vector
    compile: one relocatable object whose section groups are dissolved (so that the linker does not
    fold its inline functions and template instances into the vector TU's, which the two
    compiles define differently), its definitions the vector object also has made local, except
    what the block runner defines too (the emulation's shared machinery and state stay one), and
    its entry renamed CUBE_ENTRY, which the generated kernel entry hands the runner for the cube
    bodies. Returns the error text, or None."""
    nm, objcopy = _tool(cxx, "nm"), _tool(cxx, "objcopy")
    tmp = f"{output}.{os.getpid()}.tmp"
    try:
        Path(tmp).parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([cxx, "-r", "-nostdlib", "-Wl,--force-group-allocation", "-o", tmp, cube_obj],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return proc.stderr.strip()[-4000:] or f"{cxx} -r failed ({proc.returncode})"
        mine = defined_symbols(nm, tmp)
        names = [n for n in (f"opkg_sim_entry_{entry}", entry) if n in mine]
        if not names:
            return f"the kernel's cube-core compile {cube_obj} defines no entry {entry}"
        local = sorted((mine & defined_symbols(nm, vector_obj)) - defined_symbols(nm, runtime_obj) - {names[0]})
        args = [f"--redefine-sym={names[0]}={CUBE_ENTRY}", *(f"--localize-symbol={n}" for n in local)]
        arg_file = f"{tmp}.args"
        Path(arg_file).write_text("\n".join(args) + "\n")
        proc = subprocess.run([objcopy, f"@{arg_file}", tmp], capture_output=True, text=True)
        os.unlink(arg_file)
        if proc.returncode != 0:
            return proc.stderr.strip()[-4000:] or f"{objcopy} failed ({proc.returncode})"
        os.replace(tmp, output)
        return None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cube_body_action(params: dict) -> str | None:
    """SCons 'python' step: params 'cxx', 'cube', 'vector', 'runtime', 'entry', 'output'."""
    return cube_body(params["cxx"], params["cube"], params["vector"], params["runtime"], params["entry"],
                     params["output"])
