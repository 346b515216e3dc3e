"""Toolchain resolution: for each (package, SoC), which toolchain builds it, and what is misaligned.

Pure functions over data: the package's pins, the SoC row, what discovery found and the CANN
release table go in; Choices and Problems come out. Nothing is read or run here, so every rule
is tested with plain values. The CLI (`opkg toolchain check`, `opkg lock`, `opkg build`) renders
the result; Problems become one ToolchainError (exit 3).

The rules, like Bazel's toolchain resolution:
  - `--toolchain sim`: sim. `--toolchain cann-<v>`: that installed toolkit, checked against the
    pins. `--toolchain cann`: the highest installed toolkit that satisfies the pins and the SoC.
  - nothing requested: a package with a `toolchain.cann` pin gets the highest installed toolkit that
    satisfies it and supports the SoC; installed toolkits that all miss the pin are a Problem.
    Without a pin, or with no CANN installed at all, `sim` builds it and a note says why.
  - the driver: a build host usually has none; then the driver pin and the release's driver
    minimum are noted, to be checked where the bundle runs (`for_run=True` makes them Problems).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from opkg.core.errors import ToolchainError, UsageError
from opkg.core.model import SocInfo
from opkg.toolchains.discovery import Installation, Toolkit
from opkg.core.releases import ReleaseTable
from opkg.core.versions import CannVersion, Specifier, cann_spec, driver_spec, parse_cann

SIM = "sim"


@dataclass(frozen=True)
class Request:
    """One (package, SoC) to resolve. `package` is its label (//packages/layernorm); messages
    name it as users write paths: packages/layernorm."""

    package: str
    soc: SocInfo
    cann: str | None = None          # the package's toolchain.cann specifier
    driver: str | None = None        # the package's toolchain.driver specifier
    pin_source: str = ""             # where a pin also came from, e.g. " (with toolchains/pins.yaml)"


@dataclass(frozen=True)
class Problem:
    kind: str       # cann_pin | not_installed | soc_unsupported | driver_too_old | driver_pin | no_driver | no_compiler | sim_no_device
    package: str
    soc: str
    message: str
    hint: str | None = None
    pins: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        return {"kind": self.kind, "package": self.package, "soc": self.soc,
                "message": self.message, "hint": self.hint, "pins": dict(self.pins)}


@dataclass(frozen=True)
class Choice:
    package: str
    soc: str
    toolchain: str                   # 'sim' or 'cann-<version>'
    toolkit: Toolkit | None = None
    pins: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    driver: str | None = None        # driver version found, if any

    @property
    def version(self) -> str | None:
        return str(self.toolkit.version) if self.toolkit else None

    def to_json(self) -> dict:
        return {"package": self.package, "soc": self.soc, "toolchain": self.toolchain,
                "version": self.version,
                "root": str(self.toolkit.root) if self.toolkit else None,
                "pins": dict(self.pins), "driver": self.driver, "notes": list(self.notes)}


@dataclass(frozen=True)
class Resolution:
    choices: tuple[Choice, ...]
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def choice(self, package: str, soc: str) -> Choice | None:
        for c in self.choices:
            if c.package == package and c.soc == soc:
                return c
        return None

    def error(self) -> ToolchainError | None:
        """One ToolchainError listing every problem, or None when aligned."""
        if not self.problems:
            return None
        lines = list(dict.fromkeys(p.message for p in self.problems))  # one per distinct problem
        hints = list(dict.fromkeys(p.hint for p in self.problems if p.hint))
        head = "toolchain misalignment" if len(lines) > 1 else lines[0]
        body = head if len(lines) == 1 else head + ":\n  " + "\n  ".join(lines)
        return ToolchainError(body, hint="; ".join(hints) or None)

    def to_json(self) -> dict:
        return {"choices": [c.to_json() for c in self.choices],
                "problems": [p.to_json() for p in self.problems]}


def parse_requested(requested: str | None) -> tuple[str | None, CannVersion | None]:
    """'sim' | 'cann' | 'cann-<version>' -> (family, version); None -> (None, None)."""
    if not requested:
        return None, None
    if requested == SIM:
        return SIM, None
    if requested == "cann":
        return "cann", None
    if requested.startswith("cann-"):
        return "cann", parse_cann(requested[len("cann-"):], field="--toolchain")
    raise UsageError(f"unknown toolchain {requested!r}", field="--toolchain",
                     hint="use sim, cann (the highest installed that fits) or cann-<version>, "
                          "e.g. cann-8.0.RC2; `opkg toolchain list` shows what is installed")


def resolve(requests, installation: Installation, releases: ReleaseTable, *,
            requested: str | None = None, for_run: bool = False,
            requested_by: str = "--toolchain") -> Resolution:
    """`requested_by` names where `requested` came from, for the notes and messages."""
    family, version = parse_requested(requested)
    choices, problems = [], []
    for req in requests:
        choice, probs = _resolve_one(req, installation, releases, family, version, for_run,
                                     requested_by)
        if for_run and choice is not None and choice.toolchain == SIM:
            probs = [*probs, *_sim_cannot_run(req, choice, installation)]
        if choice is not None:
            choices.append(choice)
        pins = {"cann": req.cann, "driver": req.driver}
        problems.extend(replace(p, pins=pins) for p in probs)
    return Resolution(tuple(choices), tuple(problems))


def _display(label: str) -> str:
    return label[2:] if label.startswith("//") else label


def _pin(kind: str, spec) -> str:
    """'cann>=8.1.RC1'; a bare version pin reads 'cann==8.0.RC2'."""
    text = str(spec)
    return f"{kind}{text}" if text[:1] in "<>=!~" else f"{kind}=={text}"


def _where(tk: Toolkit) -> str:
    return f"{tk.version} at {tk.root}"


def _installed_list(toolkits) -> str:
    return ", ".join(_where(t) for t in toolkits) if toolkits else "none"


def _soc_support(tk: Toolkit, soc: SocInfo, releases: ReleaseTable) -> tuple[bool | None, str]:
    """Whether a toolkit supports a SoC: its platform_config files answer first, then the table."""
    own = tk.supports_soc(soc.name)
    if own is not None:
        why = ("" if own else
               f"no platform_config/{soc.name}.ini in {tk.arch_dir or tk.root}")
        return own, why
    listed = releases.info(tk.version).supports(soc.short)
    if listed is False:
        return False, f"{soc.short} is not among CANN {tk.version}'s SoCs in {releases.path.name}"
    return listed, ""


def _suggest(spec: Specifier, releases: ReleaseTable, soc: SocInfo, installed) -> str:
    """The release to install: the lowest known one that fits when everything installed is too
    old, else the highest known one that fits."""
    fits = [v for v in releases.versions()
            if spec.contains(v) and releases.info(v).supports(soc.short) is not False]
    if not fits:
        return f"install a CANN release matching {spec}"
    too_old = all(t.version < fits[0] for t in installed) if installed else True
    return f"install {fits[0] if too_old else fits[-1]}"


def _resolve_one(req: Request, inst: Installation, releases: ReleaseTable,
                 family: str | None, forced: CannVersion | None, for_run: bool,
                 by: str = "--toolchain"):
    soc, pkg = req.soc, _display(req.package)
    pins = {"cann": req.cann, "driver": req.driver}
    spec = cann_spec(req.cann, field="toolchain.cann") if req.cann else None
    toolkits = list(inst.toolkits)
    tag = f"{pkg} ({soc.name})"

    if family == SIM:
        notes = (f"sim: requested by {by}",)
        if spec:
            notes += (f"the pin {_pin('cann', spec)} applies to CANN builds only",)
        return Choice(req.package, soc.name, SIM, None, pins, notes), []

    if family is None and spec is None:
        note = "sim: the package pins no CANN version"
        if toolkits:
            best = max(toolkits, key=lambda t: t.version)
            note += f" (use --toolchain cann to build with CANN {_where(best)})"
        return Choice(req.package, soc.name, SIM, None, pins, (note,)), []

    if not toolkits:
        if family is None:
            return Choice(req.package, soc.name, SIM, None, pins, (
                f"sim: no CANN toolkit installed (searched {', '.join(inst.searched)}); "
                f"{_pin('cann', spec)} applies once CANN is installed",)), []
        want = f"cann-{forced}" if forced else "cann"
        required = f"; required: {_pin('cann', spec)}" if spec else ""
        return None, [Problem("not_installed", req.package, soc.name,
                              f"{tag}: {by} asks for {want} but no CANN toolkit is installed "
                              f"(searched {', '.join(inst.searched)}){required}",
                              "install the CANN toolkit, set ASCEND_HOME_PATH (source set_env.sh),"
                              " or build with --toolchain sim")]

    if forced is not None:
        same = [t for t in toolkits if t.version == forced]
        if not same:
            return None, [Problem("not_installed", req.package, soc.name,
                                  f"{tag}: cann-{forced} ({by}) is not installed; installed: "
                                  f"{_installed_list(toolkits)}",
                                  f"install CANN {forced} or pick an installed version")]
        tk = same[0]
        if spec and not spec.contains(tk.version):
            return None, [Problem("cann_pin", req.package, soc.name,
                                  f"{pkg} pins {_pin('cann', spec)}{req.pin_source} "
                                  f"(for {soc.name}); "
                                  f"cann-{forced} ({by}) at {tk.root} is outside it; "
                                  "pick a toolchain inside the pin or relax the pin")]
        supported, why = _soc_support(tk, soc, releases)
        if supported is False:
            return None, [Problem("soc_unsupported", req.package, soc.name,
                                  f"CANN {tk.version} does not support {soc.name}: {why}",
                                  f"install the {soc.short} support for CANN {tk.version} "
                                  "(its ops/kernels package) or pick another toolkit")]
        return _with_driver(req, tk, inst, releases, for_run, pins,
                            (f"cann-{forced}: requested by {by}",), supported)

    # Highest installed toolkit that satisfies the pin and supports the SoC.
    in_pin = [t for t in toolkits if spec is None or spec.contains(t.version)]
    if not in_pin:
        return None, [Problem("cann_pin", req.package, soc.name,
                              f"{pkg} pins {_pin('cann', spec)}{req.pin_source} "
                              f"(for {soc.name}); installed: "
                              f"{_installed_list(toolkits)}; "
                              f"{_suggest(spec, releases, soc, toolkits)} or relax the pin")]
    usable, refused = [], []
    for t in in_pin:
        supported, why = _soc_support(t, soc, releases)
        (refused if supported is False else usable).append((t, supported, why))
    if not usable:
        details = "; ".join(f"CANN {t.version}: {why}" for t, _, why in refused)
        return None, [Problem("soc_unsupported", req.package, soc.name,
                              f"{tag}: no installed CANN inside the pin supports {soc.name} "
                              f"({details})",
                              f"install a CANN release with {soc.short} support or remove "
                              f"{soc.name} from the package's socs")]
    # max() keeps the first of equal versions: discovery order ($ASCEND_HOME_PATH first) wins ties.
    tk, supported, _ = max(usable, key=lambda u: u[0].version)
    why = (f"cann-{tk.version}: highest installed inside {_pin('cann', spec)}" if spec
           else f"cann-{tk.version}: highest installed ({by} cann)")
    notes = [why]
    for t, _, reason in refused:
        notes.append(f"skipped CANN {t.version}: {reason}")
    return _with_driver(req, tk, inst, releases, for_run, pins, tuple(notes), supported)


def _no_driver(req: Request, wanted: list[str]) -> Problem:
    return Problem("no_driver", req.package, req.soc.name,
                   f"{_display(req.package)} ({req.soc.name}): no NPU driver found (no "
                   "driver/version.info under the Ascend roots, none named by "
                   "/etc/ascend_install.info)"
                   + (f"; required: {', '.join(wanted)}" if wanted else ""),
                   "install the Ascend driver, or run the check on the NPU host")


def _sim_cannot_run(req: Request, choice: "Choice", inst: Installation) -> list[Problem]:
    """--for-run asks whether the target can run on an NPU here: a sim build holds no device
    binary, and without a driver nothing runs at all."""
    why = choice.notes[0] if choice.notes else "sim"
    problems = [Problem("sim_no_device", req.package, req.soc.name,
                        f"{_display(req.package)} ({req.soc.name}) builds with {why}; a sim "
                        "bundle holds no device binary, so nothing of it runs on an NPU",
                        "install a CANN toolkit inside the pin (opkg toolchain list shows what "
                        "is found) and build with it, or drop --for-run on a build host")]
    if inst.driver is None:
        wanted = [f"{_pin('driver', driver_spec(req.driver, field='toolchain.driver'))} (pin)"] \
            if req.driver else []
        problems.append(_no_driver(req, wanted))
    return problems


def _with_driver(req: Request, tk: Toolkit, inst: Installation, releases: ReleaseTable,
                 for_run: bool, pins: dict, notes: tuple[str, ...], supported):
    soc, pkg = req.soc, _display(req.package)
    notes = list(notes)
    problems: list[Problem] = []
    if supported is None:
        notes.append(f"SoC support for {soc.name} not known for CANN {tk.version} (no "
                     f"platform_config in the toolkit, none listed in cann_releases.yaml)")
    need = releases.info(tk.version).driver_spec(soc.short)
    pin = driver_spec(req.driver, field="toolchain.driver") if req.driver else None
    drv = inst.driver
    if need is None:
        notes.append(f"CANN {tk.version}'s driver minimum for {soc.short} is not in "
                     f"{releases.path.name}; add it there to have it checked")
    if drv is None:
        wanted = [f"{_pin('driver', pin)} (pin)"] if pin else []
        wanted += [f"{_pin('driver', need)} (CANN {tk.version} on {soc.short})"] if need else []
        if for_run:
            problems.append(_no_driver(req, wanted))
        else:
            notes.append("no driver on this host (a build host): "
                         + (", ".join(wanted) if wanted else "driver requirements")
                         + " checked where the bundle is installed or run (--for-run)")
        return Choice(req.package, soc.name, tk.id, tk, pins, tuple(notes), None), problems
    found = f"{drv.version} at {drv.version_file}"
    if need is not None and not need.contains(drv.version):
        problems.append(Problem("driver_too_old", req.package, soc.name,
                                f"CANN {tk.version} needs {_pin('driver', need)} for {soc.short}; "
                                f"found {found} ({pkg}, {soc.name})",
                                f"upgrade the driver to match {need}, or pin a CANN release "
                                "that supports this driver"))
    if pin is not None and not pin.contains(drv.version):
        problems.append(Problem("driver_pin", req.package, soc.name,
                                f"{pkg} pins {_pin('driver', pin)}{req.pin_source} "
                                f"(for {soc.name}); found {found}",
                                "install a matching driver or relax the pin"))
    return Choice(req.package, soc.name, tk.id, tk, pins, tuple(notes), str(drv.version)), problems
