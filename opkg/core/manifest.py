"""Package manifests (`opkg.yaml`): YAML with positions -> a validated, frozen `Package`.

Every check happens here, before anything is built, and every failure names file:line:column,
the field, what was expected, and a fix. The workspace module finds manifests; the graph
module checks dependencies between the packages loaded here. docs/manifest.md is the format.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from opkg.core import yamlloc
from opkg.core.errors import ManifestError, did_you_mean, raise_all
from opkg.core.model import (ATTR_TYPES, DTYPE_ALIASES, DTYPES, FORMATS, PARAM_TYPES, AttrSpec,
                             DuplicateVariant, SimModes, OpSpec, TensorSpec)

MANIFEST = "opkg.yaml"
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
OP_TYPE_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
INTERFACE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Per dtype, the threshold of CANN's published precision standard for open-source (ecosystem)
# operators (cann/opbase docs/zh/ops_precision_standard: float32 2^-13, float16 2^-10, bfloat16
# 2^-7), applied in opkg's error-ratio rule as rtol, atol and the share of elements allowed out.
DEFAULT_TOLERANCE = {
    "float32": {"rtol": 2.0 ** -13, "atol": 2.0 ** -13, "error_ratio": 2.0 ** -13},
    "float16": {"rtol": 2.0 ** -10, "atol": 2.0 ** -10, "error_ratio": 2.0 ** -10},
    "bfloat16": {"rtol": 2.0 ** -7, "atol": 2.0 ** -7, "error_ratio": 2.0 ** -7},
    # the standard names no float64 threshold (the device's vector unit has no fp64 math: fp64
    # kernels move data or compute in float32): float32's, as for complex128's parts
    "float64": {"rtol": 2.0 ** -13, "atol": 2.0 ** -13, "error_ratio": 2.0 ** -13},
    # complex: each part is a float of that width
    "complex64": {"rtol": 2.0 ** -13, "atol": 2.0 ** -13, "error_ratio": 2.0 ** -13},
    "complex128": {"rtol": 2.0 ** -13, "atol": 2.0 ** -13, "error_ratio": 2.0 ** -13},
}
EXACT = {"rtol": 0.0, "atol": 0.0, "error_ratio": 0.0}
# Bounds on what a manifest may ask for: a tolerance this wide lets any kernel pass (atol: .inf
# passes one that writes garbage), a timeout this long is a hang nobody waits for.
MAX_TOLERANCE = {"rtol": 1.0, "atol": 1000.0}
TOLERANCE_HINT = ("rtol is a share of |expected| (at most 1), atol an absolute difference (at "
                  "most 1000); the defaults are CANN's precision standard: float32 2^-13 "
                  "(1.220703125e-4), float16 2^-10 (9.765625e-4), bfloat16 2^-7 (7.8125e-3)")
MAX_TIMEOUT = 86400
# Names become file names (lib<name>_<dtype>.so, <name>-<version>-<soc>-<toolchain>.opkg.tgz,
# OCI repositories) and case names directory names: short enough that every path made from
# them fits a file system's 255-byte name limit. A package verifies at most MAX_CASES cases.
MAX_NAME = 64
MAX_OP_TYPE = 128
MAX_CASE_NAME = 128
MAX_CASES = 1000


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    error_ratio: float


@dataclass(frozen=True)
class Case:
    name: str
    shapes: dict[str, tuple]   # dims per input; a tuple of dims per tensor for a dynamic input
    attrs: dict[str, Any]
    # low == high: every element is that constant; a dynamic input may have one per tensor
    ranges: dict[str, tuple[float, float] | tuple[tuple[float, float], ...]]
    # shapes of the outputs when the case states them (an operator without InferShape, or one
    # whose output shape the golden alone cannot settle); {} otherwise
    output_shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # exact element values of an input (row-major, one per element): shapes, modes, paddings
    values: dict[str, tuple] = field(default_factory=dict)
    # attrs whose value depends on the dtype variant: attr -> {variant name: value}
    per_variant: dict[str, dict[str, Any]] = field(default_factory=dict)
    # a known failure (pytest's xfail, strict): (reason, variant patterns, SoCs); () for all
    xfail: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
    # the dtypes the case is written for (tensor -> dtype; {}: any): it runs in the variants that
    # have them, and in every variant when none of the package's cases names that variant's
    # (`cases_for`)
    dtypes: dict[str, str] = field(default_factory=dict)
    # a case the operator may refuse on a SoC (a row of another architecture's table): where its
    # own tiling function returns failure for it, it is skipped, saying why, not failed; the
    # text says where the case comes from. None: every failure counts
    if_supported: str | None = None

    def fits(self, variant, tensors=None) -> bool:
        """Whether the variant has the dtypes this case is written for (of `tensors` only, when
        given)."""
        return all(variant.dtype_of(t) == d for t, d in self.dtypes.items()
                   if tensors is None or t in tensors)

    def xfail_for(self, variant: str, soc: str) -> str | None:
        """The xfail reason that applies to this variant on this SoC, else None."""
        import fnmatch

        if self.xfail is None:
            return None
        reason, variants, socs = self.xfail
        if variants and not any(fnmatch.fnmatchcase(variant, p) for p in variants):
            return None
        if socs and soc not in socs:
            return None
        return reason

    def attrs_for(self, variant: str) -> dict[str, Any]:
        """The attrs one dtype variant runs with."""
        return {**self.attrs, **{a: v[variant] for a, v in self.per_variant.items() if variant in v}}


def cases_for(cases, variant, outputs=()) -> list:
    """The cases a dtype variant runs: those written for its dtypes (Case.dtypes) and those
    written for any; when none is written for it (an ops repository's ttk table with no row of
    that dtype combination), those written for the dtypes of its `outputs` (a row's shape and
    its attrs that name a dtype, such as dst_type, are its outputs': ascend_quant_v2's odd last
    axis, which an int4 `y` refuses); when none fits either, the rows of another
    architecture's table (Case.if_supported: borrowed, each may be refused) and no other: a
    row of the SoC's own table is the repository's test of its dtype combination, and run in
    another its attrs and ranges are another dtype's (gelu_quant's rows quantize to int8,
    whatever the variant's `y`). Such a variant is untested (`untested_reason`), not run with
    rows written for others."""
    fitting = [c for c in cases if c.fits(variant)]
    if not fitting and outputs:
        fitting = [c for c in cases if set(c.dtypes) & set(outputs) and c.fits(variant, set(outputs))]
    return fitting or [c for c in cases if c.if_supported]


def untested_reason(cases, variant, outputs=()) -> str | None:
    """Why a dtype variant runs no case (cases_for gives it none), or None when it runs some
    or the package has none at all."""
    if not cases or cases_for(cases, variant, outputs):
        return None
    written = sorted({", ".join(f"{t} {d}" for t, d in sorted(c.dtypes.items())) for c in cases})
    return (f"untested: none of the {len(cases)} cases is written for its dtypes (they are "
            f"written for {'; '.join(written[:4])}{'; ...' if len(written) > 4 else ''})")


def fallback_cases(cases, variant, outputs=()) -> list:
    """The cases a dtype variant runs when the SoC refuses every one `cases_for` gives it and
    each of those may be refused (`Case.if_supported`): the next of cases_for's choices among
    the others, as for a variant that had none written for it; [] otherwise."""
    chosen = cases_for(cases, variant, outputs)
    rest = [c for c in cases if c not in chosen]
    if not rest or not all(c.if_supported for c in chosen):
        return []
    return cases_for(rest, variant, outputs)


@dataclass(frozen=True)
class VerifySpec:
    golden_file: Path
    golden_function: str
    seed: int
    cases: tuple[Case, ...]
    tolerance: dict[str, Tolerance]
    timeout: float | None = None    # seconds for all cases of one variant
    modes: SimModes = SimModes()    # modes every verification of this package uses (verify.sync_check, ...)
    # inputs the kernel rewrites (an in-place operator): compared after the run with what the
    # golden returns for them after the outputs
    inplace: tuple[str, ...] = ()
    # how the golden is called: None (inputs, then attrs as keywords) or "ttk" (the ops
    # repositories' tests/assets/golden.py: also {input,output}_dtypes, ... as keywords)
    golden_convention: str | None = None
    # Python packages the golden imports beyond opkg's (torch): named when missing
    requires: tuple[str, ...] = ()
    # what output buffers hold before the kernel runs: None (a poison: an element no store
    # writes is a mismatch) or "zero" (as a test that zeroes what the kernel leaves alone:
    # such an element is compared as 0)
    outputs_prefill: str | None = None

    def tolerance_for(self, dtype: str) -> Tolerance:
        if dtype in self.tolerance:
            return self.tolerance[dtype]
        return Tolerance(**DEFAULT_TOLERANCE.get(dtype, EXACT))


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    summary: str
    label: str                      # //packages/layernorm
    dir: Path                       # absolute
    manifest_path: Path
    op: OpSpec | None               # None: a library package (headers, and host sources)
    tiling_sources: tuple[Path, ...] = ()
    tiling_data: Path | None = None
    tiling_function: str | None = None
    kernel_source: Path | None = None
    socs: tuple[str, ...] = ()
    toolchain_pins: dict = field(default_factory=dict)   # {"cann": spec|None, "driver": spec|None}
    deps: tuple[str, ...] = ()      # labels
    include_dirs: tuple[Path, ...] = ()
    verify: VerifySpec | None = None
    # where each dep and the op type are written, for errors found later (graph, workspace)
    locations: dict = field(default_factory=dict, compare=False, repr=False)
    # tiling.libraries: groups of tiling_sources CANN links into separate host libraries
    tiling_libraries: tuple[tuple[Path, ...], ...] = ()
    # a library only (a library package's host_sources:, or an external repository's library,
    # opkg/core/external/libraries.py): sources compiled once into every dependent's host
    # library, and (external libraries) the include directories its kernels see (None:
    # include_dirs)
    host_sources: tuple[Path, ...] = ()
    kernel_include_dirs: tuple[Path, ...] | None = None
    # what a library's host_sources are compiled with besides its include_dirs and its deps';
    # not given to dependents (the directories private to those sources)
    host_include_dirs: tuple[Path, ...] = ()
    # external repositories this package's files or deps come from: (name, root)
    repositories: tuple[tuple[str, Path], ...] = ()
    # where an imported package's sources come from (`origin:`): repository, commit, path
    origin: tuple[tuple[str, str], ...] = ()

    @property
    def is_operator(self) -> bool:
        return self.op is not None

    @property
    def kernel_includes(self) -> tuple[Path, ...]:
        return self.include_dirs if self.kernel_include_dirs is None else self.kernel_include_dirs

    def source_label(self, path: Path) -> str:
        """How reports and provenance name a file: workspace-relative inside the package,
        `@repo//path` in an external repository (never an absolute path of this machine)."""
        path = Path(path)
        if path.is_relative_to(self.dir) and not self.label.startswith("@"):
            return f"{self.label[2:]}/{path.relative_to(self.dir).as_posix()}"
        for name, root in self.repositories:
            if path.is_relative_to(root):
                return f"@{name}//{path.relative_to(root).as_posix()}"
        return path.as_posix()

    def source_files(self) -> tuple[Path, ...]:
        files = [self.manifest_path, *self.tiling_sources, *self.host_sources]
        for extra in (self.tiling_data, self.kernel_source):
            if extra is not None:
                files.append(extra)
        if self.verify is not None:
            files.append(self.verify.golden_file)
        return tuple(files)


def golden_callables(tree: ast.Module) -> list[str]:
    """The names a golden reference may give in a golden file: its top-level functions, and
    `Class.member` for what a top-level class defines or assigns (the ops repositories' TestSpec
    classes: `golden = staticmethod(fn)`, `def golden(...)`)."""
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    names.append(f"{node.name}.{member.name}")
                elif isinstance(member, ast.Assign):
                    names += [f"{node.name}.{t.id}" for t in member.targets
                              if isinstance(t, ast.Name)]
    return names


# verify.golden_convention values (opkg/verify/runner.py _convention_kwargs)
GOLDEN_CONVENTIONS = ("ttk",)
# verify.outputs_prefill values
OUTPUT_PREFILLS = ("zero",)
TOP_KEYS = ("name", "version", "summary", "origin", "op", "tiling", "kernel", "socs", "toolchain", "deps",
            "include_dirs", "host_sources", "host_include_dirs", "verify")
# a library package's own host code (Bazel's cc_library srcs): compiled once, linked into every
# dependent operator's host library; an operator lists its host sources under tiling.sources
LIBRARY_ONLY_KEYS = ("host_sources", "host_include_dirs")


def load_package(manifest_path: Path, label: str, *, known_socs, default_socs=(),
                 repositories=None) -> Package:
    """`repositories` (opkg.core.external.libraries.Repositories) resolves `@repo//...` labels."""
    doc = yamlloc.load(manifest_path)
    return _Validator(doc, manifest_path.parent.resolve(), known_socs,
                      repositories).package(label, default_socs)


class _Validator:
    def __init__(self, doc: yamlloc.Document, pkg_dir: Path, known_socs, repositories=None):
        self.doc = doc
        self.dir = pkg_dir
        self.known_socs = known_socs
        self.errors: list[ManifestError] = []
        self.repos = repositories
        self.used_repos: dict[str, Path] = {}    # external repositories the manifest names

    def collect(self, check, *args, default=None):
        """Run one check that does not depend on another; its error is kept (reported with the
        rest at the end, as a compiler does) and `default` stands in for its value."""
        try:
            return check(*args)
        except ManifestError as exc:
            self.errors.append(exc)
            return default

    # -- generic shape checks -------------------------------------------------------------

    def err(self, where, message, hint=None, at_key=False) -> ManifestError:
        return self.doc.error(where, message, hint, at_key)

    def mapping(self, value, where, allowed, required=()) -> dict:
        if not isinstance(value, dict):
            raise self.err(where, f"expected a mapping, got {_kind(value)}",
                           f"write it as 'key: value' lines; allowed keys: {', '.join(allowed)}")
        problems = []
        for key in value:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or f"allowed keys: {', '.join(allowed)}"
                problems.append(self.err(where + (key,), f"unknown key {key!r}", hint,
                                         at_key=True))
        for key in required:
            if key not in value or value[key] is None:
                problems.append(self.err(where, f"missing required key {key!r}",
                                         f"add '{key}:' (see docs/manifest.md)"))
        raise_all(problems)
        return value

    def string(self, value, where, pattern=None, what="a string", max_len=None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.err(where, f"expected {what}, got {_kind(value)}")
        if max_len is not None and len(value) > max_len:
            raise self.err(where, f"{value[:40]!r}... is {len(value)} characters long; at most "
                                  f"{max_len}", "names become file names; use a shorter one")
        if pattern is not None and not pattern.match(value):
            raise self.err(where, f"{value!r} is not {what}")
        return value

    def seq(self, value, where, what="a list") -> list:
        if not isinstance(value, list):
            raise self.err(where, f"expected {what}, got {_kind(value)}",
                           "write a YAML list: [a, b] or one '- item' per line")
        return value

    def word(self, value, where, what: str) -> str:
        """A name looked up in a table: it must be a string before it can be looked up."""
        if not isinstance(value, str):
            raise self.err(where, f"expected {what}, got {_kind(value)}")
        return value

    def number(self, value, where, *, minimum=None, maximum=None, why: str | None = None,
               finite: bool = True) -> float:
        # PyYAML (YAML 1.1) reads '1e-5' as a string; accept it since users write it that way.
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.err(where, f"expected a number, got {_kind(value)}")
        try:
            number = float(value)
        except OverflowError:            # an integer with hundreds of digits
            number = math.inf
        if finite and not math.isfinite(number):
            # .nan compares false with everything, so it would slip past every bound below
            raise self.err(where, f"must be a finite number, got {value}",
                           why or "write an ordinary number")
        if minimum is not None and number < minimum:
            raise self.err(where, f"must be >= {minimum}, got {value}", why)
        if maximum is not None and number > maximum:
            raise self.err(where, f"must be <= {maximum:g}, got {value}", why)
        return number

    def external(self, value, where, kind: str) -> Path:
        """`@repo//path/in/repo`: a file or directory of an external repository, used where
        it is (never copied); the repository is made present on first use."""
        from opkg.core.external import spec

        try:
            repo, rel = spec.parse_path_label(value)
        except spec.LabelSyntaxError as exc:
            raise self.err(where, exc.message, exc.hint) from None
        known = self.repos.specs if self.repos is not None else {}
        if repo not in known:
            raise spec.unknown_repository(repo, known, self.doc.loc(where),
                                          yamlloc.dotted(where))
        root = self.repos.root(repo)
        path = (root / rel).resolve() if rel else root
        if not path.is_relative_to(root.resolve()):
            raise self.err(where, f"{value!r} leads outside repository {repo!r}",
                           "a link inside the repository may not point out of it")
        ok = path.is_file() if kind == "file" else path.is_dir()
        if not ok:
            raise self.err(where, f"{kind} not found: {value} (in {root})",
                           f"paths after // are relative to the root of repository {repo!r}")
        self.used_repos[repo] = root
        return path

    def dep(self, value, where) -> str:
        """A package label, or `@repo//:library` (checked against the workspace file here)."""
        from opkg.core.external import spec

        text = self.string(value, where, what="a package label like //packages/common")
        if not spec.is_external(text):
            return text
        try:
            repo, lib = spec.parse_library_label(text)
        except spec.LabelSyntaxError as exc:
            raise self.err(where, exc.message, exc.hint) from None
        known = self.repos.specs if self.repos is not None else {}
        loc, fld = self.doc.loc(where), yamlloc.dotted(where)
        if repo not in known:
            raise spec.unknown_repository(repo, known, loc, fld)
        if lib not in known[repo].libraries:
            raise spec.unknown_library(known[repo], lib, loc, fld)
        self.used_repos[repo] = self.repos.root(repo)
        return text

    def file(self, value, where, suffixes=None) -> Path:
        if isinstance(value, str) and value.startswith("@"):
            path = self.external(value, where, "file")
            if suffixes and path.suffix not in suffixes:
                raise self.err(where, f"{value!r} should end in one of {', '.join(suffixes)}")
            return path
        rel = self.string(value, where, what="a path relative to the package")
        path = (self.dir / rel).resolve()
        if Path(rel).is_absolute() or not path.is_relative_to(self.dir):
            raise self.err(where, f"{rel!r} is outside the package directory",
                           "package files must live inside the package")
        if not path.is_file():
            near = did_you_mean(rel, [str(p.relative_to(self.dir)) for p in self.dir.rglob("*")
                                      if p.is_file()])
            raise self.err(where, f"file not found: {rel}", near or f"create {self.dir / rel}")
        if suffixes and path.suffix not in suffixes:
            raise self.err(where, f"{rel!r} should end in one of {', '.join(suffixes)}")
        return path

    # -- the manifest ---------------------------------------------------------------------

    def package(self, label: str, default_socs) -> Package:
        """The Package, or every error the manifest has: each section is checked even when
        another failed (a section that needs a failed one, such as verify needing op, is not)."""
        c = self.collect
        data = self.doc.data
        if not isinstance(data, dict):
            self.mapping(data, (), TOP_KEYS)          # raises: the manifest is not a mapping
        c(self.mapping, data, (), TOP_KEYS, ("name", "version"))
        name = c(self.string, data["name"], ("name",), NAME_RE,
                 "a package name: lower case letters, digits and '_', starting with a letter",
                 MAX_NAME) \
            if data.get("name") is not None else None
        version = c(self.version, data["version"]) if data.get("version") is not None else None
        summary = c(self.string, data.get("summary", name), ("summary",), default="") \
            if "summary" in data else ""
        op = c(self.op, data["op"]) if data.get("op") is not None else None
        deps = c(lambda: tuple(
            self.dep(d, ("deps", i))
            for i, d in enumerate(self.seq(data.get("deps") or [], ("deps",)))), default=())
        include_dirs = c(lambda: tuple(
            self.directory(d, ("include_dirs", i))
            for i, d in enumerate(self.seq(data.get("include_dirs") or [], ("include_dirs",)))),
            default=())
        pins = c(self.pins, data.get("toolchain"), default={"cann": None, "driver": None})
        locations = {f"deps[{i}]": self.doc.loc(("deps", i)) for i in range(len(deps))}
        locations["name"] = self.doc.loc(("name",))
        locations["op.type"] = self.doc.loc(("op", "type"))
        if pins.get("driver"):
            locations["toolchain.driver"] = self.doc.loc(("toolchain", "driver"))
        if data.get("op") is None:
            for key in ("tiling", "kernel", "verify", "socs"):
                if data.get(key) is not None:
                    self.errors.append(self.err(
                        (key,), f"'{key}' needs an 'op:' section",
                        "a package without 'op:' is a library (include_dirs, host_sources); "
                        "add 'op:' to make it an operator package"))
            host_sources = c(lambda: tuple(
                self.file(s, ("host_sources", i), (".cpp", ".cc", ".cxx"))
                for i, s in enumerate(self.seq(data.get("host_sources") or [],
                                               ("host_sources",)))), default=())
            host_include_dirs = c(lambda: tuple(
                self.directory(d, ("host_include_dirs", i))
                for i, d in enumerate(self.seq(data.get("host_include_dirs") or [],
                                               ("host_include_dirs",)))), default=())
            raise_all(self.errors)
            return Package(name, version, summary, label, self.dir, self.doc.path, None,
                           deps=deps, include_dirs=include_dirs, toolchain_pins=pins,
                           locations=locations, host_sources=host_sources,
                           host_include_dirs=host_include_dirs,
                           repositories=tuple(sorted(self.used_repos.items())))
        for key in LIBRARY_ONLY_KEYS:
            if data.get(key) is not None:
                self.errors.append(self.err(
                    (key,), f"'{key}' is for library packages (no 'op:')",
                    "an operator package lists its host sources under tiling.sources and its "
                    "include directories under include_dirs"))
        for key in ("tiling", "kernel", "verify"):
            if data.get(key) is None:
                self.errors.append(self.err((), f"missing required key {key!r} for an operator "
                                                "package", "see docs/manifest.md"))
        sources, tiling_data, function, libraries = c(self.tiling, data["tiling"],
                                                      default=((), None, None, ())) \
            if data.get("tiling") is not None else ((), None, None, ())
        kernel_source = c(self.kernel, data["kernel"], op) \
            if data.get("kernel") is not None else None
        if data.get("socs") is not None:
            socs = c(self.socs, data["socs"], default=())
        else:
            socs = tuple(default_socs)
            if not socs:
                self.errors.append(self.err((), "no SoCs: add 'socs: [Ascend910B1]' or set "
                                                "default_socs in the workspace file"))
        verify = c(self.verify, data["verify"], op) \
            if data.get("verify") is not None and op is not None else None
        origin = c(self.origin, data["origin"], default=()) if "origin" in data else ()
        raise_all(self.errors)
        return Package(name, version, summary, label, self.dir, self.doc.path, op, sources,
                       tiling_data, function, kernel_source, socs, pins, deps, include_dirs,
                       verify, locations, libraries,
                       repositories=tuple(sorted(self.used_repos.items())),
                       origin=origin)

    def origin(self, value) -> tuple:
        """`origin: {repository, commit, path}`: the provenance `opkg import` records for a
        package whose sources stay in a repository."""
        keys = ("repository", "commit", "path")
        data = self.mapping(value, ("origin",), keys, required=("repository", "path"))
        for key in keys:
            if key in data and not isinstance(data[key], str):
                raise self.err(("origin", key), f"expected a string, got {data[key]!r}")
        return tuple((k, data[k]) for k in keys if k in data)

    def tiling(self, value) -> tuple:
        tiling = self.mapping(value, ("tiling",), ("sources", "data", "function", "libraries"),
                              required=("sources",))
        sources = tuple(self.file(s, ("tiling", "sources", i), (".cpp", ".cc", ".cxx"))
                        for i, s in enumerate(self.seq(tiling["sources"], ("tiling", "sources"))))
        if not sources:
            raise self.err(("tiling", "sources"), "needs at least one host source file")
        tiling_data = self.file(tiling["data"], ("tiling", "data"), (".h", ".hpp")) \
            if tiling.get("data") is not None else None
        function = self.string(tiling["function"], ("tiling", "function"),
                               re.compile(r"^[A-Za-z_][\w:]*$"), "a C++ function name") \
            if tiling.get("function") is not None else None
        libraries = self.tiling_libraries(tiling["libraries"], sources) \
            if tiling.get("libraries") is not None else ()
        return sources, tiling_data, function, libraries

    def tiling_libraries(self, value, sources: tuple[Path, ...]) -> tuple[tuple[Path, ...], ...]:
        """Groups of tiling.sources that CANN links into separate host libraries (a project's
        CMake targets `optiling` and `opsproto`): each source in one group at most."""
        where = ("tiling", "libraries")
        groups, seen = [], {}
        for i, group in enumerate(self.seq(value, where, "a list of lists of tiling.sources")):
            paths = []
            for j, s in enumerate(self.seq(group, (*where, i), "a list of tiling.sources")):
                path = self.file(s, (*where, i, j), (".cpp", ".cc", ".cxx"))
                if path not in sources:
                    raise self.err((*where, i, j), f"{s!r} is not one of tiling.sources",
                                   "list each source in tiling.sources too")
                if path in seen:
                    raise self.err((*where, i, j), f"{s!r} is already in library {seen[path]}",
                                   "a source belongs to one host library")
                seen[path] = i
                paths.append(path)
            groups.append(tuple(paths))
        return tuple(groups)

    def kernel(self, value, op: OpSpec | None) -> Path:
        kernel = self.mapping(value, ("kernel",), ("source",), required=("source",))
        source = self.file(kernel["source"], ("kernel", "source"), (".cpp", ".cc", ".cxx"))
        if op is not None:              # the entry is named after the op type
            self.kernel_entry(source, op)
        return source

    def version(self, value) -> str:
        from packaging.version import InvalidVersion, Version

        if isinstance(value, float):
            # YAML reads `version: 1.10` as the number 1.1: refuse rather than change it
            raise self.err(("version",), f"version is the number {value!r} to YAML",
                           "quote it so YAML keeps every digit: version: \"1.10\"")
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        text = self.string(text, ("version",), what="a version")
        try:
            Version(text)
        except InvalidVersion:
            raise self.err(("version",), f"{text!r} is not a PEP 440 version",
                           "use a form like 1.0.0, 1.2, 2.0.0rc1") from None
        return text

    def directory(self, value, where) -> Path:
        if isinstance(value, str) and value.startswith("@"):
            return self.external(value, where, "directory")
        rel = self.string(value, where, what="a directory relative to the package")
        path = (self.dir / rel).resolve()
        if not path.is_relative_to(self.dir) or not path.is_dir():
            raise self.err(where, f"not a directory inside the package: {rel}")
        return path

    def pins(self, value) -> dict:
        if value is None:
            return {"cann": None, "driver": None}
        data = self.mapping(value, ("toolchain",), ("cann", "driver"))
        pins = {}
        for key in ("cann", "driver"):
            spec = data.get(key)
            if isinstance(spec, (int, float)) and not isinstance(spec, bool):
                raise self.err(("toolchain", key), f"{spec!r} is a number to YAML, not a "
                               "version specifier",
                               f"quote it and say which versions: {key}: \">=8.0.RC2,<8.3\"")
            if spec is not None:
                spec = self.string(spec, ("toolchain", key), what="a version specifier")
                self.check_pin(key, spec)
            pins[key] = spec
        return pins

    def check_pin(self, key: str, spec: str) -> None:
        try:
            from opkg.core import versions
        except ImportError:    # the version checker is optional until it lands
            return
        from opkg.core.errors import VersionError

        parse = getattr(versions, "parse_cann_spec" if key == "cann" else "parse_driver_spec",
                        None)
        if parse is None:
            return
        try:
            parse(spec)
        except VersionError as exc:
            raise self.err(("toolchain", key), exc.message, exc.hint) from None

    def op(self, value) -> OpSpec:
        data = self.mapping(value, ("op",), ("type", "inputs", "outputs", "attrs", "soc_configs",
                                             "interface"),
                            required=("type", "inputs", "outputs"))
        op_type = self.string(data["type"], ("op", "type"), OP_TYPE_RE,
                              "an op type in CamelCase, like LayerNormCustom", MAX_OP_TYPE)
        interface = ""
        if data.get("interface") is not None:
            interface = self.string(data["interface"], ("op", "interface"), INTERFACE_RE,
                                    "the kernel function's name, a C identifier",
                                    MAX_OP_TYPE)
        inputs = self.tensors(data["inputs"], ("op", "inputs"))
        outputs = self.tensors(data["outputs"], ("op", "outputs"))
        if not outputs and not inputs:
            raise self.err(("op", "outputs"), "an operator needs at least one tensor")
        names = {}
        for where, t in [(("op", "inputs", i), t) for i, t in enumerate(inputs)] + \
                        [(("op", "outputs", i), t) for i, t in enumerate(outputs)]:
            if t.name in names:
                first = names[t.name]
                if first[1] == "inputs" and where[1] == "outputs":
                    self.ref_tensor(inputs[first[2]], t, where)
                else:
                    raise self.err(where + ("name",), f"tensor name {t.name!r} is used twice",
                                   f"{where[1]} names must be unique (an output may share the "
                                   "name of an input: a ref tensor)")
            names[t.name] = where
        self.variant_lists(inputs, outputs, ("op",))
        soc_configs = []
        raw = data.get("soc_configs") or {}
        if not isinstance(raw, dict):
            raise self.err(("op", "soc_configs"), f"expected a mapping, got {_kind(raw)}",
                           "one entry per CANN short SoC name: ascend310p: {inputs: [...], outputs: [...]}")
        for short, cfg in raw.items():
            w = ("op", "soc_configs", short)
            if not isinstance(short, str) or not re.match(r"^[a-z][a-z0-9_]*$", short):
                raise self.err(w, f"{short!r} is not a CANN short SoC name",
                               "use the name AddConfig takes, e.g. ascend310p")
            c = self.mapping(cfg, w, ("inputs", "outputs"), required=("inputs", "outputs"))
            ins, outs = self.tensors(c["inputs"], w + ("inputs",)), self.tensors(c["outputs"], w + ("outputs",))
            for group, mine, theirs in (("inputs", inputs, ins), ("outputs", outputs, outs)):
                if [t.name for t in theirs] != [t.name for t in mine]:
                    raise self.err(w + (group,), f"names {[t.name for t in theirs]} differ from op.{group} "
                                   f"{[t.name for t in mine]}",
                                   "a SoC config lists every tensor of the op, in the same order, "
                                   "with that SoC's dtypes and formats")
            self.variant_lists(ins, outs, w)
            soc_configs.append((short, ins, outs))
        attrs = tuple(self.attr(a, ("op", "attrs", i))
                      for i, a in enumerate(self.seq(data.get("attrs") or [], ("op", "attrs"))))
        seen = set()
        for i, a in enumerate(attrs):
            if a.name in seen or a.name in names:
                raise self.err(("op", "attrs", i, "name"), f"name {a.name!r} is used twice")
            seen.add(a.name)
        return OpSpec(op_type, inputs, outputs, attrs, tuple(soc_configs), interface)

    def ref_tensor(self, given: TensorSpec, t: TensorSpec, where) -> None:
        """An output named like an input is CANN's ref tensor: one buffer the kernel gets at
        both positions, so the two must describe the same tensor. Both dynamic is a dynamic ref
        tensor: one tensor list, each of its tensors rewritten in place (ScatterList's `var`)."""
        kinds = (given.param_type, t.param_type)
        if kinds not in (("required", "required"), ("dynamic", "dynamic")):
            odd = next(k for k in kinds if k not in ("required", "dynamic")) \
                if set(kinds) - {"required", "dynamic"} else "dynamic and the other required"
            raise self.err(where + ("name",), f"{t.name!r} is an input and an output (a ref "
                           f"tensor), but one of them is {odd}",
                           "a ref tensor is one buffer (both param_type: required) or one "
                           "tensor list (both param_type: dynamic)")
        if (given.dtypes, given.formats) != (t.dtypes, t.formats):
            raise self.err(where + ("name",), f"{t.name!r} is an input and an output (a ref "
                           "tensor), but their dtypes or formats differ",
                           "a ref tensor is one buffer: give the output the input's dtypes and "
                           "formats")

    def variant_lists(self, inputs, outputs, where) -> None:
        """dtype lists of one length (or one entry) across tensors; formats one or per dtype."""
        counts = {len(t.dtypes) for t in inputs + outputs} - {1}
        if len(counts) > 1:
            raise self.err(where, "dtype lists have different lengths: "
                           + ", ".join(f"{t.name}={len(t.dtypes)}" for t in inputs + outputs),
                           "dtypes are matched by position across tensors (variant i uses "
                           "dtypes[i] of every tensor); give each list the same length, or one "
                           "entry to share it")
        n = counts.pop() if counts else 1
        for i, t in enumerate(inputs + outputs):
            if len(t.formats) not in (1, n):
                group = "inputs" if i < len(inputs) else "outputs"
                idx = i if i < len(inputs) else i - len(inputs)
                raise self.err(where + (group, idx, "formats"),
                               f"{len(t.formats)} formats for {n} dtype variants",
                               "give one format, or one per dtype")
        try:
            OpSpec("_", tuple(inputs), tuple(outputs)).variants()
        except DuplicateVariant as e:
            # at the repeated position of the first tensor with a list of several dtypes
            k = next(i for i, t in enumerate(inputs + outputs) if len(t.dtypes) > 1)
            at = (("inputs", k) if k < len(inputs) else ("outputs", k - len(inputs)))
            raise self.err(where + at + ("dtypes", e.position), str(e),
                           "each position of the dtype lists is one kernel: remove the repeated "
                           "one") from None

    def tensors(self, value, where) -> tuple[TensorSpec, ...]:
        out = []
        for i, item in enumerate(self.seq(value, where)):
            w = where + (i,)
            t = self.mapping(item, w, ("name", "dtypes", "formats", "param_type"),
                             required=("name", "dtypes"))
            name = self.string(t["name"], w + ("name",), IDENT_RE, "a C identifier")
            dtypes = tuple(self.dtype(d, w + ("dtypes", j))
                           for j, d in enumerate(self.seq(t["dtypes"], w + ("dtypes",))))
            if not dtypes:
                raise self.err(w + ("dtypes",), "needs at least one dtype")
            formats = tuple(self.format(f, w + ("formats", j)) for j, f in
                            enumerate(self.seq(t.get("formats", ["ND"]), w + ("formats",))))
            param_type = self.word(t.get("param_type", "required"), w + ("param_type",),
                                   "required, optional or dynamic")
            if param_type not in PARAM_TYPES:
                raise self.err(w + ("param_type",), f"unknown param_type {param_type!r}",
                               did_you_mean(param_type, PARAM_TYPES)
                               or f"one of: {', '.join(PARAM_TYPES)}")
            out.append(TensorSpec(name, dtypes, formats or ("ND",), param_type))
        return tuple(out)

    def dtype(self, value, where) -> str:
        self.word(value, where, "a dtype name such as float16")
        if value in DTYPES:
            return value
        if value in DTYPE_ALIASES:
            raise self.err(where, f"dtype {value!r} is spelt {DTYPE_ALIASES[value]!r} here",
                           f"did you mean '{DTYPE_ALIASES[value]}'?")
        raise self.err(where, f"unknown dtype {value!r}",
                       did_you_mean(value, DTYPES) or f"known dtypes: {', '.join(DTYPES)}")

    def format(self, value, where) -> str:
        self.word(value, where, "a format name such as ND")
        if value in FORMATS:
            return value
        raise self.err(where, f"unknown format {value!r}",
                       did_you_mean(value, FORMATS) or f"known formats: {', '.join(FORMATS)}")

    def attr(self, value, where) -> AttrSpec:
        a = self.mapping(value, where, ("name", "type", "default", "required"),
                         required=("name", "type"))
        name = self.string(a["name"], where + ("name",), IDENT_RE, "a C identifier")
        kind = self.word(a["type"], where + ("type",), "an attr type such as float")
        if kind not in ATTR_TYPES:
            raise self.err(where + ("type",), f"unknown attr type {kind!r}",
                           did_you_mean(kind, ATTR_TYPES) or f"one of: {', '.join(ATTR_TYPES)}")
        required = a.get("required", False)
        if not isinstance(required, bool):
            raise self.err(where + ("required",), "expected true or false")
        default = a.get("default")
        if default is None and not required:
            raise self.err(where, f"attr {name!r} needs a default or 'required: true'")
        if default is not None:
            default = self.attr_value(kind, default, where + ("default",))
        return AttrSpec(name, kind, default, required)

    def attr_value(self, kind: str, value, where):
        if kind.startswith("list_"):
            return [self.attr_value(kind[5:], v, where + (i,))
                    for i, v in enumerate(self.seq(value, where))]
        if kind == "float":
            return self.number(value, where, finite=False)   # a clamp bound may well be .inf
        if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            return value
        if kind == "bool" and isinstance(value, bool):
            return value
        if kind == "str" and isinstance(value, str):
            return value
        raise self.err(where, f"expected a {kind} value, got {_kind(value)}")

    def kernel_entry(self, source: Path, op: OpSpec) -> None:
        """The kernel must define `snake_case(op type)` as a __global__ function: a one-letter
        mismatch here is 'operator not found' on the device, so catch it at load time."""
        text = source.read_text(errors="replace")
        found = {m.group(1): text.count("\n", 0, m.start()) + 1
                 for m in re.finditer(r"__global__[^;{(]*?\b(\w+)\s*\(", text)}
        if op.kernel_name in found:
            return
        # a macro that expands to the qualifiers, from a header (ops-nn's `KERNEL_API void elu(`,
        # common/inc/op_kernel/platform.h): the header is only reachable through include
        # directories, so the compile checks the expansion (a missing entry fails its link)
        if re.search(rf"^[ \t]*[A-Z][A-Z0-9_]*[ \t]+void[ \t]+{re.escape(op.kernel_name)}[ \t]*\(", text, re.M):
            return
        rel = source.relative_to(self.dir) if source.is_relative_to(self.dir) else source.name
        if found:
            name, line = next(iter(found.items()))
            raise self.err(("op", "type"),
                           f"kernel entry mismatch: op type {op.type!r} needs a kernel function "
                           f"named {op.kernel_name!r}, but {rel}:{line} defines {name!r}",
                           f"rename the kernel function to {op.kernel_name!r} or the op type to "
                           "match it (the kernel entry is snake_case(op type), or op.interface "
                           "when given: CANN's opInterface)")
        raise self.err(("kernel", "source"), f"{rel} defines no __global__ kernel function",
                       f"define extern \"C\" __global__ __aicore__ void {op.kernel_name}(...)")

    def socs(self, value) -> tuple[str, ...]:
        out = []
        for i, soc in enumerate(self.seq(value, ("socs",))):
            self.word(soc, ("socs", i), "a SoC name such as Ascend910B1")
            if soc not in self.known_socs:
                raise self.err(("socs", i), f"unknown SoC {soc!r}",
                               did_you_mean(soc, self.known_socs)
                               or "known SoCs are listed in toolchains/socs.yaml")
            if soc in out:
                raise self.err(("socs", i), f"SoC {soc!r} is listed twice")
            out.append(soc)
        return tuple(out)

    def verify(self, value, op: OpSpec) -> VerifySpec:
        w = ("verify",)
        mode_keys = tuple(f.name for f in fields(SimModes))
        data = self.mapping(value, w, ("golden", "seed", "cases", "tolerance", "timeout", "inplace",
                                       "golden_convention", "requires", "outputs_prefill")
                            + mode_keys, required=("golden", "cases"))
        convention = data.get("golden_convention")
        if convention is not None and convention not in GOLDEN_CONVENTIONS:
            raise self.err(w + ("golden_convention",), f"unknown golden convention {convention!r}",
                           f"one of: {', '.join(GOLDEN_CONVENTIONS)} (ttk: the ops repositories' "
                           "tests/assets/golden.py), or leave it out")
        prefill = data.get("outputs_prefill")
        if prefill is not None and prefill not in OUTPUT_PREFILLS:
            raise self.err(w + ("outputs_prefill",), f"unknown output prefill {prefill!r}",
                           "zero (elements the kernel never stores are compared as 0), or leave "
                           "it out (they are mismatches)")
        requires = tuple(self.seq(data.get("requires") or [], w + ("requires",),
                                  "a list of Python package names"))
        for i, name in enumerate(requires):
            if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise self.err(w + ("requires", i), f"{name!r} is not a Python module name",
                               "the name the golden imports, e.g. torch")
        for key in mode_keys:
            if not isinstance(data.get(key, False), bool):
                raise self.err(w + (key,), "expected true or false")
        modes = SimModes(**{key: data.get(key, False) for key in mode_keys})
        timeout = self.number(data["timeout"], w + ("timeout",), minimum=1,
                              maximum=MAX_TIMEOUT, why=f"seconds for all cases of one variant, "
                              f"1 to {MAX_TIMEOUT} (a day)") \
            if data.get("timeout") is not None else None
        golden = self.string(data["golden"], w + ("golden",), what="'file.py:function'")
        if golden.count(":") != 1:
            raise self.err(w + ("golden",), f"{golden!r} is not 'file.py:function'",
                           "for example: golden: golden.py:layer_norm")
        file_part, func = golden.split(":")
        golden_file = self.file(file_part, w + ("golden",), (".py",))
        self.golden_function(golden_file, func, w + ("golden",))
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise self.err(w + ("seed",), "expected a non-negative integer seed")
        # every bad case reported, not the first only
        case_errors = len(self.errors)
        listed = self.seq(data["cases"], w + ("cases",))
        if len(listed) > MAX_CASES:
            raise self.err(w + ("cases",), f"{len(listed)} cases; a package verifies at most "
                           f"{MAX_CASES}", "keep the cases that cover distinct shapes, tails "
                           "and attributes; each case runs the kernel once per variant")
        cases = tuple(self.collect(self.case, c, w + ("cases", i), op)
                      for i, c in enumerate(listed))
        if len(self.errors) > case_errors:
            found = self.errors[case_errors:]
            del self.errors[case_errors:]
            raise_all(found)
        if not cases:
            raise self.err(w + ("cases",), "needs at least one case")
        if all(any(_empty(shape) for shape in c.shapes.values()) for c in cases):
            raise self.err(w + ("cases",), "every case has an empty input, so verification "
                           "would check nothing", "keep the empty-shape edge case, and add a "
                           "case with data")
        names = [c.name for c in cases]
        for i, n in enumerate(names):
            if names.index(n) != i:
                raise self.err(w + ("cases", i, "name"), f"case name {n!r} is used twice")
        tolerance = {}
        raw = data.get("tolerance") or {}
        self.mapping(raw, w + ("tolerance",), tuple(DTYPES))
        for dtype, tol in raw.items():
            tw = w + ("tolerance", dtype)
            t = self.mapping(tol, tw, ("rtol", "atol", "error_ratio"))
            base = DEFAULT_TOLERANCE.get(dtype, EXACT)
            tolerance[dtype] = Tolerance(**{
                k: self.number(t[k], tw + (k,), minimum=0, maximum=MAX_TOLERANCE.get(k),
                               why=TOLERANCE_HINT) if k in t else base[k]
                for k in ("rtol", "atol", "error_ratio")})
            if tolerance[dtype].error_ratio > 0.5:
                # a share of wrong elements, so above 1 nothing could ever fail
                raise self.err(tw + ("error_ratio",), "error_ratio is the share of elements "
                               f"allowed to mismatch; {tolerance[dtype].error_ratio} would let "
                               "a wrong kernel pass", "use a small share such as the default, "
                               "float16's 9.765625e-4 (2^-10, CANN's precision standard); at "
                               "most 0.5")
        inplace = self.inplace(data.get("inplace") or [], w + ("inplace",), op, cases)
        return VerifySpec(golden_file, func, seed, cases, tolerance, timeout, modes, inplace,
                          convention, requires, prefill)

    def inplace(self, value, where, op: OpSpec, cases: tuple = ()) -> tuple[str, ...]:
        inputs = [t.name for t in op.inputs]
        names = []
        for i, name in enumerate(self.seq(value, where, "a list of input names")):
            if name not in inputs:
                raise self.err(where + (i,), f"{name!r} is not an input of {op.type}",
                               did_you_mean(str(name), inputs) or f"inputs: {', '.join(inputs)}")
            if name in names:
                raise self.err(where + (i,), f"{name!r} is listed twice",
                               "list each rewritten input once")
            if name in {t.name for t in op.outputs}:
                raise self.err(where + (i,), f"{name!r} is also an output (a ref tensor): it is "
                               "compared as that output already",
                               "leave it out of inplace; the golden returns it as the output")
            kind = next(t.param_type for t in op.inputs if t.name == name)
            if kind == "optional":
                # an optional input a case leaves out has no buffer, so nothing to compare:
                # every case must give it
                for k, c in enumerate(cases):
                    if name not in c.shapes:
                        raise self.err(where[:-1] + ("cases", k, "shapes"),
                                       f"case {c.name!r} leaves out the optional input "
                                       f"{name!r}, which verify.inplace compares after the run; "
                                       "an input that is not passed cannot be compared",
                                       f"give {name!r} a shape in every case, or leave it out "
                                       "of inplace")
            names.append(name)
        if not op.outputs and not names:
            raise self.err(where[:-1], f"{op.type} has no outputs, so verification would compare "
                           "nothing", "list the inputs the kernel rewrites: inplace: [x]; the "
                           "golden returns their expected contents")
        return tuple(names)

    def golden_function(self, path: Path, func: str, where) -> None:
        try:
            tree = ast.parse(path.read_text(), str(path))
        except SyntaxError as exc:
            raise ManifestError(f"golden has a syntax error: {exc.msg}",
                                location=yamlloc.Location(path, exc.lineno or 0,
                                                          exc.offset or 0)) from None
        defined = golden_callables(tree)
        if func not in defined:
            raise self.err(where, f"{path.name} defines no function {func!r}",
                           did_you_mean(func, defined) or f"define def {func}(...) in {path.name}")

    def dims(self, value, where) -> tuple[int, ...]:
        dims = self.seq(value, where, "a list of dimensions")
        for j, d in enumerate(dims):
            if isinstance(d, bool) or not isinstance(d, int) or d < 0:
                raise self.err(where + (j,), f"dimension must be a non-negative integer, got {d!r}")
        return tuple(dims)

    def case(self, value, where, op: OpSpec) -> Case:
        c = self.mapping(value, where, ("name", "shapes", "attrs", "ranges", "output_shapes",
                                        "values", "xfail", "dtypes", "if_supported"),
                         required=("shapes",))
        name = self.string(c.get("name", f"case{where[-1]}"), where + ("name",),
                           max_len=MAX_CASE_NAME)
        inputs = {t.name: t for t in op.inputs}
        shapes_raw = self.mapping(c["shapes"], where + ("shapes",), tuple(inputs))
        shapes = {}
        for tname, t in inputs.items():
            if tname not in shapes_raw:
                if t.param_type == "required":
                    raise self.err(where + ("shapes",), f"no shape for input {tname!r}",
                                   f"add '{tname}: [dims...]'")
                continue
            tw = where + ("shapes", tname)
            if t.param_type == "dynamic":
                # a dynamic input is a list of tensors: one shape per instance
                instances = self.seq(shapes_raw[tname], tw, "a list of shapes, one per tensor "
                                     "of the dynamic input, e.g. [[2, 8], [2, 8]]")
                if not instances or not all(isinstance(x, list) for x in instances):
                    raise self.err(tw, f"{tname!r} is a dynamic input: give a non-empty list of "
                                       "shapes, one per tensor", "e.g. [[2, 8], [2, 8], [2, 8]]")
                shapes[tname] = tuple(self.dims(x, tw + (k,)) for k, x in enumerate(instances))
            else:
                shapes[tname] = self.dims(shapes_raw[tname], tw)
        attr_specs = {a.name: a for a in op.attrs}
        attrs_raw = self.mapping(c.get("attrs") or {}, where + ("attrs",), tuple(attr_specs))
        attrs, per_variant = {}, {}
        for a in op.attrs:
            if isinstance(attrs_raw.get(a.name), dict):
                per_variant[a.name] = self.per_variant(a, attrs_raw[a.name],
                                                       where + ("attrs", a.name), op)
            elif a.name in attrs_raw:
                attrs[a.name] = self.attr_value(a.type, attrs_raw[a.name],
                                                where + ("attrs", a.name))
            elif a.required:
                raise self.err(where + ("attrs",), f"attr {a.name!r} is required")
            else:
                attrs[a.name] = a.default
        ranges_raw = self.mapping(c.get("ranges") or {}, where + ("ranges",), tuple(inputs))
        ranges = {}
        for tname, r in ranges_raw.items():
            rw = where + ("ranges", tname)
            items = self.seq(r, rw, "[low, high]")
            if inputs[tname].param_type == "dynamic" and items and isinstance(items[0], list):
                # a dynamic input: one [low, high] per tensor (an ops repository's ttk rows)
                given = shapes.get(tname)
                if given is not None and len(items) != len(given):
                    raise self.err(rw, f"{len(items)} ranges for the {len(given)} tensors of "
                                   f"{tname!r} in this case",
                                   "one [low, high] per tensor, or one [low, high] for all")
                ranges[tname] = tuple(self.range_pair(x, rw + (k,)) for k, x in enumerate(items))
                continue
            ranges[tname] = self.range_pair(r, rw)
        kinds = {t.name: t.param_type for t in op.outputs}
        out_raw = self.mapping(c.get("output_shapes") or {}, where + ("output_shapes",),
                               tuple(kinds))
        output_shapes = {}
        for t, v in out_raw.items():
            ow = where + ("output_shapes", t)
            if t in inputs:
                raise self.err(ow, f"output {t!r} is also an input (a ref tensor): its shape is "
                               "the input's", f"give the shape in shapes: {{{t}: [...]}}")
            if kinds[t] == "dynamic":     # a list of tensors: one shape each
                items = self.seq(v, ow, "a list of shapes, one per tensor of the dynamic output")
                output_shapes[t] = tuple(self.dims(x, ow + (k,)) for k, x in enumerate(items))
            else:
                output_shapes[t] = self.dims(v, ow)
        values_raw = self.mapping(c.get("values") or {}, where + ("values",), tuple(inputs))
        values = {}
        for tname, v in values_raw.items():
            vw = where + ("values", tname)
            if tname in ranges:
                raise self.err(vw, f"{tname!r} has both values and a range", "keep one")
            if inputs[tname].param_type == "dynamic" or tname not in shapes:
                raise self.err(vw, f"values need a plain input with a shape in this case",
                               f"give {tname!r} a shape in this case's shapes; a dynamic input "
                               "takes ranges, not values")
            count = 1
            for d in shapes[tname]:
                count *= d
            items = self.seq(v, vw, "a list of the tensor's element values")
            if len(items) != count:
                raise self.err(vw, f"{len(items)} values for {tname!r} of shape "
                               f"{list(shapes[tname])}, which has {count} elements",
                               "one value per element, row-major")
            values[tname] = tuple(self.number(x, vw + (k,)) if not isinstance(x, int) or
                                  isinstance(x, bool) else x for k, x in enumerate(items))
        xfail = self.xfail(c["xfail"], where + ("xfail",), op) if "xfail" in c else None
        tensors = {t.name: t for t in (*op.inputs, *op.outputs)}
        dtypes_raw = self.mapping(c.get("dtypes") or {}, where + ("dtypes",), tuple(tensors))
        dtypes = {}
        for tname, d in dtypes_raw.items():
            dw = where + ("dtypes", tname)
            d = self.string(d, dw)
            if d not in DTYPES:
                raise self.err(dw, f"unknown dtype {d!r}", "a dtype of the op's tensors")
            dtypes[tname] = d
        if_supported = c.get("if_supported")
        if if_supported is True:
            if_supported = "may lie outside the operator's contract on a SoC"
        elif if_supported is False:
            if_supported = None
        elif if_supported is not None:
            if_supported = self.string(if_supported, where + ("if_supported",))
        return Case(name, shapes, attrs, ranges, output_shapes, values, per_variant, xfail, dtypes,
                    if_supported)

    def xfail(self, value, where, op: OpSpec):
        """`xfail: true`, `xfail: "reason"` or `xfail: {reason, variants: [...], socs: [...]}`."""
        if value is False or value is None:
            return None
        if value is True:
            return ("expected to fail", (), ())
        if isinstance(value, str):
            return (self.string(value, where), (), ())
        if not isinstance(value, dict):
            raise self.err(where, f"expected true, a reason or a mapping, got {_kind(value)}",
                           'xfail: "why it fails", or xfail: {reason: ..., variants: [float16]}')
        m = self.mapping(value, where, ("reason", "variants", "socs"), required=("reason",))
        variants = tuple(self.string(v, where + ("variants", k)) for k, v in enumerate(
            self.seq(m.get("variants") or [], where + ("variants",))))
        socs = tuple(self.string(v, where + ("socs", k)) for k, v in enumerate(
            self.seq(m.get("socs") or [], where + ("socs",))))
        return (self.string(m["reason"], where + ("reason",)), variants, socs)

    def range_pair(self, value, where) -> tuple[float, float]:
        pair = self.seq(value, where, "[low, high]")
        if len(pair) != 2:
            raise self.err(where, "expected [low, high]")
        lo, hi = self.number(pair[0], where + (0,)), self.number(pair[1], where + (1,))
        if lo > hi:
            raise self.err(where, f"low ({lo}) is above high ({hi})",
                           "[low, high], or [v, v] for an input whose every element is v")
        return (lo, hi)

    def per_variant(self, a, value, where, op: OpSpec) -> dict:
        """`{per_variant: {<variant name>: value, ...}}`: one value per dtype variant (Cast's
        dst_type naming the output dtype of each)."""
        raw = self.mapping(value, where, ("per_variant",), required=("per_variant",))
        names = [v.name for v in op.every_variant()]
        table = self.mapping(raw["per_variant"], where + ("per_variant",), tuple(names))
        missing = [n for n in names if n not in table]
        if missing:
            raise self.err(where + ("per_variant",), f"no value for variant(s) {', '.join(missing)}",
                           f"give one per dtype variant: {', '.join(names)}")
        return {n: self.attr_value(a.type, v, where + ("per_variant", n)) for n, v in table.items()}


def _empty(shape: tuple) -> bool:
    """True when the input (every tensor of a dynamic input) holds no element."""
    if shape and isinstance(shape[0], tuple):
        return all(0 in s for s in shape)
    return 0 in shape


def _kind(value) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: f"the string {value!r}", bool: "a boolean",
            int: f"the number {value}", float: f"the number {value}"}.get(type(value),
                                                                         type(value).__name__)
