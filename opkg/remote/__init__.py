"""The remote build cache and remote execution over the Remote Execution API v2 (docs/team.md).

config: settings and credentials (no gRPC); client: the REAPI calls; actions: an opkg step as a
REAPI Action; level: the second cache level inside SCons; execute: a step run by a server's
workers; worker and sandbox: `opkg worker`, the bot that runs them. `prepare` and
`prepare_exec` are the engine's side: resolve the settings and check the server once before
SCons starts.
"""

from __future__ import annotations

from dataclasses import replace


def prepare(ws, on_event) -> dict:
    """Environment for the SCons process: the resolved remote cache, or {} (none configured,
    or the server cannot be used: one warning, the build is local). BuildError when the
    server cannot be used and the run requires it."""
    from opkg.remote import config as cfg

    config = cfg.resolve(ws.settings.remote_cache)
    if config is None:
        return {}
    from opkg.core.errors import BuildError

    try:
        from opkg.remote.client import Client, RemoteError
    except ImportError as exc:
        problem = f"the gRPC client is not installed ({exc.name})"
        hint = "pip install 'opkg[remote]'"
        if config.required:
            raise BuildError(f"remote cache {config.url}: {problem}", hint=hint) from None
        on_event({"event": "warning", "message": f"remote cache {config.url}: {problem} "
                  f"({hint}); building locally"})
        return {}
    try:
        client = Client(config)
    except OSError as exc:
        from opkg.core.errors import UsageError

        raise UsageError(f"remote cache {config.url}: cannot read {exc.filename}: "
                         f"{exc.strerror}", hint="the token and certificate files must be "
                         "readable by the user running opkg") from None
    try:
        client.check()
    except RemoteError as exc:
        if config.required:
            raise BuildError(f"remote cache {config.url}: {exc}",
                             hint="--remote-cache-required: the build needs the remote cache; "
                                  "check the server, the URL and the credentials") from None
        on_event({"event": "warning", "message": f"remote cache {config.url}: {exc}; "
                  "building locally"})
        return {}
    finally:
        client.close()
    if not client.can_update:
        on_event({"event": "note", "message": f"remote cache {config.url}: read-only for "
                  "this client (the server does not accept action results)"})
    return {cfg.ENV_RESOLVED: replace(config, update=client.can_update).to_env()}


def prepare_exec(ws) -> dict:
    """Environment for the SCons process: the resolved remote execution service, or {} (none
    configured). Remote execution was asked for, so a server that cannot run actions is a
    BuildError, never a silent local build."""
    from opkg.remote import config as cfg

    config = cfg.resolve(ws.settings.remote_exec, cfg.ENV_EXEC, "remote_exec")
    if config is None:
        return {}
    from opkg.core.errors import BuildError

    try:
        from opkg.remote.client import Client, RemoteError
    except ImportError as exc:
        raise BuildError(f"remote execution {config.url}: the gRPC client is not installed "
                         f"({exc.name})", hint="pip install 'opkg[remote]'") from None
    client = Client(config)
    try:
        if not client.check_execution():
            raise BuildError(f"remote execution {config.url}: the server does not execute "
                             "actions (its capabilities say exec_enabled: false)",
                             hint="a cache-only server goes in remote_cache / --remote-cache")
    except RemoteError as exc:
        raise BuildError(f"remote execution {config.url}: {exc}",
                         hint="check the server and the URL, or build locally with "
                              "--remote-exec off") from None
    finally:
        client.close()
    return {cfg.ENV_EXEC_RESOLVED: config.to_env()}
