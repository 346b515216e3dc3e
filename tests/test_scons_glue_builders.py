"""opkg's SCons glue declares every step through one shared Builder per kind of step
(opkg.build.scons_glue.declare). SCons must see the same build as when each step was an
`env.Command` of its own (a Builder per call, paths as strings): the same signatures (an
existing build stays up to date) and the same cache keys (its entries are restored)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from opkg.build.plan import write_plan
from opkg.core.actions import Action, Plan

REPO = Path(__file__).resolve().parent.parent
BUILTIN = REPO / "opkg" / "build" / "SConstruct.builtin"

# The reference: declare() with builders that declare each step as env.Command does, from
# string paths, with a Builder made for that call (the same action and scanner).
REFERENCE = """\
from opkg.build import scons_glue

class PerCall:
    def __init__(self, action, scanner=None):
        self.action, self.scanner = action, scanner

    def __call__(self, env, target, source, **kw):
        extra = {"source_scanner": self.scanner} if self.scanner else {}
        return env.Command([t.get_abspath() for t in target],
                           [s.get_abspath() for s in source], self.action,
                           source_factory=env.fs.File, target_factory=env.fs.File, **extra, **kw)

def per_call(env):
    plain, scanned = shared(env)
    return PerCall(plain.action), PerCall(scanned.action, scanned.source_scanner)

shared, scons_glue._builders = scons_glue._builders, per_call
scons_glue.declare(ARGUMENTS["plan"])
"""


def _plan(root: Path) -> Plan:
    src, inc, out = root / "src", root / "include", root / "out"
    src.mkdir()
    inc.mkdir()
    (src / "a.c").write_text('#include "a.h"\nint a;\n')
    (inc / "a.h").write_text("#define A 1\n")
    (src / "b.txt").write_text("b\n")
    t = "//packages/x@Ascend910B1@sim"
    return Plan(str(root), str(out), str(root / "cache"), [], [
        Action("write", (str(out / "gen/w.txt"),), content="generated\n", target=t,
               step="generate", description="generate w"),
        # scanned: its #include of a.h is a dependency
        Action("exec", (str(out / "obj/a.o"),), (str(src / "a.c"),),
               argv=("/bin/cp", str(src / "a.c"), str(out / "obj/a.o")),
               scan_path=(str(inc),), signature="sha256:x", target=t, step="compile",
               description="compile a"),
        Action("exec", (str(out / "lib/b.so"),), (str(out / "obj/a.o"), str(src / "b.txt")),
               argv=("/bin/cp", str(src / "b.txt"), str(out / "lib/b.so")),
               requires=(str(out / "gen/w.txt"),), target=t, step="link",
               description="link b"),
    ])


def _scons(root: Path, sconstruct: Path) -> tuple[int, int]:
    """(steps that ran, outputs restored from the cache) in one SCons run on the plan."""
    r = subprocess.run([sys.executable, "-m", "SCons", "-Q", "-f", str(sconstruct), "-j1",
                        f"plan={root / 'out/.opkg/plan.json'}"], cwd=root, capture_output=True,
                       text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    ran = sum(1 for line in lines if line.startswith("@@opkg ")
              and json.loads(line[len("@@opkg "):])["event"] == "start")
    restored = sum(1 for line in lines if line.startswith("Retrieved `"))
    return ran, restored


def test_shared_builders_keep_signatures_and_cache_keys(tmp_path):
    plan = _plan(tmp_path)
    write_plan(plan, tmp_path / "out/.opkg/plan.json")
    reference = tmp_path / "SConstruct.reference"
    reference.write_text(REFERENCE)
    assert _scons(tmp_path, reference) == (3, 0)           # built the env.Command way
    assert _scons(tmp_path, reference) == (0, 0)
    # opkg's declaration finds that build up to date: the same signatures
    assert _scons(tmp_path, BUILTIN) == (0, 0)
    # and finds its cache entries: the same cache keys
    for action in plan.actions:
        for out in action.outputs:
            os.unlink(out)
    assert _scons(tmp_path, BUILTIN) == (0, 3)
    assert (tmp_path / "out/lib/b.so").read_text() == "b\n"
    # a changed #include'd header still rebuilds (only) its compile
    (tmp_path / "include/a.h").write_text("#define A 2\n")
    assert _scons(tmp_path, BUILTIN) == (1, 0)
