"""`opkg build --explain`: why each step ran, in plain words.

SCons knows why it rebuilds a node (`--debug=explain`): a source or header changed, a dependency
appeared or went away, the output is missing. Each action's identity (argv, generated content,
parameters, toolchain fingerprint) is a Value dependency of its node (opkg.build.scons_glue), so when
it changes SCons prints the old and the new identity; this module compares the two and says which
part changed: the compiler, a flag, the toolchain identity (compiler version, emulation headers,
flags, runtime), a generated source, a verification setting. Paths are shown relative to the
step's package (`op_kernel/add_custom.cpp`), else to the workspace.

The toolchain identities behind fingerprints are kept in out/.opkg/toolchains.json after each
planned build, so a fingerprint change can be traced to the identity field that changed.
"""

from __future__ import annotations

import json
from pathlib import Path

_REASON_SUFFIXES = ((" is no longer a dependency", "removed"), (" is a new dependency", "added"),
                    (" changed", "changed"))
TOOLCHAINS_FILE = "toolchains.json"
_KEEP_IDENTITIES = 32


def note_toolchains(ws, plan) -> None:
    """Remember {fingerprint: identity} of the toolchains a plan uses (backends without an
    identity() are skipped)."""
    from opkg.util.fsutil import atomic_write_json
    from opkg.toolchains import get_toolchain

    path = Path(plan.output_dir) / ".opkg" / TOOLCHAINS_FILE
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        known = {}
    changed = False
    for tc in {get_toolchain(t.toolchain, ws) for t in plan.targets}:
        identity = getattr(tc, "identity", None)
        if identity is None:
            continue
        fp = tc.fingerprint()
        if fp not in known:
            known[fp] = identity()
            changed = True
    if changed:
        atomic_write_json(path, dict(list(known.items())[-_KEEP_IDENTITIES:]))


class Explainer:
    """Turns SCons' `--debug=explain` lines into one reason list per opkg step."""

    def __init__(self, plan, root: Path, on_explain):
        self.root = Path(root)
        self.on_explain = on_explain
        self.by_output = {}
        for action in plan.actions:
            for out in action.outputs:
                self.by_output[str(Path(out))] = action
        try:
            self.identities = json.loads(
                (Path(plan.output_dir) / ".opkg" / TOOLCHAINS_FILE).read_text())
        except (OSError, ValueError):
            self.identities = {}
        self.current: tuple[str, list[tuple[str, str]]] | None = None
        self.explained: set[int] = set()

    # -- parsing ------------------------------------------------------------------------------

    def feed(self, line: str) -> bool:
        """True when the line was SCons' explanation output (and is consumed)."""
        if line.startswith("scons: rebuilding `") or line.startswith("scons: building `"):
            self.flush()
            head = line.split("`", 1)[1]
            node, rest = head.split("' because", 1)
            rest = rest.strip()
            if rest == ":":
                self.current = (node, [])
            else:
                self.current = (node, [_reason(rest)])
                self.flush()
            return True
        if line.startswith("scons: Cannot explain why `"):
            self.flush()
            node = line.split("`", 1)[1].split("'", 1)[0]
            self.current = (node, [("text", "no previous build information")])
            self.flush()
            return True
        if line.startswith("scons: `") and line.endswith("' is up to date."):
            return True
        if self.current is not None and line.startswith("  "):
            self.current[1].append(_reason(line.strip()))
            return True
        self.flush()
        return False

    def flush(self) -> None:
        if self.current is None:
            return
        node, raw = self.current
        self.current = None
        path = Path(node) if Path(node).is_absolute() else self.root / node
        action = self.by_output.get(str(path))
        if action is None:
            return
        if id(action) in self.explained:
            return
        self.explained.add(id(action))
        self.on_explain({"event": "explain", "target": action.target,
                         "description": action.description,
                         "reasons": self.words(action, raw)})

    # -- plain words ----------------------------------------------------------------------------

    def words(self, action, raw) -> list[str]:
        old = new = None
        out = []
        for kind, text in raw:
            if kind in ("removed", "added") and text.startswith("{"):
                try:
                    value = json.loads(text)
                except ValueError:
                    value = None
                if isinstance(value, dict) and "argv" in value:
                    if kind == "removed":
                        old = value
                    else:
                        new = value
                    continue
            if kind == "text":
                out.append(_plain(text))
            elif kind == "changed":
                out.append(f"{self.show(text, action)} {self._changed_word(text)}")
            elif kind == "added":
                out.append(f"now depends on {self.show(text, action)}")
            elif kind == "removed":
                out.append(f"no longer depends on {self.show(text, action)}")
        if old is not None or new is not None:
            out[:0] = self.identity_change(old or {}, new or {})
        return out or ["SCons rebuilt it without a recorded reason"]

    def _changed_word(self, path: str) -> str:
        p = Path(path) if Path(path).is_absolute() else self.root / path
        return "was rebuilt" if str(p) in self.by_output else "changed"

    def show(self, path: str, action) -> str:
        p = Path(path) if Path(path).is_absolute() else self.root / path
        pkg = action.target.split("@", 1)[0]
        if pkg.startswith("//"):
            try:
                return p.relative_to(self.root / pkg[2:]).as_posix()
            except ValueError:
                pass
        try:
            return p.relative_to(self.root).as_posix()
        except ValueError:
            return str(p)

    def identity_change(self, old: dict, new: dict) -> list[str]:
        if not old:
            return ["its command is new (no previous identity recorded)"]
        out = []
        oa, na = list(old.get("argv") or []), list(new.get("argv") or [])
        if oa and na and oa[0] != na[0]:
            out.append(f"compiler changed: {oa[0]} -> {na[0]}")
        if oa[1:] != na[1:]:
            removed = [a for a in oa[1:] if a not in na[1:]]
            added = [a for a in na[1:] if a not in oa[1:]]
            if removed:
                out.append("flag removed: " + " ".join(_short(a) for a in removed))
            if added:
                out.append("flag added: " + " ".join(_short(a) for a in added))
            if not removed and not added:
                out.append("command-line order changed")
        if old.get("signature") != new.get("signature"):
            out.append(self.toolchain_change(old.get("signature"), new.get("signature")))
        if old.get("content") != new.get("content"):
            what = _json_diff(_maybe_json(old.get("content")), _maybe_json(new.get("content")))
            out.append("generated content changed" + (f" ({what})" if what else ""))
        if old.get("params") != new.get("params") or old.get("function") != new.get("function"):
            what = _json_diff(old.get("params"), new.get("params"))
            out.append("step settings changed" + (f" ({what})" if what else ""))
        return out or ["its identity changed"]

    def toolchain_change(self, old_fp, new_fp) -> str:
        old, new = self.identities.get(old_fp or ""), self.identities.get(new_fp or "")
        if isinstance(old, dict) and isinstance(new, dict):
            names = {"compiler": "compiler path", "compiler_version": "compiler version",
                     "headers": "emulation headers", "flags": "common flags",
                     "runtime": "verification runtime"}
            changed = []
            for key in sorted(set(old) | set(new)):
                if old.get(key) == new.get(key):
                    continue
                if key == "compiler_version":
                    changed.append(f"compiler version ({old.get(key)!r} -> {new.get(key)!r})")
                else:
                    changed.append(names.get(key, key))
            if changed:
                return "toolchain identity changed: " + ", ".join(changed)
        return "toolchain identity changed (compiler, emulation headers, flags or runtime)"


def _reason(text: str) -> tuple[str, str]:
    if text.startswith("`"):
        for suffix, kind in _REASON_SUFFIXES:
            if text.endswith("'" + suffix):
                return kind, text[1:-len(suffix) - 1]
    return "text", text


def _plain(text: str) -> str:
    text = text.rstrip(".")
    if text == "it doesn't exist":
        return "output missing (never built here, or deleted)"
    if text == "AlwaysBuild() is specified":
        return "--no-cache: it runs whatever the cache holds"
    if text.startswith("the contents of the build action changed"):
        return "its command changed"
    if text.startswith("the dependency order changed"):
        return "its dependencies changed order (an #include moved)"
    if text.startswith("no previous build information"):
        return "no record of a previous build of this output"
    if text.startswith("`") and text.endswith("' changed"):
        return f"{text[1:-9]} changed"
    return text


def _short(arg: str) -> str:
    return arg if len(arg) <= 80 else arg[:77] + "..."


def _maybe_json(text):
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return None


def _json_diff(old, new, prefix: str = "", limit: int = 3) -> str:
    """The first few key paths where two JSON values differ: 'cases[2].shapes, seed'."""
    found: list[str] = []

    def walk(a, b, path):
        if len(found) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), key=str):
                walk(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}[{i}]")
        else:
            found.append(path or "value")

    if old is None or new is None:
        return ""
    walk(old, new, prefix)
    return ", ".join(found)
