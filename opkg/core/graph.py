"""The package dependency graph: missing dependencies, cycles, deps and rdeps queries.

Built from loaded Packages (manifest module), consumed by the planner (include dirs and
rebuild edges flow along deps) and by `opkg query`.
"""

from __future__ import annotations

from opkg.core.errors import GraphError, Location
from opkg.core.labels import suggest
from opkg.core.manifest import Package


class Graph:
    def __init__(self, packages: dict[str, Package]):
        self.packages = packages
        self.edges: dict[str, tuple[str, ...]] = {}
        for label, pkg in packages.items():
            for i, dep in enumerate(pkg.deps):
                where = pkg.locations.get(f"deps[{i}]") or Location(pkg.manifest_path)
                if dep == label:
                    raise GraphError(f"{label} depends on itself", location=where,
                                     field=f"deps[{i}]", hint="remove this entry")
                if dep not in packages:
                    others = [(l, p.name) for l, p in packages.items() if l != label]
                    raise GraphError(
                        f"{label} depends on {dep}, which is not a package in this workspace",
                        location=where, field=f"deps[{i}]",
                        hint=suggest("//" + dep.lstrip("/"), others)
                        or "check the label (//dir/of/package)")
            self.edges[label] = tuple(pkg.deps)
        self._check_cycles()

    def _check_cycles(self) -> None:
        cycle = find_cycle(self.edges)
        if cycle is not None:
            pkg = self.packages[cycle[-2]]
            raise GraphError("dependency cycle: " + " -> ".join(cycle),
                             location=Location(pkg.manifest_path), field="deps",
                             hint="packages must form a DAG; move the shared part "
                                  "into a library package both depend on")

    def deps(self, label: str, transitive: bool = True) -> list[str]:
        """Dependencies of `label`, nearest first, each once."""
        out: list[str] = []
        frontier = list(self.edges[label])
        while frontier:
            dep = frontier.pop(0)
            if dep in out:
                continue
            out.append(dep)
            if transitive:
                frontier.extend(self.edges[dep])
        return out

    def rdeps(self, label: str, transitive: bool = True) -> list[str]:
        direct = sorted(l for l, ds in self.edges.items() if label in ds)
        if not transitive:
            return direct
        return sorted(l for l in self.edges if l != label and label in self.deps(l))

    def closure(self, labels) -> list[str]:
        """`labels` and everything they depend on, dependencies before dependents."""
        order: list[str] = []
        placed: set[str] = set()
        for label in labels:
            if label in placed:
                continue
            path, stack = [label], [iter(self.edges[label])]   # no recursion: see above
            while stack:
                for dep in stack[-1]:
                    if dep not in placed:
                        path.append(dep)
                        stack.append(iter(self.edges[dep]))
                        break
                else:
                    node = path.pop()
                    stack.pop()
                    if node not in placed:
                        placed.add(node)
                        order.append(node)
        return order


def find_cycle(edges: dict) -> list[str] | None:
    """A dependency cycle as its path (first label repeated at the end), or None. Edges to
    labels outside `edges` are ignored. Depth-first with an explicit stack: a chain of
    thousands of packages must not end in Python's recursion limit."""
    state: dict[str, int] = {}      # 1 = on the path, 2 = done
    for root in sorted(edges):
        if root in state:
            continue
        state[root] = 1
        path, stack = [root], [iter(edges[root])]
        while stack:
            for dep in stack[-1]:
                if dep not in edges:
                    continue
                if state.get(dep) == 1:
                    return path[path.index(dep):] + [dep]
                if dep not in state:
                    state[dep] = 1
                    path.append(dep)
                    stack.append(iter(edges[dep]))
                    break
            else:
                state[path.pop()] = 2
                stack.pop()
    return None
