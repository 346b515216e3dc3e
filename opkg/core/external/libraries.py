"""The workspace's external repositories as planning sees them: made present on first use,
and each `@repo//:library` turned into a dependency node (a header-only library Package
carrying the library's include directories, kernel include directories and host sources), so
library deps flow to compiles the way a library package's `include_dirs` always have.
"""

from __future__ import annotations

from pathlib import Path

from opkg.core.errors import ManifestError
from opkg.core.external import fetch, spec


class Repositories:
    """One workspace's repositories, each resolved once per process and only when used."""

    def __init__(self, specs: dict, ws_root: Path, cache_dir: Path, on_note=None):
        self.specs = specs
        self.ws_root, self.cache_dir = Path(ws_root), cache_dir
        self.on_note = on_note
        self._present: dict[str, Path] = {}
        self._resolved: dict[str, fetch.Repository] = {}
        self._libraries: dict[str, object] = {}

    def planned_roots(self) -> dict[str, str]:
        """name -> where its files are, known without fetching (manifest cache context)."""
        return {n: str(fetch.planned_root(s, self.ws_root, self.cache_dir))
                for n, s in sorted(self.specs.items())}

    def root(self, name: str) -> Path:
        """The repository's root, present (a git repository fetched, a path checkout at its
        pinned commit); no tree digest yet."""
        if name not in self._present:
            self._present[name] = fetch.present(self.specs[name], self.ws_root, self.cache_dir,
                                                self.on_note)[0]
        return self._present[name]

    def get(self, name: str) -> fetch.Repository:
        """The repository with its commit and tree digest (what opkg.lock records)."""
        if name not in self._resolved:
            self._resolved[name] = fetch.resolve(self.specs[name], self.ws_root,
                                                 self.cache_dir, self.on_note)
            self._present[name] = self._resolved[name].root
        return self._resolved[name]

    def library(self, label: str):
        """The dependency node of `@repo//:library` (a Package with op None)."""
        if label not in self._libraries:
            repo_name, lib_name = spec.parse_library_label(label)
            self._libraries[label] = self._make(self.specs[repo_name], lib_name)
        return self._libraries[label]

    def _make(self, repo: spec.RepositorySpec, lib_name: str):
        from opkg.core.manifest import Package

        lib = repo.libraries[lib_name]
        root = self.root(repo.name)
        errors = []

        def directory(key, i, rel):
            path = (root / rel).resolve()
            if not path.is_dir() or not path.is_relative_to(root.resolve()):
                errors.append(ManifestError(
                    f"library @{repo.name}//:{lib_name}: {rel!r} is not a directory in "
                    f"{root}", location=lib.locations.get((key, i), lib.location),
                    field=f"repositories.{repo.name}.libraries.{lib_name}.{key}[{i}]",
                    hint="paths are relative to the repository root"))
            return path

        include = tuple(directory("include_dirs", i, d) for i, d in enumerate(lib.include_dirs))
        kernel = tuple(directory("kernel_include_dirs", i, d)
                       for i, d in enumerate(lib.kernel_include_dirs))
        sources = []
        for i, pattern in enumerate(lib.host_sources):
            found = sorted(p for p in root.glob(pattern) if p.is_file()
                           and p.suffix in (".cpp", ".cc", ".cxx", ".c"))
            if not found:
                errors.append(ManifestError(
                    f"library @{repo.name}//:{lib_name}: host_sources {pattern!r} matches no "
                    f"C++ source in {root}", location=lib.locations.get(("host_sources", i),
                                                                       lib.location),
                    field=f"repositories.{repo.name}.libraries.{lib_name}.host_sources[{i}]",
                    hint="globs are relative to the repository root, e.g. src/**/*.cpp"))
            sources += [p for p in found if p not in sources]
        from opkg.core.errors import raise_all

        raise_all(errors)
        return Package(
            name=f"{repo.name}_{lib_name}", version="0", summary=f"library {lib_name} of "
            f"repository {repo.name}", label=spec.library_label(repo.name, lib_name), dir=root,
            manifest_path=lib.location.path, op=None, include_dirs=include,
            host_sources=tuple(sources), kernel_include_dirs=kernel,
            repositories=((repo.name, root),))
