"""The workspace: the directory holding `opkg-workspace.yaml`, its settings and its packages.

Finding the root, reading settings, discovering `opkg.yaml` manifests below the package roots
and matching target patterns (labels module) against them. Everything downstream receives
Packages from here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from opkg.core import labels, settings as sections, yamlloc
from opkg.core.settings import DistccSettings
from opkg.core.errors import GraphError, LabelError, ManifestError, did_you_mean, Location, raise_all

if TYPE_CHECKING:   # imported where manifests are read: the null-build fast path reads none
    from opkg.core.manifest import Package
    from opkg.core.socs import SocTable

WORKSPACE_FILE = "opkg-workspace.yaml"
SETTINGS = ("package_roots", "output_dir", "cache_dir", "default_socs", "default_toolchain",
            "registry", "distcc", "remote_cache", "remote_exec", "repositories")


@dataclass(frozen=True)
class Settings:
    package_roots: tuple[Path, ...]
    output_dir: Path
    cache_dir: Path
    default_socs: tuple[str, ...]
    default_toolchain: str | None
    registry: Path | str                    # a directory, or an oci:// URL (registry/oci.py)
    distcc: DistccSettings | None = None    # checked for shape; hosts checked when used
    remote_cache: dict | None = None      # checked, not resolved (opkg/remote/config.py)
    remote_exec: dict | None = None       # the same, for remote execution
    # external repositories (opkg.core.external.spec): name -> RepositorySpec, nothing
    # fetched yet
    repositories: dict = field(default_factory=dict)


def default_cache_dir() -> Path:
    if os.environ.get("OPKG_CACHE_DIR"):
        return Path(os.environ["OPKG_CACHE_DIR"]).expanduser().resolve()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "opkg"


class Workspace:
    def __init__(self, root: Path, settings: Settings, socs: "SocTable"):
        self.root = root
        self.settings = settings
        self.socs = socs          # the SoC table, loaded once with the workspace

    @cached_property
    def releases(self):
        """The CANN release table (core/releases.py), loaded once when first needed."""
        from opkg.core.releases import release_table

        return release_table(self.root)

    @cached_property
    def pins(self) -> dict:
        """Workspace-wide toolchain pins (toolchains/pins.yaml), loaded once when first needed."""
        from opkg.core.pins import load_pins

        return load_pins(self.root)

    @classmethod
    def find(cls, start: Path | None = None) -> "Workspace":
        here = (start or Path.cwd()).resolve()
        for d in (here, *here.parents):
            if (d / WORKSPACE_FILE).is_file():
                return cls.load(d)
        raise ManifestError(f"no {WORKSPACE_FILE} in {here} or any parent directory",
                            hint="run opkg inside a workspace, or make one: opkg init DIR "
                                 f"(or an empty {WORKSPACE_FILE} at its root)")

    @classmethod
    def load(cls, root: Path) -> "Workspace":
        from opkg.core.external import spec as external_spec
        from opkg.core.socs import soc_table

        root = root.resolve()
        doc = yamlloc.load(root / WORKSPACE_FILE)
        data = doc.data or {}
        if not isinstance(data, dict):
            raise doc.error((), "the workspace file must be a mapping of settings",
                            f"allowed settings: {', '.join(SETTINGS)}")
        for key in data:
            if key not in SETTINGS:
                raise doc.error((key,), f"unknown setting {key!r}",
                                did_you_mean(key, SETTINGS) or f"allowed: {', '.join(SETTINGS)}",
                                at_key=True)

        def path_of(key, default):
            value = data.get(key) or default
            if not isinstance(value, str):
                raise doc.error((key,), "expected a path")
            return (root / Path(value).expanduser()).resolve()

        roots = data.get("package_roots") or ["packages"]
        if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
            raise doc.error(("package_roots",), "expected a list of directories")
        package_roots = []
        for i, r in enumerate(roots):
            path = (root / r).resolve()
            if not path.is_relative_to(root):
                raise doc.error(("package_roots", i), f"{r!r} is outside the workspace",
                                "package roots are directories inside the workspace, such as "
                                "'packages'")
            package_roots.append(path)
        socs = data.get("default_socs") or []
        if not isinstance(socs, list):
            raise doc.error(("default_socs",), "expected a list of SoC names")
        known = soc_table(root)
        for i, soc in enumerate(socs):
            if soc not in known:
                raise doc.error(("default_socs", i), f"unknown SoC {soc!r}",
                                did_you_mean(soc, known) or "see toolchains/socs.yaml")
        env_registry = os.environ.get("OPKG_REGISTRY")
        output_dir = path_of("output_dir", "out")
        # `opkg clean` deletes the output directory: it must never be, contain or sit inside
        # the workspace's sources
        unsafe = [root] if root.is_relative_to(output_dir) else []
        unsafe += [p for p in package_roots
                   if p.is_relative_to(output_dir) or output_dir.is_relative_to(p)]
        if unsafe or output_dir.is_file():
            raise doc.error(("output_dir",) if "output_dir" in data else (),
                            f"output_dir {output_dir} overlaps "
                            + (f"{unsafe[0]}" if unsafe else "an existing file"),
                            "use a dedicated directory such as 'out'; it is deleted by "
                            "`opkg clean` and must not hold sources")
        oci_registry = sections.oci_registry_from_workspace(env_registry, data.get("registry"), doc)
        registry = oci_registry or (Path(env_registry).resolve() if env_registry
                                    else path_of("registry", "registry"))
        # `opkg clean` deletes the output directory: a registry there would go with it
        if not oci_registry and registry.is_relative_to(output_dir):
            where = "$OPKG_REGISTRY" if env_registry else "registry"
            message = f"{where} {registry} is inside output_dir {output_dir}"
            hint = ("the output directory is deleted by `opkg clean`; keep the registry "
                    "outside it, e.g. 'registry: registry'")
            if env_registry:
                from opkg.core.errors import UsageError

                raise UsageError(message, field="OPKG_REGISTRY", hint=hint)
            raise doc.error(("registry",), message, hint)
        settings = Settings(
            package_roots=tuple(package_roots),
            output_dir=output_dir,
            # the environment overrides the workspace file, which overrides the default
            cache_dir=default_cache_dir() if os.environ.get("OPKG_CACHE_DIR")
            else path_of("cache_dir", str(default_cache_dir())),
            default_socs=tuple(socs),
            default_toolchain=data.get("default_toolchain"),
            registry=registry,
            distcc=sections.distcc_from_workspace(data.get("distcc"), doc),
            remote_cache=sections.remote_cache_from_workspace(data.get("remote_cache"), doc),
            remote_exec=sections.remote_exec_from_workspace(data.get("remote_exec"), doc),
            repositories=external_spec.from_workspace(data.get("repositories"), doc),
        )
        return cls(root, settings, known)

    # -- packages -------------------------------------------------------------------------

    def rel(self, path: Path) -> str:
        rel = Path(path).resolve().relative_to(self.root).as_posix()
        return "" if rel == "." else rel

    def manifest_paths(self, under: Path | None = None) -> list[Path]:
        """Manifests below the package roots (only below `under`, when given)."""
        from opkg.core.manifest import MANIFEST

        skip = {self.settings.output_dir}
        found = []
        for root in self.settings.package_roots:
            start = root
            if under is not None:
                if under.is_relative_to(root):
                    start = under
                elif not root.is_relative_to(under):
                    continue
            if not start.is_dir() or any(p.startswith(".") for p in
                                         start.relative_to(root).parts):
                continue
            for dirpath, dirnames, filenames in os.walk(start):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                     and Path(dirpath, d) not in skip)
                if MANIFEST in filenames:
                    found.append(Path(dirpath) / MANIFEST)
        return found

    # -- loading: only what a request needs, each manifest on its own (Bazel's loading phase)

    @cached_property
    def repositories(self):
        from opkg.core.external.libraries import Repositories

        return Repositories(self.settings.repositories, self.root, self.settings.cache_dir)

    @cached_property
    def _loader(self) -> "_Loader":
        return _Loader(self)

    def node(self, label: str) -> Package:
        """A loaded package, or an external library node (`@repo//:lib`)."""
        return self._loader.nodes[label]

    def deps_of(self, label: str) -> list[Package]:
        """The loaded dependencies of `label`, nearest first (libraries included)."""
        return [self.node(d) for d in self._loader.graph().deps(label)]

    @cached_property
    def packages(self) -> dict[str, Package]:
        """Every package of the workspace; any manifest's error is raised (all together)."""
        loader = self._loader
        manifests = self.manifest_paths()
        labels_ = [labels.label_for(self.rel(m.parent)) for m in manifests]
        loader.load(labels_, all_manifests=manifests)
        raise_all(_flat([loader.broken[l] for l in labels_ if l in loader.broken]))
        return {l: loader.nodes[l] for l in labels_}

    @cached_property
    def graph(self):
        from opkg.core.graph import Graph

        nodes = dict(self.packages)
        for pkg in self.packages.values():
            for dep in pkg.deps:
                if dep.startswith("@"):
                    nodes[dep] = self.repositories.library(dep)
        return Graph(nodes)

    def no_match_hint(self, target: str) -> str:
        """A close name, else the packages there are (never a command that fails the same
        way), else how to make one."""
        # every manifest, loaded as far as it goes (one with errors still has a name, or not)
        every = self.manifest_paths()
        self._loader.load(sorted(labels.label_for(self.rel(m.parent)) for m in every),
                          all_manifests=every)
        known = sorted(self._loader.names.items())
        if not known:
            roots = ", ".join(self.rel(r) or "." for r in self.settings.package_roots)
            return (f"the workspace has no packages (no opkg.yaml under {roots}); create one "
                    "with: opkg new NAME, or opkg import PROJECT_DIR")
        shown = ", ".join(l for l, _ in known[:8]) + (", ..." if len(known) > 8 else "")
        return labels.suggest(target, known) or f"packages here: {shown}"

    def select(self, patterns, cwd: Path | None = None) -> list[Package]:
        """Packages matched by the patterns, in workspace order; each pattern must match, and
        every manifest the request reaches must be valid (all errors raised together)."""
        selection = self.load_targets(patterns, cwd)
        raise_all(selection.problems)
        return selection.packages

    def load_targets(self, patterns, cwd: Path | None = None) -> "Selection":
        """What the patterns select and their dependency closure, loading only those
        manifests. A broken manifest (or a package that depends on one) is a problem of the
        selection, not an exception: the caller decides whether the rest goes on."""
        if not patterns:
            patterns = ["//..."]
        sels = [labels.parse(p, self.root, cwd) for p in patterns]
        loader = self._loader
        by_name = any(s.name is not None for s in sels)
        if by_name or any(s.recursive and s.path == "" for s in sels):
            manifests = self.manifest_paths()
            complete = manifests
        else:
            manifests, complete = [], None
            for s in sels:
                here = (self.root / s.path) if s.path else self.root
                if s.recursive:
                    manifests += self.manifest_paths(here)
                elif (here / "opkg.yaml").is_file() and any(
                        here.is_relative_to(r) for r in self.settings.package_roots):
                    manifests.append(here / "opkg.yaml")
        candidates = sorted({labels.label_for(self.rel(m.parent)) for m in manifests})
        # a bare name is matched against loaded manifests: load those first (all of them)
        loader.load(candidates if by_name else [], all_manifests=complete)
        selected: dict[str, None] = {}
        for pattern, sel in zip(patterns, sels):
            hits = [l for l in candidates
                    if sel.matches(l[2:], loader.names.get(l, "") if sel.name else "")]
            if not hits:
                raise LabelError(f"{pattern!r} matches no package", hint=self.no_match_hint(
                    sel.name or "//" + sel.path))
            selected.update(dict.fromkeys(hits))
        wanted = sorted(selected)
        loader.load(wanted, all_manifests=complete)
        healthy = [l for l in wanted if l not in loader.broken]
        closure = loader.graph().closure(healthy)
        reached = set(wanted) | set(loader.reached(wanted))
        problems = [loader.broken[l] for l in sorted(reached) if l in loader.broken]
        return Selection([loader.nodes[l] for l in healthy],
                         [loader.nodes[l] for l in closure], _flat(problems),
                         sorted(l for l in reached if l in loader.broken))


def _flat(errors) -> list:
    """One entry per error (a manifest's several errors are listed one by one), each once."""
    out = []
    for err in errors:
        for e in getattr(err, "errors", [err]):
            if e not in out:
                out.append(e)
    return out


@dataclass
class Selection:
    packages: list             # selected and healthy, in label order
    closure: list              # those and everything they depend on, dependencies first
    problems: list             # the errors of every broken manifest the request reached
    broken: list               # labels of packages that cannot be built (their own errors,
                               # or a dependency's)


class _Loader:
    """Manifests loaded on demand, each one's errors kept to itself (a broken manifest makes
    only its own package, and those that depend on it, unbuildable)."""

    def __init__(self, ws: Workspace):
        from opkg.core.manifest_cache import ManifestCache

        self.ws = ws
        self.known = ws.socs
        # unchanged manifests are not parsed again (opkg/core/manifest_cache.py)
        self.cache = ManifestCache(ws.settings.output_dir,
                                   [sorted(self.known), list(ws.settings.default_socs),
                                    ws.repositories.planned_roots()])
        self.nodes: dict[str, Package] = {}       # healthy: packages and library nodes
        self.broken: dict[str, Exception] = {}
        self.names: dict[str, str] = {}           # label -> package name, for name patterns
        self._by_name: dict[str, str] = {}
        self._by_type: dict[str, str] = {}
        self._graph = None
        self._parsed_deps: dict[str, tuple] = {}  # deps of every parsed manifest, broken too

    def load(self, roots, all_manifests=None) -> None:
        """Load `roots` and, through their deps, everything they need. `all_manifests`: the
        walk was complete, so stale manifest-cache entries can go."""
        todo = [l for l in roots if l not in self.nodes and l not in self.broken]
        pending = list(todo)
        while pending:
            label = pending.pop(0)
            if label in self.nodes or label in self.broken:
                continue
            pkg = self._one(label)
            if pkg is None:
                continue
            for dep in pkg.deps:
                if dep not in self.nodes and dep not in self.broken:
                    pending.append(dep)
        if todo:
            self._check_edges()
            self._graph = None
        if all_manifests is not None:
            self.cache.keep_only(all_manifests)
        self.cache.save()

    def _one(self, label: str) -> Package | None:
        import time

        from opkg.core.external.spec import LabelSyntaxError
        from opkg.core.manifest import MANIFEST, load_package

        if label.startswith("@"):
            try:
                self.nodes[label] = self.ws.repositories.library(label)
            except (ManifestError, LabelSyntaxError, KeyError) as exc:
                self.broken[label] = exc if isinstance(exc, ManifestError) else \
                    ManifestError(str(exc))
            return None
        manifest = self.ws.root / label[2:] / MANIFEST
        roots = self.ws.settings.package_roots
        if not manifest.is_file() or not any(
                manifest.parent.is_relative_to(r) and not any(
                    p.startswith(".") for p in manifest.parent.relative_to(r).parts)
                for r in roots):
            return None               # reported by _check_edges at the depending entry
        pkg = self.cache.get(manifest, label)
        try:
            if pkg is None:
                started = time.time_ns()
                pkg = load_package(manifest, label, known_socs=self.known,
                                   default_socs=self.ws.settings.default_socs,
                                   repositories=self.ws.repositories)
                self.cache.put(manifest, label, pkg, started)
            else:
                for name, _ in pkg.repositories:   # cached: still make its repositories present
                    self.ws.repositories.root(name)
        except ManifestError as exc:
            self.broken[label] = exc
            return None
        self.names[label] = pkg.name
        self._parsed_deps[label] = pkg.deps
        pin_error = _impossible_pins(pkg, self.known, self.ws.releases)
        if pin_error is not None:
            self.broken[label] = pin_error
            return None
        other = self._by_name.get(pkg.name)
        if other is not None and other != label:
            self.broken[label] = ManifestError(
                f"package name {pkg.name!r} is already used by {other}",
                location=pkg.locations.get("name") or Location(manifest), field="name",
                hint="package names are unique in a workspace; rename one of them")
            return None
        self._by_name[pkg.name] = label
        if pkg.op is not None:
            # CANN registers operators by type: two packages of one type collide on device
            clash = self._by_type.get(pkg.op.type)
            if clash is not None and clash != label:
                self.broken[label] = ManifestError(
                    f"op type {pkg.op.type!r} is already defined by {clash}",
                    location=pkg.locations.get("op.type") or Location(manifest),
                    field="op.type", hint="operator types are unique in a workspace (the "
                    "runtime finds operators by type); rename one")
                return None
            self._by_type[pkg.op.type] = label
        self.nodes[label] = pkg
        return pkg

    def _check_edges(self) -> None:
        """Missing and self dependencies and cycles make a package broken; so does a broken
        dependency (the package is reported with the entry that names it)."""
        from opkg.core.graph import find_cycle

        self._propagate()
        while True:
            cycle = find_cycle({l: tuple(p.deps) for l, p in self.nodes.items()})
            if cycle is None:
                return
            pkg = self.nodes[cycle[-2]]
            err = GraphError("dependency cycle: " + " -> ".join(cycle),
                             location=Location(pkg.manifest_path), field="deps",
                             hint="packages must form a DAG; move the shared part into a "
                                  "library package both depend on")
            for member in cycle[:-1]:
                self.broken[member] = err
                self.nodes.pop(member, None)
            self._propagate()

    def _propagate(self) -> None:
        changed = True
        while changed:
            changed = False
            for label, pkg in list(self.nodes.items()):
                for i, dep in enumerate(pkg.deps):
                    problem = self._edge_problem(label, pkg, i, dep)
                    if problem is not None:
                        self.broken[label] = problem
                        del self.nodes[label]
                        changed = True
                        break

    def _edge_problem(self, label, pkg, i, dep):
        where = pkg.locations.get(f"deps[{i}]") or Location(pkg.manifest_path)
        if dep == label:
            return GraphError(f"{label} depends on itself", location=where,
                              field=f"deps[{i}]", hint="remove this entry")
        if dep in self.broken:
            return GraphError(f"{label} depends on {dep}, which has errors", location=where,
                              field=f"deps[{i}]", hint=f"fix {dep} first (its errors are "
                              "listed with this one)")
        if dep not in self.nodes:
            others = [(l, l.rsplit("/", 1)[-1]) for l in sorted(
                labels.label_for(self.ws.rel(m.parent)) for m in self.ws.manifest_paths())
                if l != label]
            return GraphError(
                f"{label} depends on {dep}, which is not a package in this workspace",
                location=where, field=f"deps[{i}]",
                hint=labels.suggest("//" + dep.lstrip("/"), others)
                or "check the label (//dir/of/package)")
        return None

    def reached(self, roots) -> list[str]:
        """Labels reachable from `roots` through deps, broken ones included."""
        seen, stack = set(), list(roots)
        while stack:
            label = stack.pop()
            if label in seen:
                continue
            seen.add(label)
            stack.extend(self._parsed_deps.get(label, ()))
        return sorted(seen)

    def graph(self):
        from opkg.core.graph import Graph

        if self._graph is None:
            self._graph = Graph(self.nodes)
        return self._graph


def _impossible_pins(pkg, known_socs, releases) -> ManifestError | None:
    """A driver pin that no CANN release inside the package's CANN pin runs with (per the
    release table): an error at the pin, as a bad pin is, not a misalignment found later."""
    if not pkg.toolchain_pins.get("driver"):
        return None
    from opkg.core.pins import impossible_driver_pin

    why = impossible_driver_pin(pkg.toolchain_pins.get("cann"), pkg.toolchain_pins["driver"],
                                releases,
                                [known_socs[s].short for s in pkg.socs if s in known_socs])
    if why is None:
        return None
    return ManifestError(why, location=pkg.locations.get("toolchain.driver"),
                         field="toolchain.driver",
                         hint="raise the driver pin to a version those releases run with, or pin "
                              "the CANN releases that support the older driver")
