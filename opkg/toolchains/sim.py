"""The built-in `sim` toolchain backend: Actions that compile a package with g++ against opkg's
Ascend C emulation headers (opkg.sim), verify it on NumPy data, and bundle it.

Per package one host library (tiling code, SoC-independent, like CANN's op_host libraries);
per (package, SoC, dtype variant) one kernel library; per variant one verification report;
per (package, SoC) one bundle. The toolchain identity (compiler path and version, emulation
header digest, flags) is the `signature` of every action, so changing any of them rebuilds.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from opkg.core.bundle import bundle_filename
from opkg.core.errors import BuildError, ToolchainError
from opkg.core.manifest import cases_for, fallback_cases, untested_reason
from opkg.core.model import SimModes
from opkg.core.actions import Action, Target, digest_files, python_executable, sha256_text
from opkg.core.report_schema import timings_path


@lru_cache(maxsize=4)
def _compiler_version(path: str, mtime: float, size: int) -> str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        raise BuildError(f"cannot run the C++ compiler {path}: {exc}") from None
    return out.stdout.splitlines()[0] if out.stdout else "unknown"


def find_compiler() -> str:
    """The sim's C++ compiler ($CXX, else g++) as an absolute path. Missing, it is a toolchain
    problem (exit 3), the same from `opkg build` and `opkg toolchain check`."""
    name = os.environ.get("CXX", "g++")
    path = shutil.which(name)
    if path is None:
        raise ToolchainError(f"C++ compiler {name!r} not found on PATH",
                         hint="the sim toolchain compiles Ascend C sources with g++ (C++17): "
                              "install it (Debian/Ubuntu: apt-get install g++) or set CXX")
    return str(Path(path).resolve())


class SimToolchain:
    family = "sim"

    def __init__(self, toolchain_id: str, ws=None):
        if toolchain_id != "sim":
            raise BuildError(f"unknown sim toolchain {toolchain_id!r}", hint="use 'sim'")
        self.id = toolchain_id
        self.ws = ws

    @property
    def cxx(self) -> str:
        from opkg.util.memo import once

        # asked once per target: a PATH lookup and a resolve each
        return once(("sim.compiler", os.environ.get("CXX"), os.environ.get("PATH")),
                    find_compiler)

    def identity(self, cxx: str | None = None) -> dict:
        from opkg.sim import flags

        cxx = cxx or self.cxx
        st = os.stat(cxx)
        # where opkg is installed is not part of the identity; what its headers say is
        include = str(flags.include_dir())
        return {"id": self.id, "compiler": cxx,
                "compiler_version": _compiler_version(cxx, st.st_mtime, st.st_size),
                "headers": flags.header_digest(),
                "flags": [f.replace(include, "<sim-include>") for f in flags.common_flags()],
                "runtime": _runtime_digest()}

    def _root(self) -> Path:
        return self.ws.root if self.ws is not None else Path.cwd()

    def aliases(self) -> dict:
        from opkg.sim import flags

        # the runtime sources too: their compiles name no opkg install path (a remote cache
        # key, and a worker's input root, are the same for every install)
        return {str(flags.include_dir()): "<sim-include>",
                str(flags.runtime_source().parent): "<sim-src>"}

    def fingerprint(self, cxx: str | None = None) -> str:
        cxx = cxx or self.cxx
        st = os.stat(cxx)
        # once per compiler file within a process, not once per planned target
        from opkg.sim import flags

        key = (cxx, st.st_mtime_ns, st.st_size, st.st_ino, tuple(flags.common_flags()))
        memo = self.__dict__.setdefault("_fingerprints", {})
        if key not in memo:
            memo[key] = sha256_text(json.dumps(self.identity(cxx), sort_keys=True))
        return memo[key]

    def version(self) -> str:
        from opkg import __version__

        return __version__

    # -- planning -------------------------------------------------------------------------

    def plan_target(self, pkg, soc, deps, out: Path, *, provenance: dict, verify: bool = True,
                    bundle: bool = True, modes: SimModes = SimModes(), select=None):
        from opkg.sim import codegen, flags

        cxx = self.cxx
        fp = self.fingerprint(cxx)
        op = pkg.op
        soc_op = op.for_soc(soc.short)   # this SoC's dtype variants (op.soc_configs)
        base = Path(out) / "sim" / pkg.name
        tid = f"{pkg.label}@{soc.name}@{self.id}"
        own = [str(pkg.dir), *(str(pkg.dir / d) for d in ("op_host", "op_kernel")
                               if (pkg.dir / d).is_dir())]
        # deps' include dirs flow to this package's compiles; a library of an external
        # repository may give its kernels other directories (kernel_include_dirs)
        include = own + [str(d) for dep in deps for d in dep.include_dirs] + \
            [str(d) for d in pkg.include_dirs]
        kernel_include = own + [str(d) for dep in deps for d in dep.kernel_includes] + \
            [str(d) for d in pkg.include_dirs]
        common = _prefix_maps(flags.common_flags(), self.ws,
                              [r for p in (pkg, *deps) for r in p.repositories])
        actions: list[Action] = []

        def compile_step(src: Path, obj: Path, extra: list[str], what: str, force=(),
                         requires=(), kernel: bool = False) -> Action:
            inc = kernel_include if kernel else include
            return Action("exec", (str(obj),), (str(src), *force),
                          argv=(cxx, *common, *extra, *(f"-I{d}" for d in inc), "-c", str(src),
                                "-o", str(obj)),
                          scan_path=tuple(inc), signature=fp, target=tid, step="compile",
                          description=f"compile {pkg.name} {what}", requires=tuple(requires))

        # host library: generated entry + the package's tiling sources
        host_dir = base / "host"
        host_entry = host_dir / "host_entry.cpp"
        actions.append(Action("write", (str(host_entry),),
                              content=codegen.host_entry_source(op, pkg.tiling_function),
                              signature=fp, target=tid, step="generate",
                              description=f"generate {pkg.name} host entry"))
        host_flags = flags.host_flags(op)
        # the host machinery: one object for every package's host library
        host_rt = Path(out) / "sim" / ".runtime" / "host" / "host_runtime.o"
        actions.append(Action("exec", (str(host_rt),), (str(flags.host_runtime_source()),),
                              argv=(cxx, *common, *host_flags, "-c", str(flags.host_runtime_source()),
                                    "-o", str(host_rt)),
                              signature=fp, target=tid, step="compile",
                              description="compile sim host runtime"))
        host_objs = [str(host_rt)]
        obj_of: dict[Path, str] = {}
        for src in (host_entry, *pkg.tiling_sources):
            obj = host_dir / "obj" / (_rel_name(src, pkg, host_dir) + ".o")
            actions.append(compile_step(src, obj, host_flags, f"host {src.name}"))
            obj_of[src] = str(obj)
        # host sources of libraries: compiled once per library (whichever package asks first:
        # the same action), with its deps' include dirs, its own and its private ones (as its
        # cc_library would be), linked into every dependent
        lib_objs = []
        for dep in deps:
            if not dep.host_sources:
                continue
            lib_deps = self.ws.deps_of(dep.label) if self.ws is not None and dep.deps else []
            lib_inc = list(dict.fromkeys(str(d) for d in (
                *(d for ld in lib_deps for d in ld.include_dirs), *dep.include_dirs,
                *dep.host_include_dirs)))
            lib_common = _prefix_maps(flags.common_flags(), self.ws,
                                      [r for p in (dep, *lib_deps) for r in p.repositories])
            lib_dir = Path(out) / "sim" / ".external" / dep.name
            for src in dep.host_sources:
                name = _rel_name(src, dep, dep.dir)
                obj = lib_dir / (name + ".o")
                actions.append(Action(
                    "exec", (str(obj),), (str(src),),
                    argv=(cxx, *lib_common, *host_flags, *(f"-I{d}" for d in lib_inc),
                          "-c", str(src), "-o", str(obj)),
                    scan_path=tuple(lib_inc), signature=fp, target=tid, step="compile",
                    description=f"compile {dep.label} {name}"))
                lib_objs.append(str(obj))
        grouped = [g for g in pkg.tiling_libraries if g]
        if len(grouped) > 1:
            # the sources CANN links into separate libraries (tiling.libraries): one relocatable
            # object per group, each keeping its own copy of what several define (sim/hostlink.py)
            in_group = {src for g in grouped for src in g}
            groups = [[obj_of[src] for src in g] for g in grouped]
            outputs = [str(host_dir / "obj" / f"library{i}.o") for i in range(len(groups))]
            actions.append(Action("python", tuple(outputs), tuple(o for g in groups for o in g),
                                  function="opkg.sim.hostlink:scons_action",
                                  params={"cxx": cxx, "groups": groups, "outputs": outputs},
                                  signature=fp, target=tid, step="link",
                                  description=f"link {pkg.name} host libraries as CANN groups them"))
            host_objs += [obj_of[host_entry], *outputs,
                          *(obj_of[src] for src in pkg.tiling_sources if src not in in_group)]
        else:
            host_objs += list(obj_of.values())
        host_objs += lib_objs
        host_lib = host_dir / "libhost.so"
        actions.append(Action("exec", (str(host_lib),), tuple(host_objs),
                              argv=(cxx, *flags.link_flags(), "-o", str(host_lib), *host_objs),
                              signature=fp, target=tid, step="link",
                              description=f"link {pkg.name} host library"))
        # The package's own OpDef (if any) must declare the manifest's prototype: checked once
        # per package; verification and the bundle depend on it, so a mismatch stops both.
        proto = host_dir / "prototype-check.json"
        actions.append(Action(
            "python", (str(proto),), (str(host_lib), str(pkg.manifest_path)),
            function="opkg.verify.prototype:scons_action",
            params={"host_lib": str(host_lib), "output": str(proto), "op": op.to_json(),
                    "manifest": str(pkg.manifest_path), "package_dir": str(pkg.dir),
                    "host_sources": [str(s) for s in pkg.tiling_sources],
                    "socs": _soc_shorts(pkg, self.ws, soc), "python": python_executable()},
            signature=_runtime_digest(), target=tid, step="check",
            description=f"check {pkg.name} OpDef against opkg.yaml"))

        kernel_entry = base / "gen" / "kernel_entry.cpp"
        actions.append(Action("write", (str(kernel_entry),),
                              content=codegen.kernel_entry_source(op), signature=fp,
                              target=tid, step="generate",
                              description=f"generate {pkg.name} kernel entry"))
        # The block runner: one object per SoC architecture, shared by every package's kernels
        # (actions with the same output are planned once).
        runtime_obj = Path(out) / "sim" / ".runtime" / flags.runtime_name(soc) / "kernel_runtime.o"
        runtime_src = flags.runtime_source()
        actions.append(Action("exec", (str(runtime_obj),), (str(runtime_src),),
                              argv=(cxx, *common, *flags.arch_flags(soc), "-c", str(runtime_src),
                                    "-o", str(runtime_obj)),
                              signature=fp, target=tid, step="compile",
                              description=f"compile sim kernel runtime ({flags.runtime_name(soc)})"))
        # The emulation headers precompiled once per architecture (and flag set), shared by every
        # package's kernels. A kernel compile only requires it: the object is the same with or
        # without it (g++ reads the headers when the .gch does not fit), and the .gch follows
        # from the flags and headers already in the compile's argv and signature.
        def precompiled(simt: bool):
            """The .gch of a kernel flag set (planned once however many packages use it)."""
            name = flags.pch_dir_name(soc, simt)
            pch_dir = Path(out) / "sim" / ".pch" / name
            header, gch = pch_dir / flags.PCH_HEADER, pch_dir / (flags.PCH_HEADER + ".gch")
            if not flags.pch_enabled():
                return None, gch
            actions.append(Action("write", (str(header),), content=flags.pch_source(), signature=fp,
                                  target=tid, step="generate",
                                  description=f"generate sim precompiled header ({name})"))
            actions.append(Action("exec", (str(gch),), (str(header),),
                                  argv=(cxx, *common, *flags.pch_flags(soc, simt), "-c", str(header),
                                        "-o", str(gch)),
                                  scan_path=(str(flags.include_dir()),), signature=fp, target=tid,
                                  step="pch",
                                  description=f"precompile sim headers ({name})"))
            return header, gch
        # The entry only names the kernel: once per (package, SoC), whatever the dtype variant.
        entry_obj = base / soc.name / "entry.o"
        actions.append(compile_step(kernel_entry, entry_obj, flags.arch_flags(soc),
                                    f"kernel entry ({soc.name})", kernel=True))
        # the tiling header as kernels read it (flags.kernel_tiling_source): once per package
        tiling_include = None
        tiling_headers: tuple[str, ...] = ()
        if pkg.tiling_data:
            tiling_include = base / "gen" / "kernel_tiling.h"
            tiling_text = pkg.tiling_data.read_text(errors="replace")
            keyed = tuple((h, h.read_text(errors="replace"))
                          for h in flags.keyed_tiling_headers(
                              pkg.tiling_data, tiling_text,
                              tuple(sorted({str(Path(s).parent) for s in pkg.tiling_sources}))))
            tiling_headers = (str(pkg.tiling_data), *(str(h) for h, _ in keyed))
            roots = tuple(Path(d) for d in kernel_include)
            reads = flags.kernel_reads_host_tiling(
                pkg.kernel_source, pkg.tiling_data,
                flags.kernel_tiling_classes(pkg.tiling_data, tiling_text, keyed, roots),
                (pkg.kernel_source.parent, pkg.dir))
            actions.append(Action("write", (str(tiling_include),), content=flags.kernel_tiling_source(
                pkg.tiling_data, tiling_text, tiling_include.parent, reads, keyed, roots), signature=fp,
                target=tid, step="generate", description=f"generate {pkg.name} kernel tiling header"))
        reports: dict[str, str] = {}
        kernel_libs: dict[str, str] = {}
        kernel_text = pkg.kernel_source.read_text(errors="replace")
        launcher = flags.has_chevron_launch(kernel_text)
        kernel_texts = [kernel_text, *(p.read_text(errors="replace") for p in _kernel_headers(pkg))]
        simt = flags.uses_simt(kernel_texts)
        pch, gch = precompiled(simt)
        cube_body = flags.needs_cube_body(kernel_texts, soc)
        try:
            vector_flags = flags.ext_vector_flags(kernel_texts) + flags.core_type_flags(kernel_texts)
        except ValueError as e:
            raise BuildError(f"{pkg.kernel_source}: {e}") from None
        # a kernel written as a template over tiling-key parameters (ASCENDC_TPL_*): compiled
        # through a unit that includes it and adds the entry picking the instance by key
        kernel_unit, kernel_deps = pkg.kernel_source, ()
        if codegen.template_kernel(pkg.kernel_source, kernel_text, op.kernel_name,
                                   codegen.arch_defines(flags.arch_flags(soc))):
            namespace = codegen.tpl_decl_namespace(pkg.kernel_source, kernel_text, include,
                                                   defines=codegen.arch_defines(flags.arch_flags(soc)))
            if namespace is None:
                raise BuildError(f"{pkg.kernel_source}: the kernel {op.kernel_name} is a function "
                                 "template, but no ASCENDC_TPL_ARGS_DECL is reachable from it "
                                 "through its #include \"...\" files; the sim cannot tell which "
                                 "instances CANN would build")
            kernel_unit = base / "gen" / "tpl_kernel.cpp"
            # through the package directory on the include path, so diagnostics name the
            # kernel source by its own path (a source outside it: relative to the unit)
            try:
                spelled = pkg.kernel_source.relative_to(pkg.dir).as_posix()
            except ValueError:
                spelled = os.path.relpath(pkg.kernel_source.resolve(), kernel_unit.parent.resolve())
            kinds = codegen.template_param_kinds(kernel_text, op.kernel_name,
                                                 codegen.arch_defines(flags.arch_flags(soc)))
            actions.append(Action("write", (str(kernel_unit),), content=codegen.tpl_kernel_source(
                spelled, soc_op, namespace, kinds), signature=fp, target=tid, step="generate",
                description=f"generate {pkg.name} template kernel entry"))
            kernel_deps = (str(pkg.kernel_source),)
        outputs = [t.name for t in pkg.op.outputs]
        untested_variants = []
        for variant in soc_op.variants():
            vdir = base / soc.name / variant.name
            what = f"kernel {variant.name} ({soc.name})"
            # a variant no case is written for (manifest.cases_for): its report says so, and
            # its kernel is not compiled: nothing runs it, and a target with an untested
            # variant is bundled by no build (not every variant verified, below)
            untested = (untested_reason(pkg.verify.cases, variant, outputs)
                        if verify and pkg.verify is not None and not select else None)
            if untested:
                report = vdir / "verification.json"
                actions.append(Action("write", (str(report),), content=json.dumps(
                    untested_report(pkg, soc, variant, untested), sort_keys=True), target=tid,
                    step="verify", description=f"verify {pkg.name} {variant.name} ({soc.name}): "
                    "untested"))
                reports[variant.name] = str(report)
                untested_variants.append(variant.name)
                continue

            def selected(chosen):
                return [c for c in chosen if not select or select.keep(
                    pkg.label, soc.name, variant.name, c.name,
                    tuple(d for _, d in variant.dtypes), pkg.name)]
            verified = verify and pkg.verify is not None
            cases = selected(cases_for(pkg.verify.cases, variant, outputs)) if verified else []
            if verified and pkg.verify.cases and not cases and not bundle:
                continue        # -k, --variant, --lf...: nothing of it selected, not compiled
            kflags = flags.kernel_flags(soc_op, variant, soc, tiling_include, pch, launcher, simt,
                                        flags.registered_tiling_default(kernel_text, soc)) + vector_flags
            force = ((*tiling_headers, str(tiling_include)) if pkg.tiling_data else ()) + kernel_deps
            actions.append(compile_step(kernel_unit, vdir / "kernel.o", kflags,
                                        f"{what} {pkg.kernel_source.name}", force,
                                        (str(gch),) if pch else (), kernel=True))
            objs = [str(vdir / "kernel.o"), str(entry_obj), str(runtime_obj)]
            if cube_body:   # the cube core's compile, for the cube bodies of a split launch
                actions.append(compile_step(kernel_unit, vdir / "kernel_cube.o", [*kflags, *flags.CUBE_BODY_FLAGS],
                                            f"{what} {pkg.kernel_source.name} (cube core)", force,
                                            (str(gch),) if pch else (), kernel=True))
                actions.append(Action("python", (str(vdir / "cube_body.o"),),
                                      (str(vdir / "kernel_cube.o"), str(vdir / "kernel.o"), str(runtime_obj)),
                                      function="opkg.sim.hostlink:cube_body_action",
                                      params={"cxx": cxx, "cube": str(vdir / "kernel_cube.o"),
                                              "vector": str(vdir / "kernel.o"), "runtime": str(runtime_obj),
                                              "entry": op.kernel_name, "output": str(vdir / "cube_body.o")},
                                      signature=fp, target=tid, step="link",
                                      description=f"link {pkg.name} {what} cube body"))
                objs.append(str(vdir / "cube_body.o"))
            lib = vdir / "libkernel.so"
            actions.append(Action("exec", (str(lib),), tuple(objs),
                                  argv=(cxx, *flags.link_flags(), "-o", str(lib), *objs),
                                  signature=fp, target=tid, step="link",
                                  description=f"link {pkg.name} {what}"))
            kernel_libs[variant.name] = str(lib)
            if not cases:
                continue
            fallback = selected(fallback_cases(pkg.verify.cases, variant, outputs))
            job = vdir / "verify-job.json"
            report = vdir / "verification.json"
            actions.append(Action("write", (str(job),), content=json.dumps(
                _verify_job(pkg, soc_op, soc, variant, host_lib, lib, self._root(), modes,
                            cases, fallback),
                sort_keys=True), target=tid, step="generate",
                description=f"plan verification {pkg.name} {variant.name}"))
            actions.append(Action(
                "python", (str(report), str(timings_path(report))),
                (str(job), str(host_lib), str(lib), str(pkg.verify.golden_file), str(proto)),
                function="opkg.verify.runner:scons_action",
                params={"job": str(job), "report": str(report),
                        "python": python_executable(), "cwd": str(self._root()),
                        **({"repositories": {name: str(r) for name, r in pkg.repositories}}
                           if pkg.repositories else {})},
                signature=_runtime_digest() + _golden_env(pkg.verify.requires), target=tid, step="verify",
                description=f"verify {pkg.name} {variant.name} ({soc.name})"))
            reports[variant.name] = str(report)

        if not bundle or untested_variants:
            # a bundle holds an operator whose every variant verified: one with untested
            # variants gets none (results.read_target would take it away), so none is planned
            return Target(tid, pkg.label, pkg.name, pkg.version, soc.name, self.id, "",
                          reports), actions
        bundle = Path(out) / "bundles" / bundle_filename(pkg.name, pkg.version, soc.name,
                                                          self.id)
        local = [d for d in deps if not d.repositories]
        sources = [*pkg.source_files()] + [f for d in local for d in d.include_dirs
                                           for f in sorted(Path(d).rglob("*")) if f.is_file()]
        repos = _repositories(self.ws, pkg, deps)
        names = {str(root): f"@{name}/" for p in (pkg, *deps) for name, root in p.repositories}
        meta = {
            "name": pkg.name, "version": pkg.version, "summary": pkg.summary, "soc": soc.name,
            "toolchain": {"id": self.id, "version": self.version(), "fingerprint": fp},
            "op": soc_op.to_json(), "label": pkg.label,
            "provenance": {**provenance, "source_digest": digest_files(sources, pkg.dir, names),
                           # the external repositories its sources come from, as opkg.lock
                           # records them (absent for a package that uses none)
                           **({"repositories": repos} if repos else {})},
        }
        files = {"opkg.yaml": str(pkg.manifest_path), "lib/libhost.so": str(host_lib)}
        for vname, lib in kernel_libs.items():
            files[f"lib/{soc.name}/{vname}/libkernel.so"] = lib
        for vname, rep in reports.items():
            files[f"verification/{vname}.json"] = rep
        actions.append(Action(
            "python", (str(bundle),), tuple(sorted({*files.values(), str(proto)})),
            function="opkg.core.bundle:scons_action",
            params={"output": str(bundle), "metadata": meta, "files": files, "variants": {
                v.name: dict(v.dtypes) for v in soc_op.variants()}},
            target=tid, step="bundle", description=f"bundle {pkg.name} ({soc.name})"))
        target = Target(tid, pkg.label, pkg.name, pkg.version, soc.name, self.id, str(bundle),
                        reports)
        return target, actions


def _kernel_headers(pkg) -> list[Path]:
    """The sources beside the kernel (its directory tree), where the headers it includes live:
    read to tell whether it uses the SIMT API (flags.uses_simt)."""
    root = pkg.kernel_source.parent
    return sorted(p for p in root.rglob("*") if p.suffix in (".h", ".hpp", ".cpp", ".cc", ".inc")
                  and p.is_file() and p != pkg.kernel_source)


def _rel_name(src: Path, pkg, gen_dir: Path) -> str:
    for root in (pkg.dir, gen_dir):
        try:
            return src.relative_to(root).with_suffix("").as_posix()
        except ValueError:
            continue
    for name, root in pkg.repositories:       # a source of an external repository
        if src.is_relative_to(root):
            return f"@{name}/" + src.relative_to(root).with_suffix("").as_posix()
    return src.stem


def _prefix_maps(common: list[str], ws, repositories) -> list[str]:
    """__FILE__ (kernel diagnostics) relative to the workspace, and `@repo//...` in an
    external repository: the same objects, and the same bundles, wherever the checkouts are.
    GCC applies the last matching map, so a repository inside the workspace comes after it."""
    maps = [f"-ffile-prefix-map={ws.root}/="] if ws is not None else []
    maps += [f"-ffile-prefix-map={root}/=@{name}//" for name, root in sorted(set(repositories))]
    return common + maps


def _repositories(ws, pkg, deps) -> dict:
    """Provenance of the external repositories a package's files and deps come from."""
    names = sorted({name for p in (pkg, *deps) for name, _ in p.repositories})
    if not names or ws is None:
        return {}
    out = {}
    for name in names:
        repo = ws.repositories.get(name)
        out[name] = {"source": repo.source, "commit": repo.commit, "tree": repo.tree}
    return out


def _soc_shorts(pkg, ws, soc) -> list[list[str]]:
    """(name, CANN short name) of every SoC the package declares: AddConfig names shorts."""
    from opkg.core.socs import soc_table

    table = ws.socs if ws is not None else soc_table()
    return [[s, soc.short if s == soc.name else table.get_soc(s).short] for s in pkg.socs]


def _portable(path: Path, root: Path, repositories=()) -> str:
    """`path` relative to the workspace root when inside it (the verifier runs there); a file
    of an external repository as `@name/path` (the verifier is told where each is checked out:
    a job restored from the cache, written for another checkout, must not name its files)."""
    for name, repo_root in repositories:
        try:
            return f"@{name}/" + Path(path).relative_to(repo_root).as_posix()
        except ValueError:
            continue
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return str(path)


def untested_report(pkg, soc, variant, why: str) -> dict:
    """The verification report of a variant no case is written for: nothing verified, so not
    a pass; `untested` says why (opkg.build.results reads it as the variant's status)."""
    return {"package": pkg.label, "name": pkg.name, "variant": variant.name, "soc": soc.name,
            "toolchain": "sim", "passed": False, "error": None, "cases": 0, "failed": 0,
            "results": [], "untested": why}


def _verify_job(pkg, op, soc, variant, host_lib: Path, kernel_lib: Path, root: Path,
                modes: SimModes = SimModes(), cases=None, fallback=()) -> dict:
    # a job names no absolute path inside the workspace: its bytes, and so the cache key of
    # the verification, are the same in every checkout
    v = pkg.verify
    # --sync-check, --lenient-copy (or the manifest's verify.sync_check, ...) are runtime
    # switches of the same kernel library: they change the job, so the verification reruns,
    # while nothing recompiles. Default modes leave the job as it was.
    on = (modes | v.modes).to_json()
    return {
        **({"modes": on} if on else {}),
        "package": pkg.label, "name": pkg.name, "op": op.to_json(),
        "variant": variant.name, "soc": soc.to_json(),
        "host_lib": _portable(host_lib, root), "kernel_lib": _portable(kernel_lib, root),
        # workspace-relative: reports travel in bundles, which must not depend on the checkout
        "kernel_source": pkg.source_label(pkg.kernel_source),
        "golden": {"file": _portable(v.golden_file, root, pkg.repositories),
                   "function": v.golden_function,
                   # only when set: other packages' jobs (and so their cache keys) unchanged
                   **({"convention": v.golden_convention} if v.golden_convention else {}),
                   **({"requires": list(v.requires)} if v.requires else {})},
        "seed": v.seed, "timeout": v.timeout,
        "cases": [_job_case(c, variant, soc) for c in (v.cases if cases is None else cases)],
        # run when the SoC refuses every case above (manifest.fallback_cases); only when some
        **({"fallback": [_job_case(c, variant, soc) for c in fallback]} if fallback else {}),
        **({"inplace": list(v.inplace)} if v.inplace else {}),
        **({"outputs_prefill": v.outputs_prefill} if v.outputs_prefill else {}),
        "tolerance": {d: vars(v.tolerance_for(d)) for _, d in variant.dtypes},
    }


def _job_case(c, variant, soc) -> dict:
    return {"name": c.name, "shapes": {k: list(s) for k, s in c.shapes.items()},
            "attrs": c.attrs_for(variant.name),
            "ranges": {k: [list(x) for x in r] if r and isinstance(r[0], tuple) else list(r)
                       for k, r in c.ranges.items()},
            **({"output_shapes": {k: list(s) for k, s in c.output_shapes.items()}}
               if c.output_shapes else {}),
            **({"values": {k: list(x) for k, x in c.values.items()}} if c.values else {}),
            **({"xfail": c.xfail_for(variant.name, soc.name)}
               if c.xfail and c.xfail_for(variant.name, soc.name) else {}),
            # only when set: other packages' jobs (and so their cache keys) unchanged
            **({"if_supported": c.if_supported} if c.if_supported else {})}


@lru_cache(maxsize=1)
def _golden_env(requires) -> str:
    """The golden's declared packages (verify.requires) as this Python has them, with versions:
    installing one re-verifies, so a result that only says the environment lacked it is not
    replayed from the cache once it is there."""
    if not requires:
        return ""
    from importlib import metadata, util

    parts = []
    for name in sorted(requires):
        try:
            found = util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        version = "-"
        if found:
            try:
                version = metadata.version(name)
            except metadata.PackageNotFoundError:
                version = "?"
        parts.append(f"{name}={version}")
    return " golden-env:" + ",".join(parts)


def _runtime_digest() -> str:
    """opkg's own verification and emulation runtime code: a change re-verifies."""
    from opkg.util.memo import once

    return once("sim.runtime_digest", _read_runtime_digest)


def _read_runtime_digest() -> str:
    root = Path(__file__).resolve().parent.parent
    # whole directories: a verifier module added later (artifacts.py was missed) counts too
    files = [*(root / "verify").glob("*.py"), *(root / "sim").glob("*.py")]
    h = hashlib.sha256()
    for f in sorted(files):
        if f.is_file():
            h.update(f.read_bytes())
    return "sha256:" + h.hexdigest()
