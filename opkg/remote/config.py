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
from dataclasses import asdict, dataclass
from pathlib import Path

# the section's shape and URL syntax, checked when the workspace loads
from opkg.core.settings import ENV_TOKEN, FILE_KEYS, BadURL, parse_url

ENV_URL = "OPKG_REMOTE_CACHE"
ENV_REQUIRED = "OPKG_REMOTE_CACHE_REQUIRED"
# the resolved settings, handed from opkg to the SCons process (paths, never the token)
ENV_RESOLVED = "OPKG_REMOTE_CACHE_RESOLVED"
OFF = ("off", "none", "")
# remote execution (`--remote-exec URL`, $OPKG_REMOTE_EXEC, `remote_exec:`): the same settings
# (and the same token and certificate variables) for a server with an Execution service
ENV_EXEC = "OPKG_REMOTE_EXEC"
ENV_EXEC_RESOLVED = "OPKG_REMOTE_EXEC_RESOLVED"


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


def resolve(workspace_setting: dict | None, env_var: str = ENV_URL,
            section: str = "remote_cache") -> RemoteConfig | None:
    """The remote cache (or, with ENV_EXEC and remote_exec, the remote execution service) of
    this run, or None. UsageError for a bad URL or missing file."""
    from opkg.core.errors import UsageError

    env_url = os.environ.get(env_var)
    if env_url is not None and env_url.strip().lower() in OFF:
        return None
    setting = dict(workspace_setting or {})
    url, source = (env_url.strip(), f"${env_var}") if env_url is not None \
        else (setting.get("url"), section)
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
                             field=f"${env}" if os.environ.get(env) else f"{section}.{key}",
                             hint="the remote cache's credentials are read from this file")
        files[key] = path
    if not tls and any(k in files for k in ("client_cert", "client_key", "ca_cert")):
        raise UsageError(f"{url}: certificates need TLS", field=source,
                         hint="use grpcs:// to connect with TLS")
    if ("client_cert" in files) != ("client_key" in files):
        raise UsageError("a client certificate needs both client_cert and client_key",
                         field=section)
    required = os.environ.get(ENV_REQUIRED, "").strip().lower() in ("1", "true", "yes")
    return RemoteConfig(url=url, target=target, instance=instance, tls=tls, required=required,
                        **files)
