"""CANN and driver versions: parse, print back unchanged, order, and match specifiers.

Ordering and specifier matching are delegated to `packaging`: every version maps to a PEP 440
`Version` (its `key`) whose order is the CANN order, and specifiers are rewritten clause by clause
into a `packaging` SpecifierSet over those keys. So `~=`, `==X.*`, and PEP 440's rule that
`<8.2` excludes 8.2's release candidates come from one well-tested implementation.

CANN, within one major.minor:  T-builds < RC<n>.alpha<k> < RC<n> < RC<n>.<hotfix> < RC<n+1> ...
                               < <p>.alpha<k> / <p>-alpha.<k> < <p>-beta.<k> < <p> final
   7.0.T10 -> 7.0.0.dev10     8.0.RC2.alpha003 -> 8.0.0rc2.dev3     8.0.RC2 -> 8.0.0rc2
   8.0.0 -> 8.0.0             9.0.0-beta.1 -> 9.0.0b1               8.5.0.alpha001 -> 8.5.0a1
Driver:  24.1.rc1 -> 24.1.0rc1    25.0.rc1.1 -> 25.0.0rc1.post1    23.0.3 -> 23.0.3

Used by the toolchain data loader, discovery, resolution and the lockfile; nothing here reads
files.
"""

from __future__ import annotations

import re
from functools import total_ordering

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from opkg.core.errors import Location, VersionError

CANN_FORMS = ("7.0.T10", "8.0.RC2", "8.0.RC2.alpha003", "8.0.RC2.1", "8.0.0", "8.0.0.1",
              "8.5.0.alpha001", "9.0.0-beta.1")
DRIVER_FORMS = ("23.0.3", "24.1.0.1", "24.1.rc1", "25.0.rc1.1")
SPEC_FORMS = (">=8.0.RC2,<8.2", "==8.0.RC2", "!=8.1.RC1", "~=8.0.RC2", "==8.0.*", "8.0.RC2")

_CANN_RE = re.compile(r"""
    (?P<major>\d+)\.(?P<minor>\d+)\.
    (?: T(?P<t>\d+)
      | RC(?P<rc>\d+)(?: \.alpha(?P<rc_alpha>\d+) | \.(?P<rc_fix>\d+) )?
      | (?P<patch>\d+)(?: \.alpha(?P<alpha>\d+) | -(?P<pre>alpha|beta)\.(?P<pre_n>\d+)
                        | \.(?P<fix>\d+) )?
    )""", re.VERBOSE)

_DRIVER_RE = re.compile(r"""
    (?P<major>\d+)\.(?P<minor>\d+)\.
    (?: rc(?P<rc>\d+)(?:\.(?P<rc_fix>\d+))?
      | (?P<patch>\d+)(?:\.(?P<fix>\d+))? )""", re.VERBOSE)

# In a specifier a bare release prefix (`<8.2`, `~=8.0`) is allowed, as in PEP 440.
_PREFIX_RE = re.compile(r"\d+(?:\.\d+){0,2}")
_CLAUSE_RE = re.compile(r"\s*(?P<op>~=|===|==|!=|<=|>=|<|>)?\s*(?P<ver>[^\s,]+?)(?P<star>\.\*)?\s*")


def _cann_key(m: re.Match) -> str:
    g = m.groupdict()
    base = f"{int(g['major'])}.{int(g['minor'])}"
    if g["t"] is not None:
        return f"{base}.0.dev{int(g['t'])}"
    if g["rc"] is not None:
        key = f"{base}.0rc{int(g['rc'])}"
        if g["rc_alpha"] is not None:
            key += f".dev{int(g['rc_alpha'])}"
        elif g["rc_fix"] is not None:
            key += f".post{int(g['rc_fix'])}"
        return key
    key = f"{base}.{int(g['patch'])}"
    if g["alpha"] is not None:
        return key + f"a{int(g['alpha'])}"
    if g["pre"] is not None:
        return key + ("a" if g["pre"].lower() == "alpha" else "b") + str(int(g["pre_n"]))
    if g["fix"] is not None:
        key += f".{int(g['fix'])}"
    return key


def _driver_key(m: re.Match) -> str:
    g = m.groupdict()
    base = f"{int(g['major'])}.{int(g['minor'])}"
    if g["rc"] is not None:
        key = f"{base}.0rc{int(g['rc'])}"
        return key + (f".post{int(g['rc_fix'])}" if g["rc_fix"] is not None else "")
    key = f"{base}.{int(g['patch'])}"
    return key + (f".{int(g['fix'])}" if g["fix"] is not None else "")


@total_ordering
class _Version:
    """A version that prints as written and compares by its PEP 440 key."""

    kind = ""
    forms: tuple[str, ...] = ()
    _regex: re.Pattern
    __slots__ = ("text", "key")

    def __init__(self, text: str, key: Version):
        self.text = text
        self.key = key

    @classmethod
    def _keyfor(cls, m: re.Match) -> str:
        raise NotImplementedError

    @classmethod
    def parse(cls, text, *, location: Location | None = None, field: str | None = None):
        if isinstance(text, cls):
            return text
        if not isinstance(text, str):
            # YAML turns `8.0` or `24` into numbers; say so instead of a confusing mismatch.
            raise VersionError(f"{cls.kind} version must be a string, got {text!r}",
                               location=location, field=field,
                               hint=f"quote it; accepted forms: {', '.join(cls.forms)}")
        m = cls._regex.fullmatch(text.strip())
        if not m:
            raise VersionError(f"malformed {cls.kind} version {text!r}", location=location,
                               field=field, hint=cls._hint(text.strip()))
        return cls(text.strip(), Version(cls._keyfor(m)))

    @classmethod
    def _hint(cls, text: str) -> str:
        forms = f"accepted forms: {', '.join(cls.forms)}"
        # CANN spells RC/T upper case, drivers spell rc lower case. Drivers are numbered 20+
        # (23.0.3), CANN below (8.0.RC2): use that to tell a wrong case from a wrong field.
        major = re.match(r"\d+", text)
        looks_driver = major is not None and int(major.group()) >= 20
        if (cls is CannVersion) == looks_driver:
            other = DriverVersion if looks_driver else CannVersion
            if other._regex.fullmatch(text):
                return f"{text!r} looks like a {other.kind} version; {forms}"
        upper = cls is CannVersion
        fixed = re.sub(r"\.(rc|t)(\d)", lambda m: "." + (m.group(1).upper() if upper else
                                                          m.group(1).lower()) + m.group(2),
                       text, flags=re.IGNORECASE)
        if fixed != text and cls._regex.fullmatch(fixed):
            return f"did you mean {fixed!r}? {forms}"
        return forms

    @property
    def pep440(self) -> str:
        return str(self.key)

    @property
    def major_minor(self) -> tuple[int, int]:
        return self.key.release[0], self.key.release[1]

    @property
    def is_final(self) -> bool:
        """A general-availability release (not a T-build, RC, alpha or beta)."""
        return not self.key.is_prerelease

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __eq__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.key == other.key

    def __lt__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.key < other.key

    def __hash__(self):
        return hash((type(self).__name__, self.key))


class CannVersion(_Version):
    kind = "CANN"
    forms = CANN_FORMS
    _regex = _CANN_RE
    __slots__ = ()

    @classmethod
    def _keyfor(cls, m):
        return _cann_key(m)


class DriverVersion(_Version):
    kind = "driver"
    forms = DRIVER_FORMS
    _regex = _DRIVER_RE
    __slots__ = ()

    @classmethod
    def _keyfor(cls, m):
        return _driver_key(m)


def parse_cann(text, **where) -> CannVersion:
    return CannVersion.parse(text, **where)


def parse_driver(text, **where) -> DriverVersion:
    return DriverVersion.parse(text, **where)


class Specifier:
    """A comma-separated set of clauses over CANN or driver versions, e.g. `>=8.0.RC2,<8.2`.

    A bare version means `==` that version. RCs and T-builds are ordinary CANN releases, so
    pre-releases always match when the clauses allow them.
    """

    __slots__ = ("text", "vcls", "_set")

    def __init__(self, text: str, vcls: type[_Version], spec: SpecifierSet):
        self.text = text
        self.vcls = vcls
        self._set = spec

    @classmethod
    def parse(cls, text, vcls: type[_Version] = CannVersion, *,
              location: Location | None = None, field: str | None = None) -> "Specifier":
        if isinstance(text, Specifier):
            return text
        hint = (f"accepted forms: {', '.join(SPEC_FORMS)} (versions like "
                f"{', '.join(vcls.forms)})")
        if not isinstance(text, str) or not text.strip():
            raise VersionError(f"{vcls.kind} version specifier must be a non-empty string, "
                               f"got {text!r}", location=location, field=field, hint=hint)
        clauses = []
        for raw in text.split(","):
            m = _CLAUSE_RE.fullmatch(raw)
            if not m or not m.group("ver"):
                raise VersionError(f"malformed {vcls.kind} specifier clause {raw.strip()!r} "
                                   f"in {text!r}", location=location, field=field, hint=hint)
            op, ver, star = m.group("op") or "==", m.group("ver"), m.group("star") or ""
            if op == "===":
                raise VersionError(f"'===' is not supported in {text!r}", location=location,
                                   field=field, hint=hint)
            if star and op not in ("==", "!="):
                raise VersionError(f"'.*' only goes with == or != in {text!r}",
                                   location=location, field=field, hint=hint)
            if _PREFIX_RE.fullmatch(ver):
                key = ver
            else:
                try:
                    key = vcls.parse(ver).pep440
                except VersionError as exc:
                    # keep the version's own hint first ("looks like a driver version", ...)
                    raise VersionError(f"malformed {vcls.kind} version {ver!r} in specifier "
                                       f"{text!r}", location=location, field=field,
                                       hint=f"{exc.hint}; specifiers: "
                                            f"{', '.join(SPEC_FORMS)}") from None
                if star:
                    raise VersionError(f"'.*' needs a release prefix like 8.0, in {text!r}",
                                       location=location, field=field, hint=hint)
            if op == "~=" and len(Version(key).release) < 2:
                raise VersionError(f"'~=' needs at least major.minor, in {text!r}",
                                   location=location, field=field, hint=hint)
            clauses.append(f"{op}{key}{star}")
        try:
            spec = SpecifierSet(",".join(clauses))
        except InvalidSpecifier as exc:  # pragma: no cover - the clauses above are well formed
            raise VersionError(f"malformed specifier {text!r}: {exc}", location=location,
                               field=field, hint=hint) from None
        return cls(text.strip(), vcls, spec)

    def contains(self, version) -> bool:
        v = self.vcls.parse(version)
        return self._set.contains(v.key, prereleases=True)

    __contains__ = contains

    def filter(self, versions):
        return [v for v in versions if self.contains(v)]

    @property
    def pep440(self) -> str:
        return str(self._set)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Specifier({self.text!r}, {self.vcls.kind})"

    def __eq__(self, other):
        return (isinstance(other, Specifier) and self.vcls is other.vcls
                and self._set == other._set)

    def __hash__(self):
        return hash((self.vcls.__name__, self._set))


def cann_spec(text, **where) -> Specifier:
    return Specifier.parse(text, CannVersion, **where)


def driver_spec(text, **where) -> Specifier:
    return Specifier.parse(text, DriverVersion, **where)


# The names the manifest validator looks up.
parse_cann_spec = cann_spec
parse_driver_spec = driver_spec
