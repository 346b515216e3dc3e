"""What stays the same within one planning pass is computed once in it (opkg.util.memo), and
computed again in the next pass (the build server plans many times in one process)."""

from __future__ import annotations

from opkg.util.memo import once, planning_pass


def test_once_inside_a_pass_and_every_time_outside():
    calls = []

    def compute(value):
        return lambda: calls.append(value) or value

    assert once("k", compute(1)) == 1 and once("k", compute(2)) == 2      # no pass: each call
    with planning_pass():
        assert once("k", compute(3)) == 3
        assert once("k", compute(4)) == 3                                 # remembered
        assert once("other", compute(5)) == 5                             # per key
    with planning_pass():
        assert once("k", compute(6)) == 6                                 # a new pass
    assert calls == [1, 2, 3, 5, 6]


def _two_operators_planner(workspace):
    """plan(): a plan of a workspace of two operators, made anew at each call."""
    from opkg.build.plan import BuildRequest, make_plan
    from opkg.core.model import SimModes

    for name in ("a", "b"):
        workspace.operator(name, op_type=f"AddOne{name.upper()}")
    ws = workspace.load()
    pkgs = tuple(ws.packages.values())
    return lambda: make_plan(ws, BuildRequest(pkgs, modes=SimModes()))


def test_a_plan_reads_the_runtime_digest_once_and_the_next_plan_again(workspace, monkeypatch):
    from opkg.toolchains import sim

    plan = _two_operators_planner(workspace)
    reads = []
    real = sim._read_runtime_digest
    monkeypatch.setattr(sim, "_read_runtime_digest", lambda: reads.append(1) or real())

    first = plan()
    assert len(reads) == 1
    # every step that carries the digest carries the same one
    digests = {a.signature for a in first.actions if a.step == "check"}
    assert digests == {real()}
    plan()
    assert len(reads) == 2


def test_a_plan_reads_each_tiling_header_once_and_the_next_plan_again(workspace, monkeypatch):
    """Several questions of a target's plan read its tiling header's classes (kernel_tiling_source,
    keyed headers, the kernel's reads); within one pass they are worked out once per header."""
    from opkg.sim import flags

    plan = _two_operators_planner(workspace)
    worked_out = []
    real = flags._tiling_classes
    monkeypatch.setattr(flags, "_tiling_classes",
                        lambda header, *a: worked_out.append(str(header)) or real(header, *a))

    first = plan()
    assert sorted(worked_out) == sorted(set(worked_out)) and len(worked_out) >= 2
    worked_out.clear()
    second = plan()
    assert len(worked_out) >= 2          # the next pass reads the headers again
    assert [a.signature for a in first.actions] == [a.signature for a in second.actions]
