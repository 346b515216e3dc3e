"""YAML loading that remembers where every value came from.

PyYAML's composer gives nodes with marks; we turn them into plain Python data plus a map from
each value's path (("op", "inputs", 0, "dtypes")) to its line and column, so validators can
point at the exact place of a mistake. Duplicate mapping keys are errors (PyYAML silently keeps
the last one, which hides typos).

Every YAML file opkg reads comes through here, so the limits on hostile input live here too: a
file size cap, a nesting depth cap (PyYAML's composer recurses, and a deep document would end in
a RecursionError), and a cap on the number of values the document expands to. Aliases are not
copied by the composer, so the cap is enforced on node sizes while composing, before anything
is expanded: a 300-byte "billion laughs" is refused in microseconds instead of eating memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

try:
    from yaml.cyaml import CParser as _CParser
except ImportError:                  # PyYAML built without libyaml
    _CParser = None

from opkg.core.errors import Location, ManifestError

Path_ = tuple  # a value's path inside the document: keys and list indices

# Far above any real manifest, workspace file or SoC table (a few KiB, a few hundred values,
# nesting under ten), far below what hurts.
MAX_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_VALUES = 100_000


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
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)   # never more than the cap, whatever the file holds
    except OSError as exc:
        raise ManifestError(f"cannot read: {exc.strerror}", location=Location(Path(path))) from None
    if len(raw) > MAX_BYTES:
        raise _too_big(Path(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError("not UTF-8 text", location=Location(Path(path))) from None
    return loads(text, Path(path))


def _too_big(path: Path) -> ManifestError:
    return ManifestError(f"file is larger than {MAX_BYTES >> 20} MiB", location=Location(path),
                         hint="opkg's YAML files are a few KiB; is this the right file?")


def load_data(path: Path) -> Any:
    """Just the data of a YAML file, with the same limits and errors as `load`."""
    return load(path).data


# libyaml's scanner and parser when PyYAML has them (5x less CPU than the Python ones: parsing
# was most of a 1000-package workspace's planning); the composer stays PyYAML's Python one,
# with the limits below, so nesting never recurses in C.
_PARSER = (_CParser,) if _CParser is not None else \
    (yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser)


class _LimitedLoader(yaml.composer.Composer, yaml.resolver.Resolver, *_PARSER):
    """A composer that refuses deep nesting and documents that expand past MAX_VALUES.

    Each composed node's expanded size (itself plus its children's, an alias counting the full
    size of the node it names) is known as soon as the node is complete, so the check costs
    one addition per node and never expands an alias."""

    def __init__(self, stream, path: Path):
        if yaml.reader.Reader.NON_PRINTABLE.search(stream):
            # what the Python reader refuses at once; checked here for libyaml too
            yaml.reader.Reader(stream)
        for base in _PARSER:
            base.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self._path = path
        self._depth = 0
        self._sizes: dict[int, int] = {}   # id(node) -> expanded value count
        self._aliased: set[int] = set()     # id(node) of nodes holding an alias

    def _refuse(self, mark, message: str, hint: str) -> ManifestError:
        return ManifestError(message, location=Location(self._path, mark.line + 1,
                                                         mark.column + 1), hint=hint)

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None and id(node) not in self._sizes:
                raise self._refuse(event.start_mark, f"alias *{event.anchor} refers to a value "
                                   "that contains it", "a recursive alias never ends; write "
                                   "the value out")
            node = super().compose_node(parent, index)
            self._aliased.add(id(node))
            return node
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise self._refuse(self.peek_event().start_mark,
                               f"nesting deeper than {MAX_DEPTH} levels",
                               "flatten the structure; opkg's files nest a few levels deep")
        node = super().compose_node(parent, index)
        self._depth -= 1
        if isinstance(node, yaml.MappingNode):
            children = [n for kv in node.value for n in kv]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            children = []
        size = 1 + sum(self._sizes[id(c)] for c in children)
        aliased = any(id(c) in self._aliased for c in children)
        if size > MAX_VALUES:
            what = (f"'{index.value}'" if isinstance(index, yaml.ScalarNode)
                    and isinstance(index.value, str) else "this value")
            if aliased:
                raise self._refuse(node.start_mark, f"{what} expands to more than {MAX_VALUES} "
                                   "values", "YAML aliases (*name) are copied at every use, so "
                                   "nested aliases grow exponentially; write the values out")
            raise self._refuse(node.start_mark, f"{what} holds more than {MAX_VALUES} values "
                               f"({len(children) // (2 if isinstance(node, yaml.MappingNode) else 1)}"
                               " entries)", f"opkg reads at most {MAX_VALUES} values from one "
                               "file; make the list shorter")
        if aliased:
            self._aliased.add(id(node))
        self._sizes[id(node)] = size
        return node


def loads(text: str, path: Path) -> Document:
    if len(text) > MAX_BYTES:
        raise _too_big(path)
    try:
        loader = _LimitedLoader(text, path)   # its reader refuses control characters at once
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise ManifestError(f"invalid YAML: control character U+{exc.character:04X}",
                            location=Location(path, line, column),
                            hint="YAML files hold printable text only; remove it") from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        loc = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        if "maximum nesting depth" in str(exc.problem):
            # libyaml's scanner reads ahead and has its own cap (1000 flow levels)
            raise ManifestError(f"nesting deeper than {MAX_DEPTH} levels", location=loc,
                                hint="flatten the structure; opkg's files nest a few levels "
                                     "deep") from None
        raise ManifestError(f"invalid YAML: {exc.problem}", location=loc,
                            hint="check indentation and quoting near this line") from None
    except yaml.YAMLError as exc:
        raise ManifestError(f"invalid YAML: {exc}", location=Location(path)) from None
    finally:
        loader.dispose()
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
            key = _scalar(key_node, doc)
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
    return _scalar(node, doc)


_constructor = yaml.SafeLoader("")


def _scalar(node: yaml.Node, doc: Document) -> Any:
    where = Location(doc.path, node.start_mark.line + 1, node.start_mark.column + 1)
    if not isinstance(node, yaml.ScalarNode):
        raise ManifestError("mapping keys must be plain scalars", location=where,
                            hint="write the key as a plain word or quoted string")
    try:
        value = _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        # An unknown tag (!!python/object), or a scalar its resolver misreads (2001-02-30 is
        # taken for a timestamp and is no date).
        problem = getattr(exc, "problem", None) or str(exc)
        raise ManifestError(f"cannot read this value: {problem}", location=where,
                            hint="quote it to keep it a string; opkg's YAML has no tags") from None
    if not isinstance(value, (str, int, float, bool, type(None))):
        # Timestamps and binary: nothing opkg reads is one, and every validator expects the
        # text as written ("date: 2001-01-01" stays a string).
        return node.value
    return value
