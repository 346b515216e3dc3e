"""The adapter between a workspace and toolchain resolution.

It gathers what resolve.py needs (each operator package's pins and SoCs, what discovery finds on
this machine, the workspace's CANN release table) and returns resolve's Resolution. `opkg
toolchain check`, `opkg lock` and `opkg build` all call `check_alignment`, so the three always
agree on which toolchain builds what.
"""

from __future__ import annotations

from opkg.core.errors import UsageError
from opkg.toolchains.discovery import Installation, discover
from opkg.core.pins import PINS_FILE, combine
from opkg.toolchains.resolve import Request, Resolution, resolve


def requests_for(ws, packages, socs=None) -> list[Request]:
    """One Request per (operator package, SoC); `socs` narrows each package's own list.
    toolchains/pins.yaml, when the workspace has one, adds to every package's pins."""
    ws_pins = ws.pins
    out = []
    for pkg in packages:
        if getattr(pkg, "op", None) is None:
            continue           # a header-only library package builds nothing per SoC
        names = [s for s in pkg.socs if not socs or s in socs]
        if socs and not names and len(packages) == 1:
            raise UsageError(f"{pkg.label} does not declare SoC(s) {', '.join(socs)}",
                             field="--soc", hint=f"its socs: {', '.join(pkg.socs)}")
        pins = getattr(pkg, "toolchain_pins", None) or {}
        cann = combine(pins.get("cann"), ws_pins["cann"])
        driver = combine(pins.get("driver"), ws_pins["driver"])
        source = f" (with {PINS_FILE})" if ws_pins["cann"] or ws_pins["driver"] else ""
        for name in names:
            out.append(Request(pkg.label, ws.socs.get_soc(name), cann, driver, source))
    return out


def check_alignment(ws, packages, socs=None, toolchain: str | None = None, *,
                    for_run: bool = False, installation: Installation | None = None,
                    env=None) -> Resolution:
    """Resolve every (package, SoC). `toolchain` is --toolchain (None: the workspace's
    default_toolchain, else resolution). Problems are in the result; `result.error()` is the
    ToolchainError (exit 3) to raise."""
    inst = installation if installation is not None else discover(env=env)
    default = getattr(ws.settings, "default_toolchain", None)
    by = "--toolchain" if toolchain or not default else "default_toolchain in opkg-workspace.yaml"
    res = resolve(requests_for(ws, packages, socs), inst, ws.releases,
                  requested=toolchain or default, for_run=for_run, requested_by=by)
    return _with_sim_compiler(res)


def _with_sim_compiler(res: Resolution) -> Resolution:
    """A (package, SoC) resolved to sim needs the sim's C++ compiler: without it the build
    fails, so the check does too (one `no_compiler` problem per target it leaves unbuildable)."""
    from dataclasses import replace

    from opkg.core.errors import ToolchainError
    from opkg.toolchains.resolve import Problem
    from opkg.toolchains.sim import find_compiler

    sim = [c for c in res.choices if c.toolchain == "sim"]
    if not sim:
        return res
    try:
        find_compiler()
    except ToolchainError as exc:
        missing = tuple(Problem("no_compiler", c.package, c.soc, exc.message, exc.hint, c.pins)
                        for c in sim)
        return replace(res, problems=res.problems + missing)
    return res


def preflight(ws, packages, socs=None, toolchain: str | None = None, *, locked: bool = False,
              installation: Installation | None = None) -> Resolution:
    """What `opkg build` runs before planning: resolve every (package, SoC), refuse early with
    one ToolchainError (exit 3) on misalignment, and with `locked` (--locked) also on any
    difference from opkg.lock. Returns the Resolution; `resolution.choice(label, soc).toolchain`
    is the toolchain id each target builds with."""
    res = check_alignment(ws, packages, socs, toolchain, installation=installation)
    err = res.error()
    if err is not None:
        raise err
    if locked:
        verify_locked(ws, res, packages=packages)
    return res


def toolchain_for(ws, pkg, soc, requested: str | None = None, *,
                  installation: Installation | None = None) -> str:
    """The toolchain id for one (package, SoC) by the same rules; ToolchainError when
    misaligned. A drop-in for a per-target resolver."""
    name = soc if isinstance(soc, str) else soc.name
    res = check_alignment(ws, [pkg], [name], requested, installation=installation)
    err = res.error()
    if err is not None:
        raise err
    return res.choice(pkg.label, name).toolchain


def verify_locked(ws, resolution, sim_identity=None, packages=()) -> None:
    """`opkg build --locked`: raise ToolchainError (exit 3) naming every (package, SoC) whose
    resolution differs from the workspace's opkg.lock (or when there is no lock), and every
    external repository the packages use whose source, commit or tree digest differs."""
    from opkg.toolchains import lock

    names = sorted({name for p in packages for name, _ in p.repositories})
    repos = [ws.repositories.get(n) for n in names]
    lock.verify(ws.root / lock.LOCK_FILE, lock.entries_from(resolution, sim_identity),
                [lock.RepositoryEntry.of(r) for r in repos], {r.name: r.root for r in repos})


def lock_digest(ws) -> str | None:
    """Digest of the workspace's opkg.lock for bundle provenance (None without a lock)."""
    from opkg.toolchains import lock

    return lock.digest(ws.root / lock.LOCK_FILE)
