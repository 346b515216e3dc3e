"""YAML loading that remembers where every value came from.

PyYAML's composer gives nodes with marks; we turn them into plain Python data plus a map from
each value's path (("op", "inputs", 0, "dtypes")) to its line and column, so validators can
point at the exact place of a mistake. Duplicate mapping keys are errors (PyYAML silently keeps
the last one, which hides typos).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from opkg.errors import Location, ManifestError

Path_ = tuple  # a value's path inside the document: keys and list indices


@dataclass
class Document:
    path: Path
    data: Any
    marks: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[tuple, tuple[int, int]] = field(default_factory=dict)

    def loc(self, where: tuple = (), at_key: bool = False) -> Location:
        """The location of `where` (its key with at_key), or of its nearest located ancestor."""
        if at_key and where in self.key_marks:
            return Location(self.path, *self.key_marks[where])
        while where not in self.marks and where:
            where = where[:-1]
        line, col = self.marks.get(where, (0, 0))
        return Location(self.path, line, col)

    def error(self, where: tuple, message: str, hint: str | None = None,
              at_key: bool = False) -> ManifestError:
        return ManifestError(message, location=self.loc(where, at_key), hint=hint,
                             field=dotted(where) or None)


def dotted(where: tuple) -> str:
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load(path: Path) -> Document:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ManifestError(f"cannot read: {exc.strerror}", location=Location(Path(path))) from None
    except UnicodeDecodeError:
        raise ManifestError("not UTF-8 text", location=Location(Path(path))) from None
    return loads(text, Path(path))


def loads(text: str, path: Path) -> Document:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        loc = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        raise ManifestError(f"invalid YAML: {exc.problem}", location=loc,
                            hint="check indentation and quoting near this line") from None
    except yaml.YAMLError as exc:
        raise ManifestError(f"invalid YAML: {exc}", location=Location(path)) from None
    doc = Document(path, None)
    doc.data = _convert(node, (), doc) if node is not None else None
    return doc


def _convert(node: yaml.Node, where: tuple, doc: Document) -> Any:
    doc.marks[where] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise ManifestError(
                    "YAML merge keys (<<) are not supported",
                    location=Location(doc.path, key_node.start_mark.line + 1,
                                      key_node.start_mark.column + 1),
                    hint="write the keys out; manifests are read by people and tools alike")
            key = _scalar(key_node)
            if key in out:
                raise ManifestError(
                    f"duplicate key {key!r}",
                    location=Location(doc.path, key_node.start_mark.line + 1,
                                      key_node.start_mark.column + 1),
                    hint="each key may appear once in a mapping; remove or merge the repeat")
            doc.key_marks[where + (key,)] = (key_node.start_mark.line + 1,
                                             key_node.start_mark.column + 1)
            out[key] = _convert(value_node, where + (key,), doc)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(child, where + (i,), doc) for i, child in enumerate(node.value)]
    return _scalar(node)


_constructor = yaml.SafeLoader("")


def _scalar(node: yaml.Node) -> Any:
    if not isinstance(node, yaml.ScalarNode):
        raise ManifestError("mapping keys must be plain scalars")
    return _constructor.construct_object(node, deep=True)
