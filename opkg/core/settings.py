"""The workspace file's settings sections beyond packages, checked where they are read.

`distcc:`, `remote_cache:` and an oci:// `registry:` are checked for shape and syntax when the
workspace loads, so a mistake is reported at its line; each is resolved (hosts asked, files
read, servers reached) by the layer that uses it: build/distcc.py, remote/config.py,
registry/. Pure functions of the YAML document; nothing here imports those layers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from opkg.core.errors import Location, UsageError, did_you_mean

# -- distcc: ----------------------------------------------------------------------------------

DISTCC_KEYS = ("hosts", "enabled")
DISTCC_EXAMPLE = "distcc: {hosts: 'build1/8 build2/8', enabled: true}"


@dataclass(frozen=True)
class DistccSettings:
    """The workspace's `distcc:` section, checked for shape; hosts are checked by distcc itself
    when a build uses them (`resolve`)."""

    hosts: str | None
    enabled: bool
    location: Location            # of `hosts` (or of the section): where errors point
    field: str = "distcc.hosts"


def distcc_from_workspace(value, doc) -> DistccSettings | None:
    """The `distcc:` section of the workspace file (`doc`, a yamlloc.Document), or None."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise doc.error(("distcc",), "expected a mapping", f"for example {DISTCC_EXAMPLE}")
    for key in value:
        if key not in DISTCC_KEYS:
            raise doc.error(("distcc", key), f"unknown distcc setting {key!r}",
                            did_you_mean(key, DISTCC_KEYS)
                            or f"allowed: {', '.join(DISTCC_KEYS)}",
                            at_key=True)
    hosts = value.get("hosts")
    if isinstance(hosts, list) and all(isinstance(h, str) for h in hosts):
        hosts = " ".join(hosts)
    elif hosts is not None and not isinstance(hosts, str):
        raise doc.error(("distcc", "hosts"), "expected distcc host specifications as a string",
                        "for example hosts: 'build1/8 build2:3633/4' (HOST[:PORT][/SLOTS], "
                        "space-separated)")
    enabled = value.get("enabled", True)
    if not isinstance(enabled, bool):
        raise doc.error(("distcc", "enabled"), "expected true or false")
    if "hosts" in value:
        return DistccSettings((hosts or "").strip() or None, enabled, doc.loc(("distcc", "hosts")))
    return DistccSettings(None, enabled, doc.loc(("distcc",), at_key=True), "distcc")


# -- remote_cache: ----------------------------------------------------------------------------

ENV_TOKEN = "OPKG_REMOTE_CACHE_TOKEN"
FILE_KEYS = {"token_file": "OPKG_REMOTE_CACHE_TOKEN_FILE",
             "client_cert": "OPKG_REMOTE_CACHE_CLIENT_CERT",
             "client_key": "OPKG_REMOTE_CACHE_CLIENT_KEY",
             "ca_cert": "OPKG_REMOTE_CACHE_CA_CERT"}
REMOTE_KEYS = ("url", *FILE_KEYS)
SECRET_KEYS = ("token", "password", "key", "secret", "authorization")
REMOTE_EXAMPLE = "grpc://cache.example:8980/main (grpcs:// for TLS)"
_REMOTE_HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)$")


class BadURL(ValueError):
    """A remote cache URL that cannot be used; the message says why, `hint` what to write."""

    def __init__(self, message: str, hint: str = f"expected {REMOTE_EXAMPLE}"):
        super().__init__(message)
        self.hint = hint


def parse_url(text: str) -> tuple[str, str, bool]:
    """'grpc[s]://host:port[/instance]' -> (host:port, instance, tls); BadURL otherwise."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        raise BadURL(f"{text!r} is not a URL")
    scheme = scheme.lower()
    if scheme in ("http", "https"):
        raise BadURL(f"{text!r}: REAPI caches speak gRPC, not HTTP",
                     f"for example {REMOTE_EXAMPLE}")
    if scheme not in ("grpc", "grpcs"):
        raise BadURL(f"{text!r}: unknown scheme {scheme!r}")
    if any(c in rest for c in "?#"):
        raise BadURL(f"{text!r}: a remote cache URL has no query or fragment")
    hostport, _, instance = rest.partition("/")
    if "@" in hostport:
        raise BadURL(f"{text!r}: credentials do not belong in the URL",
                     f"put a token in ${ENV_TOKEN} or a file named by token_file")
    host, colon, port = hostport.rpartition(":")
    if not colon or not host:
        raise BadURL(f"{text!r}: no port (gRPC servers have no default one)",
                     f"expected {REMOTE_EXAMPLE}")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BadURL(f"{text!r}: port {port!r} is not a number from 1 to 65535")
    if not _REMOTE_HOST.match(host):
        raise BadURL(f"{text!r}: {host!r} is not a host name or address")
    return f"{host}:{int(port)}", instance.strip("/"), scheme == "grpcs"


def remote_exec_from_workspace(value, doc):
    """`remote_exec:`, a server with an Execution service: the shape of `remote_cache:`."""
    return remote_cache_from_workspace(value, doc, "remote_exec")


def remote_cache_from_workspace(value, doc, section: str = "remote_cache"):
    """Check the workspace's `remote_cache:` (a URL or a mapping of REMOTE_KEYS); errors point at
    the line. Returns a dict of REMOTE_KEYS with file paths resolved against the workspace, or
    None."""
    if value is None:
        return None
    if isinstance(value, str):
        value, where = {"url": value}, (section,)
    elif isinstance(value, dict):
        where = (section, "url")
    else:
        raise doc.error((section,), "expected a URL or a mapping",
                        f"for example: {section}: {REMOTE_EXAMPLE}")
    for key in value:
        if key in REMOTE_KEYS:
            continue
        if any(s in str(key).lower() for s in SECRET_KEYS) and not str(key).endswith(
                ("_file", "_cert")):
            raise doc.error((section, key), f"{key!r}: secrets never go in the "
                            "workspace file (it is committed)",
                            f"put the token in ${ENV_TOKEN}, or its path in token_file",
                            at_key=True)
        raise doc.error((section, key), f"unknown {section} setting {key!r}",
                        did_you_mean(str(key), REMOTE_KEYS)
                        or f"allowed: {', '.join(REMOTE_KEYS)}",
                        at_key=True)
    url = value.get("url")
    if not isinstance(url, str):
        raise doc.error(where, "expected a URL", f"for example: {REMOTE_EXAMPLE}")
    try:
        parse_url(url)
    except BadURL as exc:
        raise doc.error(where, str(exc), exc.hint) from None
    out = {"url": url}
    for key in FILE_KEYS:
        if key in value:
            if not isinstance(value[key], str):
                raise doc.error((section, key), "expected a file path")
            out[key] = str((doc.path.parent / Path(value[key]).expanduser()).resolve())
    return out


# -- registry: oci://HOST[:PORT]/NAMESPACE ----------------------------------------------------

SCHEME = "oci://"


def is_oci(location: str) -> bool:
    return str(location).startswith(SCHEME)


# distribution's grammar for a repository path component, and a registry host[:port]
OCI_COMPONENT = re.compile(r"^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$")
_OCI_HOST = re.compile(r"^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$")


def parse_location(url: str) -> tuple[str, str]:
    """'oci://host:port/a/b' -> ('host:port', 'a/b'); a usage error says what is wrong."""
    rest = url[len(SCHEME):] if is_oci(url) else ""
    host, _, namespace = rest.partition("/")
    namespace = namespace.rstrip("/")
    hint = "write oci://HOST[:PORT]/NAMESPACE, e.g. oci://registry.example.com:5000/opkg"
    if not host or not _OCI_HOST.match(host):
        raise UsageError(f"registry {url!r}: missing or malformed host", hint=hint)
    if not namespace:
        raise UsageError(f"registry {url!r}: no namespace (the repository prefix opkg "
                         "publishes under)", hint=hint)
    for part in namespace.split("/"):
        if not OCI_COMPONENT.match(part):
            raise UsageError(f"registry {url!r}: {part!r} is not a valid repository name "
                             "component", hint="lower-case letters and digits, separated by "
                             "'.', '_', '__' or '-'")
    return host, namespace


def oci_registry_from_workspace(env_value, value, doc) -> str | None:
    """The `registry:` setting (or $OPKG_REGISTRY, which overrides it) when it names an OCI
    registry, checked here so a malformed URL is reported at its line."""
    given = env_value or value
    if not isinstance(given, str) or not is_oci(given):
        return None
    try:
        parse_location(given)
    except UsageError as exc:
        if env_value:
            raise
        raise doc.error(("registry",), exc.message, exc.hint) from None
    return given
