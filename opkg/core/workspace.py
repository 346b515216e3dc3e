"""The workspace: the directory holding `opkg-workspace.yaml`, its settings and its packages.

Finding the root, reading settings, discovering `opkg.yaml` manifests below the package roots
and matching target patterns (labels module) against them. Everything downstream receives
Packages from here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from opkg.core import labels, settings as sections, yamlloc
from opkg.core.settings import DistccSettings
from opkg.core.errors import LabelError, ManifestError, did_you_mean, Location, raise_all

if TYPE_CHECKING:   # imported where manifests are read: the null-build fast path reads none
    from opkg.core.manifest import Package
    from opkg.core.socs import SocTable

WORKSPACE_FILE = "opkg-workspace.yaml"
SETTINGS = ("package_roots", "output_dir", "cache_dir", "default_socs", "default_toolchain",
            "registry", "distcc", "remote_cache")


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
        )
        return cls(root, settings, known)

    # -- packages -------------------------------------------------------------------------

    def rel(self, path: Path) -> str:
        rel = Path(path).resolve().relative_to(self.root).as_posix()
        return "" if rel == "." else rel

    def manifest_paths(self) -> list[Path]:
        from opkg.core.manifest import MANIFEST

        skip = {self.settings.output_dir}
        found = []
        for root in self.settings.package_roots:
            if not root.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                     and Path(dirpath, d) not in skip)
                if MANIFEST in filenames:
                    found.append(Path(dirpath) / MANIFEST)
        return found

    @cached_property
    def packages(self) -> dict[str, Package]:
        import time

        from opkg.core.manifest import load_package
        from opkg.core.manifest_cache import ManifestCache

        known = self.socs
        # unchanged manifests are not parsed again (opkg/core/manifest_cache.py)
        cache = ManifestCache(self.settings.output_dir,
                              [sorted(known), list(self.settings.default_socs)])
        out: dict[str, Package] = {}
        by_name: dict[str, Package] = {}
        by_type: dict[str, Package] = {}
        errors: list[ManifestError] = []    # every manifest's errors, reported together
        manifests = self.manifest_paths()
        for manifest in manifests:
            label = labels.label_for(self.rel(manifest.parent))
            pkg = cache.get(manifest, label)
            if pkg is None:
                started = time.time_ns()
                try:
                    pkg = load_package(manifest, label, known_socs=known,
                                       default_socs=self.settings.default_socs)
                except ManifestError as exc:
                    errors.append(exc)
                    continue
                cache.put(manifest, label, pkg, started)
            pin_error = _impossible_pins(pkg, known, self.releases)
            if pin_error is not None:
                errors.append(pin_error)
                continue
            if pkg.name in by_name:
                other = by_name[pkg.name]
                errors.append(ManifestError(
                    f"package name {pkg.name!r} is already used by {other.label}",
                    location=pkg.locations.get("name") or Location(manifest), field="name",
                    hint="package names are unique in a workspace; rename one of them"))
                continue
            by_name[pkg.name] = pkg
            if pkg.op is not None:
                # CANN registers operators by type: two packages of one type collide on device
                clash = by_type.get(pkg.op.type)
                if clash is not None:
                    errors.append(ManifestError(
                        f"op type {pkg.op.type!r} is already defined by {clash.label}",
                        location=pkg.locations.get("op.type") or Location(manifest),
                        field="op.type", hint="operator types are unique in a workspace (the "
                        "runtime finds operators by type); rename one"))
                    continue
                by_type[pkg.op.type] = pkg
            out[label] = pkg
        cache.keep_only(manifests)
        cache.save()
        raise_all(errors)
        return out

    @cached_property
    def graph(self):
        from opkg.core.graph import Graph

        return Graph(self.packages)

    def no_match_hint(self, target: str) -> str:
        """A close name, else the packages there are (never a command that fails the same
        way), else how to make one."""
        known = [(l, p.name) for l, p in self.packages.items()]
        if not known:
            roots = ", ".join(self.rel(r) or "." for r in self.settings.package_roots)
            return (f"the workspace has no packages (no opkg.yaml under {roots}); create one "
                    "with: opkg new NAME, or opkg import PROJECT_DIR")
        shown = ", ".join(l for l, _ in known[:8]) + (", ..." if len(known) > 8 else "")
        return labels.suggest(target, known) or f"packages here: {shown}"

    def select(self, patterns, cwd: Path | None = None) -> list[Package]:
        """Packages matched by the patterns, in workspace order; each pattern must match."""
        if not patterns:
            patterns = ["//..."]
        selected: dict[str, Package] = {}
        self.graph  # validate deps and cycles before building anything
        for pattern in patterns:
            sel = labels.parse(pattern, self.root, cwd)
            hits = [p for label, p in self.packages.items()
                    if sel.matches(label[2:], p.name)]
            if not hits:
                raise LabelError(f"{pattern!r} matches no package", hint=self.no_match_hint(
                    sel.name or "//" + sel.path))
            for p in hits:
                selected[p.label] = p
        return [selected[l] for l in sorted(selected)]


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
