"""The distribution, ascend-opkg: its wheel holds everything opkg reads at run time, and installed
into a fresh virtual environment outside this checkout it creates a workspace, a package, builds,
verifies and publishes it.

The wheel is built as `make dist` builds it (python -m build --no-isolation), from a copy of the
sources in a temporary directory, so nothing is written into the checkout. The fresh
environment gets opkg only from the wheel; its dependencies (NumPy, SCons, ...) are this test
environment's, made visible through a .pth file, so the test needs no network: pip installs the
wheel with --no-index and checks those dependencies are satisfied."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

# one worker runs the whole file (make test: --dist loadgroup), so its module fixture builds the
# wheel and its venv once per run, not once per worker
pytestmark = pytest.mark.xdist_group("test_dist")

SOC = "Ascend910B1"
# what the source tree holds under opkg/ that is neither Python nor needed at run time
NOT_SHIPPED = {"opkg/sim/README.md"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    # symlinks (opkg/toolchains_builtin -> toolchains/) are copied as the files they name
    shutil.copytree(REPO / "opkg", src / "opkg",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                        str(src)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = list(out.glob("ascend_opkg-*-py3-none-any.whl"))
    assert len(wheels) == 1 and list(out.glob("ascend_opkg-*.tar.gz")), sorted(out.iterdir())
    return wheels[0]


def _source_data_files() -> set[str]:
    return {p.relative_to(REPO).as_posix() for p in (REPO / "opkg").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc")}


def test_the_wheel_holds_every_file_opkg_reads(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(f"{dist_info}/METADATA").decode()
        entry_points = z.read(f"{dist_info}/entry_points.txt").decode()
    wanted = _source_data_files() - NOT_SHIPPED
    assert len(wanted) > 300        # the sim headers, templates, schemas, tables, SConstruct
    assert sorted(wanted - names) == []
    python = {p.relative_to(REPO).as_posix() for p in (REPO / "opkg").rglob("*.py")}
    assert sorted(python - names) == []
    assert "Name: ascend-opkg" in metadata.splitlines()
    # the command keeps its name, with an alias that clashes with nothing (OpenWrt's opkg)
    assert "opkg = opkg.__main__:main" in entry_points
    assert "ascend-opkg = opkg.__main__:main" in entry_points


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True,
                   timeout=120)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"], capture_output=True,
                             text=True, check=True).stdout.strip()
    # this environment's dependencies, after the venv's own site-packages on sys.path (a .pth
    # adds directories, it does not run the .pth files in them: the editable opkg of this
    # checkout stays out)
    Path(purelib, "zz_test_dependencies.pth").write_text(
        "\n".join(p for p in site.getsitepackages() if Path(p).is_dir()) + "\n")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                        "--no-index", "--no-cache-dir", "--disable-pip-version-check",
                        str(wheel)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Successfully installed ascend-opkg" in r.stdout, r.stdout
    return env_dir


def run(venv: Path, *args, cwd: Path, check: int | None = 0):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    r = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=900)
    if check is not None:
        assert r.returncode == check, f"{args}:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    return r


def test_the_installed_tool_works_outside_the_checkout(venv, tmp_path):
    here = tmp_path / "elsewhere"
    here.mkdir()
    assert not here.is_relative_to(REPO)
    where = run(venv, "python", "-c", "import opkg; print(opkg.__file__)", cwd=here).stdout
    assert Path(where.strip()).is_relative_to(venv), where       # from the wheel, not from here
    assert run(venv, "opkg", "--version", cwd=here).stdout.strip() == "opkg, version 0.1.0"
    assert "Usage: opkg" in run(venv, "ascend-opkg", "--help", cwd=here).stdout
    schema = Path(run(venv, "opkg", "schema", "workspace", cwd=here).stdout.strip())
    assert schema.is_relative_to(venv) and json.loads(schema.read_text())["title"]

    # outside a workspace, `new` says how to make one instead of writing a stray package
    r = run(venv, "opkg", "new", "my_add", cwd=here, check=2)
    assert "opkg init" in r.stderr and not (here / "my_add").exists()

    r = run(venv, "opkg", "init", "ops", "--no-sample", cwd=here)
    assert r.stdout.splitlines()[-1] == "next: cd ops && opkg new NAME"
    ws = here / "ops"
    assert {p.name for p in ws.iterdir()} == {"opkg-workspace.yaml", ".gitignore"}
    r = run(venv, "opkg", "new", "my_add", cwd=ws)
    assert "op type MyAdd" in r.stdout and r.stdout.splitlines()[-1] == \
        "next: opkg build packages/my_add"

    r = run(venv, "opkg", "build", "//...", "--soc", SOC, "-v", cwd=ws)
    assert list((ws / "out" / "bundles").glob("my_add-*.opkg.tgz"))
    # the kernel was compiled against the emulation headers the wheel installed
    compiles = [l for l in (r.stdout + r.stderr).splitlines()
                if l.lstrip().startswith("$ ") and "my_add.cpp" in l]
    assert compiles and all(f"{venv}/" in l and str(REPO) not in l for l in compiles), compiles

    r = run(venv, "opkg", "test", "//...", "--soc", SOC, "--json", cwd=ws)
    summary = json.loads(r.stdout)
    assert summary["ok"] and summary["cases"] and all(c["passed"] for c in summary["cases"])
    # nothing failed last time: --lf runs every case again, as pytest's --lf does
    r = run(venv, "opkg", "test", "--lf", "--soc", SOC, "--json", cwd=ws)
    lf = json.loads(r.stdout)
    assert lf["ok"] and len(lf["cases"]) == len(summary["cases"])
    r = run(venv, "opkg", "publish", "//...", "--soc", SOC, cwd=ws)
    assert "published my_add 0.1.0" in r.stdout
    assert "my_add" in run(venv, "opkg", "search", cwd=ws).stdout
    assert (ws / "registry").is_dir()
