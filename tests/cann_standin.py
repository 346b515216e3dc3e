"""Stand-in CANN installs for tests: version files, platform_config ini files, and (later in
the suite) stand-in msopgen/bisheng executables. No real CANN is needed or touched."""

from __future__ import annotations

import os
from pathlib import Path

ARCH = "x86_64-linux"


def make_toolkit(ascend_root: Path, version: str, *, layout: str = "toolkit",
                 socs=("Ascend910B1", "Ascend910B2", "Ascend310P3"), latest: bool = False,
                 tools: bool = True) -> Path:
    """Lay out one toolkit: layout 'toolkit' is <root>/ascend-toolkit/<v> (CANN <= 8.3),
    'cann' is <root>/cann-<v> (CANN 8.5+). Returns the toolkit directory."""
    if layout == "toolkit":
        home = ascend_root / "ascend-toolkit" / version
    else:
        home = ascend_root / f"cann-{version}"
    arch = home / ARCH
    arch.mkdir(parents=True)
    (arch / "ascend_toolkit_install.info").write_text(
        f"package_name=Ascend-cann-toolkit\nversion={version}\ninnerversion=V100R001\n"
        f"arch=x86_64\nos=linux\npath={arch}\n")
    if socs is not None:
        cfg = arch / "data" / "platform_config"
        cfg.mkdir(parents=True)
        for soc in socs:
            (cfg / f"{soc}.ini").write_text(f"[version]\nSoC_version={soc}\n")
    if tools:
        for rel in ("compiler/ccec_compiler/bin/bisheng", "python/site-packages/bin/msopgen"):
            exe = home / rel
            exe.parent.mkdir(parents=True, exist_ok=True)
            exe.write_text(f"#!/bin/sh\n# stand-in {exe.name} {version}\nexit 0\n")
            exe.chmod(0o755)
    if latest:
        link = home.parent / ("latest" if layout == "toolkit" else "cann")
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(home.name if layout == "toolkit" else home)
    return home


def make_driver(ascend_root: Path, version: str) -> Path:
    d = ascend_root / "driver"
    d.mkdir(parents=True, exist_ok=True)
    info = d / "version.info"
    info.write_text(f"Version={version}\nascendhal_version=7.35.19\n")
    return info


def isolated_env(ascend_root: Path, **extra) -> dict:
    """An environment that sees only `ascend_root` (no real /usr/local/Ascend, no /etc file)."""
    env = {"OPKG_ASCEND_ROOTS": str(ascend_root), "OPKG_ASCEND_INSTALL_INFO": "",
           "PATH": os.environ.get("PATH", "")}
    env.update({k: str(v) for k, v in extra.items()})
    return env


REPO = Path(__file__).resolve().parent.parent
ENV_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH")


def make_workspace(root: Path, packages=("layernorm",), pins: dict | None = None,
                   default_toolchain: str | None = None) -> Path:
    """A workspace holding copies of the repository's example packages; `pins` replaces a
    package's `toolchain:` line, e.g. {"layernorm": '{cann: ">=8.1.RC1"}'} ('' drops it)."""
    import shutil

    (root / "packages").mkdir(parents=True)
    text = "package_roots: [packages]\noutput_dir: out\n"
    if default_toolchain:
        text += f"default_toolchain: {default_toolchain}\n"
    (root / "opkg-workspace.yaml").write_text(text)
    for name in packages:
        dest = root / "packages" / name
        shutil.copytree(REPO / "packages" / name, dest)
        if pins and name in pins:
            manifest = dest / "opkg.yaml"
            lines = [l for l in manifest.read_text().splitlines()
                     if not l.startswith("toolchain:")]
            if pins[name]:
                lines.append(f"toolchain: {pins[name]}")
            manifest.write_text("\n".join(lines) + "\n")
    return root


def use_stand_in_roots(monkeypatch, ascend_root: Path) -> None:
    """Make discovery in this process see only `ascend_root`."""
    monkeypatch.setenv("OPKG_ASCEND_ROOTS", str(ascend_root))
    monkeypatch.setenv("OPKG_ASCEND_INSTALL_INFO", "")
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
