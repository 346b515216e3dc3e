"""Distributed compiles through distcc: the `distcc:` workspace setting, $DISTCC_HOSTS, and how a
compile step's command runs through the `distcc` client.

    distcc:
      hosts: "build1/8 build2:3633/8"   # distcc's own syntax (man distcc, HOST SPECIFICATIONS)
      enabled: true                     # the default when the section is present

$DISTCC_HOSTS, when set, names the hosts instead (a CI runner's own pool) and turns distcc on
unless the workspace says `enabled: false`. distcc preprocesses every compile on this machine
(the emulation headers, generated entries and forced includes never leave it) and sends only
the preprocessed text, so a host needs nothing but the same compiler at the same path; objects
are byte-identical to local ones. The command line is wrapped when the step runs, never in the
plan, so a step's identity and cache key are the same with distcc on or off. A host that is
down or refuses work costs nothing but time: distcc compiles locally instead, and the build
says so once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from opkg.core.errors import BuildError, UsageError
from opkg.core.settings import DistccSettings

ENV_HOSTS = "DISTCC_HOSTS"
# a line distcc itself writes on stderr, e.g. "distcc[123] (dcc_build_somewhere) Warning: ..."
_OWN_LINE = re.compile(r"^distcc\[\d+\] (\([a-z_]+\) )?")
_FELL_BACK = ("running locally instead", "retrying locally")


@dataclass(frozen=True)
class Distcc:
    """What a build runs compiles with: the client, the hosts, their total job slots."""

    binary: str
    hosts: str
    slots: int

    def to_plan(self) -> dict:
        return {"binary": self.binary, "hosts": self.hosts}


def resolve(settings: DistccSettings | None, env=os.environ) -> Distcc | None:
    """The distcc a build uses, or None (off). Bad hosts, or distcc missing, stop the build
    before anything runs: a misconfiguration is reported, never silently compiled around."""
    env_hosts = env.get(ENV_HOSTS, "").strip()
    if settings is not None and not settings.enabled:
        return None
    if settings is None and not env_hosts:
        return None
    hosts = env_hosts or settings.hosts
    where = {"field": ENV_HOSTS} if env_hosts else {"field": settings.field,
                                                    "location": settings.location}
    if not hosts:
        raise UsageError("distcc is enabled but names no hosts", **where,
                         hint="add hosts: 'build1/8 build2/8' to the distcc section of "
                              "opkg-workspace.yaml, set $DISTCC_HOSTS, or write enabled: false")
    if any(",cpp" in h for h in hosts.split()):
        raise UsageError(f"{hosts!r} asks for distcc's pump mode (,cpp)", **where,
                         hint="opkg preprocesses every compile locally (the emulation headers "
                              "stay on this machine); drop ',cpp' from the host list")
    binary = shutil.which("distcc")
    if binary is None:
        raise BuildError("distcc is enabled but the distcc client is not installed", **where,
                         hint="install it (Debian/Ubuntu: apt-get install distcc), or turn "
                              "distributed compiles off with enabled: false")
    try:
        # distcc's own host parser: its -j is the hosts' total job slots, or nothing on error
        out = subprocess.run([binary, "-j"], env={**env, ENV_HOSTS: hosts}, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        raise BuildError(f"cannot run {binary}: {exc}") from None
    if not out.stdout.strip().isdigit():
        problems = [_OWN_LINE.sub("", l).removeprefix("ERROR: ")
                    for l in out.stderr.splitlines() if l.strip()]
        raise UsageError(f"distcc rejects {hosts!r}: "
                         + (problems[0] if problems else "no host list"), **where,
                         hint="HOST[:PORT][/SLOTS] or localhost[/SLOTS], space-separated "
                              "(man distcc, HOST SPECIFICATIONS)")
    return Distcc(binary, hosts, int(out.stdout.strip()))


def wrap(config: dict, argv: list[str]) -> tuple[list[str], dict]:
    """The command and environment that run the compile `argv` through distcc (`config`:
    Distcc.to_plan())."""
    return [config["binary"], *argv], {**os.environ, ENV_HOSTS: config["hosts"]}


def split_stderr(stderr: str) -> tuple[str, list[str]]:
    """(the compiler's own messages, distcc's lines without their prefix)."""
    own, client = [], []
    for line in stderr.splitlines(keepends=True):
        if _OWN_LINE.match(line):
            client.append(_OWN_LINE.sub("", line).strip())
        else:
            own.append(line)
    return "".join(own), client


def fallback(client_lines: list[str]) -> str | None:
    """Why distcc compiled on this machine after all (its first error), or None."""
    if not any(any(f in l for f in _FELL_BACK) for l in client_lines):
        return None
    errors = [l.removeprefix("ERROR: ") for l in client_lines if l.startswith("ERROR:")]
    return (errors or client_lines)[0]
