"""Remote cache settings: where the REAPI server is and how to authenticate (no gRPC here).

Sources, strongest first: `--remote-cache URL` (which sets $OPKG_REMOTE_CACHE for the run),
$OPKG_REMOTE_CACHE, `remote_cache:` in the workspace file. `off` in either of the first two
turns a workspace's remote cache off for one run.

    remote_cache: grpc://cache.example:8980/main          # or grpcs:// for TLS
    remote_cache:
      url: grpcs://cache.example:443/main
      token_file: ~/.config/opkg/cache-token               # paths only: never a secret
      client_cert: ~/.config/opkg/client.pem
      client_key: ~/.config/opkg/client.key
      ca_cert: /etc/ssl/team-ca.pem

Secrets never sit in the workspace file (it is committed): a bearer token comes from
$OPKG_REMOTE_CACHE_TOKEN or the file named by token_file / $OPKG_REMOTE_CACHE_TOKEN_FILE, and
certificates from files ($OPKG_REMOTE_CACHE_CLIENT_CERT, _CLIENT_KEY, _CA_CERT override the
workspace's paths). Files are read only when the channel is opened.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

ENV_URL = "OPKG_REMOTE_CACHE"
ENV_REQUIRED = "OPKG_REMOTE_CACHE_REQUIRED"
ENV_TOKEN = "OPKG_REMOTE_CACHE_TOKEN"
# the resolved settings, handed from opkg to the SCons process (paths, never the token)
ENV_RESOLVED = "OPKG_REMOTE_CACHE_RESOLVED"
FILE_KEYS = {"token_file": "OPKG_REMOTE_CACHE_TOKEN_FILE",
             "client_cert": "OPKG_REMOTE_CACHE_CLIENT_CERT",
             "client_key": "OPKG_REMOTE_CACHE_CLIENT_KEY",
             "ca_cert": "OPKG_REMOTE_CACHE_CA_CERT"}
KEYS = ("url", *FILE_KEYS)
SECRET_KEYS = ("token", "password", "key", "secret", "authorization")
OFF = ("off", "none", "")
EXAMPLE = "grpc://cache.example:8980/main (grpcs:// for TLS)"
_HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)$")


class BadURL(ValueError):
    """A remote cache URL that cannot be used; the message says why, `hint` what to write."""

    def __init__(self, message: str, hint: str = f"expected {EXAMPLE}"):
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class RemoteConfig:
    url: str                      # as given, for messages
    target: str                   # host:port, for gRPC
    instance: str                 # REAPI instance name ('' = the default instance)
    tls: bool
    token_file: str | None = None
    client_cert: str | None = None
    client_key: str | None = None
    ca_cert: str | None = None
    required: bool = False        # --remote-cache-required: a server problem fails the build
    update: bool = True           # the server lets this client write its action cache

    def to_env(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_env(cls, text: str) -> "RemoteConfig":
        return cls(**json.loads(text))

    def token(self) -> str | None:
        """The bearer token, read now ($OPKG_REMOTE_CACHE_TOKEN, else token_file)."""
        if os.environ.get(ENV_TOKEN):
            return os.environ[ENV_TOKEN].strip()
        if self.token_file:
            return Path(self.token_file).read_text().strip() or None
        return None


def parse_url(text: str) -> tuple[str, str, bool]:
    """'grpc[s]://host:port[/instance]' -> (host:port, instance, tls); BadURL otherwise."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        raise BadURL(f"{text!r} is not a URL")
    scheme = scheme.lower()
    if scheme in ("http", "https"):
        raise BadURL(f"{text!r}: REAPI caches speak gRPC, not HTTP",
                     f"for example {EXAMPLE}")
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
                     f"expected {EXAMPLE}")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BadURL(f"{text!r}: port {port!r} is not a number from 1 to 65535")
    if not _HOST.match(host):
        raise BadURL(f"{text!r}: {host!r} is not a host name or address")
    return f"{host}:{int(port)}", instance.strip("/"), scheme == "grpcs"


def from_workspace(value, doc):
    """Check the workspace's `remote_cache:` (a URL or a mapping of KEYS); errors point at the
    line. Returns a dict of KEYS with file paths resolved against the workspace, or None."""
    if value is None:
        return None
    if isinstance(value, str):
        value, where = {"url": value}, ("remote_cache",)
    elif isinstance(value, dict):
        where = ("remote_cache", "url")
    else:
        raise doc.error(("remote_cache",), "expected a URL or a mapping",
                        f"for example: remote_cache: {EXAMPLE}")
    for key in value:
        if key in KEYS:
            continue
        if any(s in str(key).lower() for s in SECRET_KEYS) and not str(key).endswith(
                ("_file", "_cert")):
            raise doc.error(("remote_cache", key), f"{key!r}: secrets never go in the "
                            "workspace file (it is committed)",
                            f"put the token in ${ENV_TOKEN}, or its path in token_file",
                            at_key=True)
        from opkg.errors import did_you_mean

        raise doc.error(("remote_cache", key), f"unknown remote_cache setting {key!r}",
                        did_you_mean(str(key), KEYS) or f"allowed: {', '.join(KEYS)}",
                        at_key=True)
    url = value.get("url")
    if not isinstance(url, str):
        raise doc.error(where, "expected a URL", f"for example: {EXAMPLE}")
    try:
        parse_url(url)
    except BadURL as exc:
        raise doc.error(where, str(exc), exc.hint) from None
    out = {"url": url}
    for key in FILE_KEYS:
        if key in value:
            if not isinstance(value[key], str):
                raise doc.error(("remote_cache", key), "expected a file path")
            out[key] = str((doc.path.parent / Path(value[key]).expanduser()).resolve())
    return out


def resolve(workspace_setting: dict | None) -> RemoteConfig | None:
    """The remote cache of this run, or None. UsageError for a bad URL or missing file."""
    from opkg.errors import UsageError

    env_url = os.environ.get(ENV_URL)
    if env_url is not None and env_url.strip().lower() in OFF:
        return None
    setting = dict(workspace_setting or {})
    url, source = (env_url.strip(), f"${ENV_URL}") if env_url is not None \
        else (setting.get("url"), "remote_cache")
    if not url:
        return None
    try:
        target, instance, tls = parse_url(url)
    except BadURL as exc:
        raise UsageError(str(exc), field=source, hint=exc.hint) from None
    files = {}
    for key, env in FILE_KEYS.items():
        path = os.environ.get(env) or setting.get(key)
        if not path:
            continue
        path = str(Path(path).expanduser().resolve())
        if not Path(path).is_file():
            raise UsageError(f"{key} {path} does not exist or is not a file",
                             field=f"${env}" if os.environ.get(env) else f"remote_cache.{key}",
                             hint="the remote cache's credentials are read from this file")
        files[key] = path
    if not tls and any(k in files for k in ("client_cert", "client_key", "ca_cert")):
        raise UsageError(f"{url}: certificates need TLS", field=source,
                         hint="use grpcs:// to connect with TLS")
    if ("client_cert" in files) != ("client_key" in files):
        raise UsageError("a client certificate needs both client_cert and client_key",
                         field="remote_cache")
    required = os.environ.get(ENV_REQUIRED, "").strip().lower() in ("1", "true", "yes")
    return RemoteConfig(url=url, target=target, instance=instance, tls=tls, required=required,
                        **files)
