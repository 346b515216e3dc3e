"""Verify one (package, SoC, dtype variant): run every case on the sim and write the report.

`scons_action` (called by SCons for a 'verify' step) starts `python -m opkg.verify.runner JOB
REPORT` as a child process, so a kernel that segfaults or aborts takes down only that child;
the parent then writes a report naming the case and the step (golden, InferShape, tiling,
kernel) that was running. Every outcome — pass, mismatch, kernel diagnostic, crash, broken
golden — ends as a verification.json, so the build records what happened and `opkg build` can
show it.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

from opkg.util.procs import (OWN_GROUP, child_env, contain, die_with_parent, kill_descendants,
                              kill_tree)

CASE_MARK = "@@case "
# The step of a case running when the verifier died: its mark names it on stderr before it
# starts, so a crash in the operator's host code is not blamed on the kernel.
STEP_MARK = "@@step "
STEP_WORDS = {"golden": "the golden", "input": "the repository's input function",
              "InferShape": "the operator's InferShape",
              "tiling": "the operator's tiling function", "kernel": "the kernel"}
DEFAULT_TIMEOUT = 600.0   # seconds for all cases of one variant; verify.timeout overrides
# Seconds the verifier may take to reach its first case (Python, NumPy, the golden and what it
# imports: torch alone takes seconds, more on a loaded machine). The cases' clock starts at the
# first case, so verify.timeout bounds what it says, the cases, whatever the start-up took.
STARTUP_TIMEOUT_ENV = "OPKG_VERIFY_STARTUP_TIMEOUT"
DEFAULT_STARTUP_TIMEOUT = 600.0


def startup_timeout() -> float:
    text = os.environ.get(STARTUP_TIMEOUT_ENV) or ""
    try:
        value = float(text or DEFAULT_STARTUP_TIMEOUT)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise ValueError(f"{STARTUP_TIMEOUT_ENV}={text!r} is not a number of seconds above 0 "
                         f"(unset, the verifier has {DEFAULT_STARTUP_TIMEOUT:g} s to start)")
    return value
# What the verifier (golden, tiling and kernel) may print, on stdout and stderr together; more
# is a golden or kernel printing in a loop, which would fill the build's memory.
MAX_OUTPUT_BYTES = 16 << 20
# Its memory (RLIMIT_DATA: heap and private writable mappings), in MiB; default three quarters
# of the machine's RAM, so a runaway golden fails with a MemoryError naming the limit instead
# of waking the kernel's out-of-memory killer.
MEMORY_ENV = "OPKG_VERIFY_MEMORY_MIB"
# The text of the NotImplementedError an imported package's golden stub raises
# (the stub `opkg import` writes raises it).
GOLDEN_MISSING = "opkg: golden missing"
# signals that stop a verifier from outside; a kernel that crashes raises SEGV, BUS, ABRT, FPE...
_STOPPED = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL}


class GoldenMissing(Exception):
    """The golden is the stub `opkg import` wrote: the whole variant fails, saying so."""


# What the verifier inherits from opkg's environment. A golden is code the user runs, like a
# test, with the user's rights; it has no use for tokens or credentials that happen to be
# exported in the shell, so those stay behind. Kept: how to find Python, opkg and the C++
# runtime, where Python keeps bytecode, the locale, and the thread counts of NumPy's math
# libraries.
ENV_KEEP = ("PATH", "HOME", "TMPDIR", "TZ", "LANG", "LANGUAGE", "PYTHONPATH", "PYTHONHOME",
            "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "VIRTUAL_ENV",
            "LD_LIBRARY_PATH")
ENV_KEEP_PREFIXES = ("LC_", "OPKG_", "OMP_", "OPENBLAS_", "MKL_")


def verifier_env(environ=None) -> dict[str, str]:
    environ = os.environ if environ is None else environ
    return {k: v for k, v in environ.items()
            if k in ENV_KEEP or k.startswith(ENV_KEEP_PREFIXES)}


def scons_action(params: dict) -> str | None:
    job, report = params["job"], params["report"]
    job_data = json.loads(Path(job).read_text())
    timeout = job_data.get("timeout") or DEFAULT_TIMEOUT
    # The job names files relative to the workspace root: run there, and only there, with a
    # scrubbed environment. Its own process group, for the timeout below, but SCons' session,
    # so stopping the build stops it; it dies with this thread if SCons is killed
    # (die_with_parent reads the marker child_env adds).
    roots = [f"@{name}/={root}" for name, root in sorted((params.get("repositories")
                                                          or {}).items())]
    proc = subprocess.Popen([params.get("python") or sys.executable, "-m", "opkg.verify.runner",
                             job, report, *roots], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=params.get("cwd"), env=verifier_env(child_env()), **OWN_GROUP)
    try:
        startup = startup_timeout()
        stderr, over = _collect(proc, timeout, MAX_OUTPUT_BYTES, startup)
        if over == "startup":
            kill_tree(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            write_report(Path(report), _report(job_data, [], error=(
                f"timed out after {startup:g} s before its first case, while loading "
                "Python, the golden and what the golden imports (does importing the golden "
                "wait for something?)")))
            return None
        if over:
            # a kernel or golden that never returns must not hang the build (or CI) forever,
            # nor fill its memory; what it started goes too, in the runner's group or not
            # (the runner is a sub-reaper)
            kill_tree(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            case = _last_case(stderr)
            during = f" while running case {case!r}" if case else ""
            error = (f"timed out after {timeout:g} s{during}; a kernel that never finishes would "
                     "hang on the NPU too (raise verify.timeout in the manifest if the cases are "
                     "simply large)") if over == "time" else (
                     f"stopped{during}: it printed more than {MAX_OUTPUT_BYTES >> 20} MiB (the "
                     "verifier's output limit); a print in a loop of the golden or kernel?")
            write_report(Path(report), _report(job_data, [], error=error))
            return None
    except BaseException:
        kill_tree(proc.pid)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    if proc.returncode == 0 and Path(report).is_file():
        return None
    case = _last_case(stderr)
    if -proc.returncode in _STOPPED:
        # stopped from outside (the build was interrupted, or the out-of-memory killer): no
        # verdict on the kernel, so no report; the step fails and runs again next build
        return (f"the verifier was stopped by {signal.Signals(-proc.returncode).name}"
                + (f" while running case {case!r}" if case else "") + "; nothing recorded")
    if proc.returncode < 0:
        try:
            name = signal.Signals(-proc.returncode).name
        except ValueError:
            name = f"signal {-proc.returncode}"
        step = STEP_WORDS.get(_last_step(stderr), "the verifier")
        message = f"{step} crashed ({name})" + (f" while running case {case!r}" if case else "")
        message += _host_output_before_crash(Path(report).parent)
    else:
        tail = "\n".join(l for l in stderr.splitlines()
                         if not l.startswith((CASE_MARK, STEP_MARK)))
        message = (f"the verifier exited with status {proc.returncode}"
                   + (f" while running case {case!r}" if case else "")
                   + (f": {tail[-2000:]}" if tail.strip() else " without writing a report "
                      "(did the golden or the kernel call exit()?)"))
    write_report(Path(report), _report(job_data, [], error=message))
    return None


def _host_output_before_crash(directory: Path) -> str:
    """What the tiling or InferShape function printed before it crashed the verifier (its
    output was going to the capture files, opkg.sim.hostio)."""
    from opkg.sim.hostio import capture_paths, read_text

    text = ""
    for name, path in capture_paths(directory).items():
        got = read_text(path).rstrip()
        if got:
            text += f"\n{name} of the host code before the crash:\n" + "\n".join(
                "  " + l for l in got.splitlines()[-40:])
        path.unlink(missing_ok=True)
    return text


def _collect(proc, timeout: float, cap: int, startup: float) -> tuple[str, str | None]:
    """The runner's stderr (stdout is read and dropped) until it closes both, and why it was
    cut short: None, "startup" (no case began within `startup` s), "time" (the cases
    took more than `timeout` s from the first one's start) or "output" (more than `cap`
    bytes)."""
    import selectors

    deadline, started = time.monotonic() + startup, False
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    sel.register(proc.stderr, selectors.EVENT_READ)
    err, total = bytearray(), 0
    try:
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return err.decode(errors="replace"), "time" if started else "startup"
            for key, _ in sel.select(left):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fileobj)
                    continue
                total += len(data)
                if key.fileobj is proc.stderr:
                    err += data
                    # the mark may arrive split over two reads: look at the tail it can end in
                    if not started and CASE_MARK.encode() in err[-len(data) - len(CASE_MARK):]:
                        deadline, started = time.monotonic() + timeout, True
                if total > cap:
                    return err[:cap].decode(errors="replace"), "output"
        left = deadline - time.monotonic()
        try:
            proc.wait(timeout=max(left, 0))
        except subprocess.TimeoutExpired:
            return err.decode(errors="replace"), "time" if started else "startup"
        return err.decode(errors="replace"), None
    finally:
        sel.close()
        proc.stdout.close()
        proc.stderr.close()


def _limit_memory() -> int | None:
    """Cap this process's memory (MEMORY_ENV); the limit in MiB, None when none is set."""
    import resource

    try:
        mib = int(os.environ.get(MEMORY_ENV) or 0) or (
            os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") * 3 // 4 >> 20)
        resource.setrlimit(resource.RLIMIT_DATA, (mib << 20, resource.getrlimit(
            resource.RLIMIT_DATA)[1]))
        return mib
    except (ValueError, OSError):
        return None


def _last_case(stderr: str) -> str | None:
    case = None
    for line in (stderr or "").splitlines():
        if line.startswith(CASE_MARK):
            case = line[len(CASE_MARK):]
    return case


def _last_step(stderr: str) -> str | None:
    """The step the last case had started, None before its first (a new case starts none)."""
    step = None
    for line in (stderr or "").splitlines():
        if line.startswith(CASE_MARK):
            step = None
        elif line.startswith(STEP_MARK):
            step = line[len(STEP_MARK):]
    return step


def _mark_step(step: str) -> None:
    print(STEP_MARK + step, file=sys.stderr, flush=True)


def main(argv=None) -> int:
    die_with_parent()
    contain()      # a golden's daemon (double fork, setsid) is re-parented here, and killed below
    global _MEMORY_MIB
    _MEMORY_MIB = _limit_memory()
    try:
        return _main(argv)
    finally:
        kill_descendants()


def _main(argv=None) -> int:
    job_path, report_path, *roots = argv or sys.argv[1:]
    job = json.loads(Path(job_path).read_text())
    job["golden"]["file"] = resolve_repository_file(job["golden"]["file"], roots)
    job["roots"] = roots
    try:
        from opkg.verify.artifacts import reset

        results = run_job(job, failed_dir=reset(Path(report_path)))
        report = _report(job, results)
    except GoldenMissing as exc:
        report = _report(job, [], error=str(exc))
    except (Exception, SystemExit) as exc:   # a broken golden or job: recorded, not raised
        report = _report(job, [], error=_describe(exc))
    write_report(Path(report_path), report)
    return 0


def resolve_repository_file(file: str, roots) -> str:
    """`@name/path` (or the label `@name//path`): a file of external repository `name`,
    checked out where the build says (roots: `@name/=root` pairs)."""
    for pair in roots:
        prefix, _, root = pair.partition("=")
        if file.startswith(prefix):
            return str(Path(root) / file[len(prefix):].lstrip("/"))
    return file


def run_job(job: dict, failed_dir: Path | None = None) -> list[dict]:
    capture_dir = failed_dir.parent if failed_dir is not None else None
    import numpy as np

    from opkg.core.model import DTYPES, OpSpec, SocInfo
    from opkg.sim.profile import profile
    from opkg.verify.compare import compare, suspicious_golden
    from opkg.verify.inputs import exact_input, make_input

    op = OpSpec.from_json(job["op"])
    variant = op.variant(job["variant"])
    soc = SocInfo.from_json(job["soc"])
    golden = load_golden(job["golden"]["file"], job["golden"]["function"],
                         job["golden"].get("requires", ()))
    convention = job["golden"].get("convention")
    make_inputs = (load_input_function(job["golden"]["file"], job["golden"]["function"],
                                       lambda f: resolve_repository_file(f, job.get("roots", ())))
                   if convention == "ttk" else None)
    inplace = job.get("inplace") or []
    prefill_zero = job.get("outputs_prefill") == "zero"
    results = []
    began = time.monotonic()
    for case in _cases_to_run(job, results):
        now = time.monotonic()
        if results:      # each case's wall time, whichever way its body ended
            results[-1]["seconds"] = round(now - began, 4)
        began = now
        print(CASE_MARK + case["name"], file=sys.stderr, flush=True)
        entry = {"case": case["name"], "shapes": case["shapes"], "attrs": case["attrs"],
                 "passed": False, "error": None, "outputs": {}, "run": None, "log": [],
                 "profile": None, "suspicious": [], "host": {}}
        if case.get("xfail"):
            entry["xfail"] = case["xfail"]
        results.append(entry)
        inputs = {}
        try:
            for t in op.inputs:
                if t.name not in case["shapes"]:
                    continue
                shape, dtype, rng = case["shapes"][t.name], variant.dtype_of(t.name), case["ranges"].get(t.name)
                if t.param_type == "dynamic":   # a list of tensors, each with its own values
                    # (and its own range when the case gives one per tensor)
                    per_tensor = rng is not None and len(rng) > 0 and isinstance(rng[0], list)
                    inputs[t.name] = [make_input(job["seed"], case["name"], f"{t.name}[{k}]", s, dtype,
                                                 rng[k] if per_tensor else rng)
                                      for k, s in enumerate(shape)]
                elif t.name in case.get("values", {}):
                    inputs[t.name] = exact_input(case["values"][t.name], shape, dtype)
                else:
                    inputs[t.name] = make_input(job["seed"], case["name"], t.name, shape, dtype, rng)
        except ValueError as exc:
            entry["error"] = f"input {t.name!r}: {exc}"
            continue
        if make_inputs is not None:
            try:
                _mark_step("input")
                inputs, case = _repository_inputs(make_inputs, op, variant, soc, case, inputs, job["seed"])
            except Exception as exc:
                entry["error"] = f"the repository's input function raised {_describe(exc)}"
                continue
            entry["shapes"] = case["shapes"]
        # the kernel overwrites in-place inputs: the golden sees (and may change) copies, and a
        # failing case saves the inputs it ran with, not what the kernel left in them; a ref
        # tensor's input is the kernel's too, so the golden rewriting it gets a copy as well
        rewritten = set(inplace) | set(op.ref_outputs)
        originals = {k: _copy(v) if k in inplace else v for k, v in inputs.items()}
        golden_inputs = {k: _copy(v) if k in rewritten else v for k, v in inputs.items()}
        try:
            _mark_step("golden")
            expected = _call_golden(golden, op, golden_inputs, case["attrs"], variant, inplace,
                                    _convention_kwargs(convention, op, variant, soc, case,
                                                       golden_inputs))
        except NotImplementedError as exc:
            if GOLDEN_MISSING in str(exc):
                rel = Path(job["golden"]["file"]).name
                raise GoldenMissing(f"golden missing: write {rel}:{job['golden']['function']} "
                                    "(the NumPy reference is still the stub `opkg import` "
                                    "wrote); no case can pass without it") from None
            entry["error"] = f"the golden raised {_describe(exc)}"
            continue
        except ModuleNotFoundError as exc:
            # imported inside the golden function (ops-nn's goldens import torch there)
            top = (exc.name or "").split(".")[0]
            if top and importlib.util.find_spec(top) is None:
                raise _missing_package(top, job["golden"]["file"], False) from None
            entry["error"] = f"the golden raised {_describe(exc)}"
            continue
        except Exception as exc:
            entry["error"] = f"the golden raised {_describe(exc)}"
            continue
        if all(v is None for v in expected.values()):
            # None leaves one output of several unchecked; None for all checks nothing at all,
            # and a kernel that computes garbage would pass
            entry["error"] = ("the golden compared nothing: it returned None for every "
                              + ("output and in-place input" if inplace else "output")
                              + " (missing return?); return the expected arrays")
            continue
        stated = case.get("output_shapes") or {}
        if convention == "ttk":
            expected = _as_stated(stated, expected)
            if _stated_disagreement(stated, expected):
                try:
                    inferred = _inferred_shapes(job, op, variant, inputs, case["attrs"],
                                                _output_counts(op, expected, {}), entry["host"],
                                                capture_dir)
                except Exception:   # InferShape failed: the stated shapes stand
                    inferred = None
                stated, notes = _stated_overruled(stated, expected, inferred)
                entry["log"] += notes
        entry["error"] = _stated_disagreement(stated, expected)
        if entry["error"]:
            continue
        for t in op.outputs:
            for label, want in _tensors(t.name, expected.get(t.name)):
                what = suspicious_golden(want, variant.dtype_of(t.name))
                if what:
                    entry["suspicious"].append(
                        f"the golden returned {what} for output '{label}': suspicious (a kernel "
                        "that computes nothing useful cannot be told apart; check the golden)")
        try:
            inferred = _inferred_shapes(job, op, variant, inputs, case["attrs"],
                                        _output_counts(op, expected, stated), entry["host"],
                                        capture_dir)
        except Exception as exc:   # InferShape itself failed: the kernel run will say more
            entry["log"].append(f"InferShape: {getattr(exc, 'message', exc)}")
            inferred = None
        if convention == "ttk":
            expected = _in_shape(op, variant, expected, _output_shapes(op, inferred, stated, inputs))
        entry["error"], notes = _shape_disagreement(op, inferred, expected, stated)
        entry["log"] += notes
        if entry["error"]:
            continue
        outputs = {}
        for t in op.outputs:
            want = expected[t.name]
            if t.name in op.ref_outputs:   # the input's own buffer, rewritten: the input's shape
                entry["error"] = _ref_shape_error(t.name, want, inputs[t.name])
                if entry["error"]:
                    break
                given = inputs[t.name]   # a dynamic ref tensor: the input's list of tensors
                outputs[t.name] = ([np.empty(g.shape, dtype=g.dtype) for g in given]
                                   if isinstance(given, list) else np.empty(given.shape, dtype=given.dtype))
                continue
            if want is None:   # not compared in this case; the kernel still needs the buffer
                try:
                    want = _unchecked_output(job, op, variant, inputs, case, t.name,
                                             entry["host"], capture_dir)
                except Exception as exc:   # no shape, or InferShape failed
                    entry["error"] = getattr(exc, "message", None) or str(exc)
                    break
            # poison, for the eye: an element the kernel never stores is a mismatch whatever the
            # golden says (RunInfo.unwritten, from the GM write shadow); bfloat16 is a float
            # whose NumPy kind is 'V': ask the manifest dtype. verify.outputs_prefill "zero":
            # zeros, as the operator's own test leaves what the kernel does not store
            is_float = DTYPES[variant.dtype_of(t.name)].kind in ("float", "complex")

            def poisoned(w):
                if prefill_zero:
                    return np.zeros(w.shape, dtype=w.dtype)
                out = np.empty(w.shape, dtype=w.dtype)
                out.fill(np.nan) if is_float else out.fill(_int_poison(out.dtype))
                return out

            # a dynamic output: one buffer per tensor
            outputs[t.name] = [poisoned(w) for w in want] if isinstance(want, list) else poisoned(want)
        if entry["error"]:
            continue
        entry["outputs"] = {}
        try:
            info = _run_kernel(job, op, variant, soc, inputs, outputs, case["attrs"],
                               entry["host"], capture_dir)
        except Exception as exc:
            if case.get("if_supported") and getattr(exc, "refused", False):
                # the operator's own tiling said no: a case outside its contract on this SoC
                entry["refused"] = _refusal(exc, entry["host"], case["if_supported"])
                entry["passed"] = True
                continue
            entry["error"] = getattr(exc, "message", None) or _describe(exc)
            if getattr(exc, "hint", None):   # e.g. what the kernel printed before failing
                entry["error"] += "\n" + exc.hint
            continue
        entry["run"] = {"block_dim": info.block_dim, "tiling_key": info.tiling_key,
                        "workspace_bytes": info.workspace_bytes}
        entry["profile"] = profile(info.profile, soc) if info.profile is not None else None
        # after the notes above (InferShape's), not instead of them
        entry["log"] += list(info.log) + [f"golden: {w}" for w in entry["suspicious"]]
        # in-place inputs are compared as they are after the run, beside the outputs; a
        # dynamic one tensor by tensor, each reported as name[k]
        actual = {**outputs, **{k: inputs[k] for k in inplace}}
        unwritten = info.unwritten
        if prefill_zero:   # compared as the zeros they hold; said, not hidden
            entry["log"] += [f"{label}: {int(np.count_nonzero(mask))} elements the kernel never "
                             "stored, compared as the 0 they were pre-filled with "
                             "(verify.outputs_prefill)" for label, mask in unwritten.items()]
            unwritten = {}
        for name, want in expected.items():
            if want is None:
                continue
            tol = job["tolerance"][variant.dtype_of(name)]
            tol, said = _golden_tolerance(name, want, variant.dtype_of(name), tol)
            entry["log"] += said
            if isinstance(want, list):   # unwritten: a dynamic output's, per tensor
                for k, (got, w) in enumerate(zip(actual[name], want)):
                    label = f"{name}[{k}]"
                    entry["outputs"][label] = compare(
                        _parts(got), _parts(w), **tol,
                        unwritten=_parts_mask(unwritten.get(label), got))
                continue
            entry["outputs"][name] = compare(_parts(actual[name]), _parts(want), **tol,
                                             unwritten=_parts_mask(unwritten.get(name),
                                                                   actual[name]))
        entry["passed"] = all(o["passed"] for o in entry["outputs"].values())
        if not entry["passed"] and failed_dir is not None:
            from opkg.verify.artifacts import save_case

            entry["artifacts"] = save_case(failed_dir, case["name"], originals, expected, actual,
                                           command=_reproduce(job, case["name"]))
    if results:
        results[-1]["seconds"] = round(time.monotonic() - began, 4)
    for entry in results:
        judge_xfail(entry)
    return results


def _golden_tolerance(name: str, want, dtype: str, tol: dict) -> tuple[dict, list[str]]:
    """The tolerance an output is compared with: at least that of the narrower float its golden
    rounded it through (compare.golden_precision: every expected value one of that float's),
    said in the log; the expected values carry that float's rounding, which a float32 kernel
    result does not."""
    import numpy as np

    from opkg.core.manifest import DEFAULT_TOLERANCE
    from opkg.verify.compare import golden_precision

    arrays = want if isinstance(want, list) else [want]
    narrow = {golden_precision(np.asarray(a), dtype) for a in arrays}
    if len(narrow) != 1 or None in narrow:
        return tol, []
    (narrow,) = narrow
    wider = {k: max(v, DEFAULT_TOLERANCE[narrow].get(k, v)) for k, v in tol.items()}
    if wider == tol:
        return tol, []
    return wider, [f"{name}: every expected value is a {narrow} value (the golden rounds this "
                   f"{dtype} output through {narrow}): compared with {narrow}'s tolerance "
                   f"(rtol {wider['rtol']:g}, atol {wider['atol']:g}, error ratio "
                   f"{wider['error_ratio']:g})"]


def _cases_to_run(job: dict, results: list[dict]):
    """The job's cases, then its fallback ones when the SoC refused every case so far (each
    may be refused: Case.if_supported); `results` is read as the cases run."""
    yield from job["cases"]
    if job.get("fallback") and results and all(r.get("refused") for r in results):
        yield from job["fallback"]


def _refusal(exc, host: dict, source: str) -> str:
    """Why a case was skipped: the tiling's refusal, with the last lines the operator's host
    code printed (its own error log says which condition)."""
    printed = [l for name in ("stdout", "stderr")
               for l in ((host.get("tiling") or {}).get(name) or "").splitlines() if l.strip()]
    said = ("; it printed: " + " | ".join(l.strip() for l in printed[-3:])) if printed else ""
    return (f"{getattr(exc, 'detail', None) or exc}: a case the operator may refuse ({source}), "
            f"refused on this SoC{said}")


def judge_xfail(entry: dict) -> None:
    """A case marked xfail in the manifest passes the run when it fails, and fails it when it
    passes (strict, as pytest's xfail_strict): the mark must go once the bug is fixed. A case
    the SoC refused (if_supported) is neither."""
    if entry.get("refused"):
        entry["outcome"] = "refused"
        return
    raw = bool(entry["passed"])
    if not entry.get("xfail"):
        entry["outcome"] = "pass" if raw else "fail"
        return
    reason = entry["xfail"] if isinstance(entry["xfail"], str) else "expected to fail"
    entry["outcome"] = "xpass" if raw else "xfail"
    entry["passed"] = not raw
    if raw:
        entry["error"] = (f"XPASS(strict): the case is marked xfail ({reason}) but passed; "
                          "remove its xfail mark from opkg.yaml")


def _reproduce(job: dict, case: str) -> str:
    from opkg.verify.select import rerun_command

    return rerun_command(job["package"], job["soc"]["name"], job["variant"], case) + \
        " --no-cache"


def _run_kernel(job, op, variant, soc, inputs, outputs, attrs, host=None, capture_dir=None):
    from opkg.core.model import SimModes
    from opkg.sim.runtime import run_case

    return run_case(Path(job["host_lib"]), Path(job["kernel_lib"]), op, variant, soc, inputs,
                    outputs, attrs, modes=SimModes.from_json(job.get("modes")),
                    copy_back=tuple(job.get("inplace") or ()), on_step=_mark_step,
                    host_output=host, capture_dir=capture_dir)


class GoldenUnavailable(GoldenMissing):
    """The golden needs a Python package opkg's environment lacks: the whole variant fails,
    naming the package (not with the import's traceback)."""


# pip arguments beyond the name: goldens run on the CPU, and PyPI's default torch wheel pulls
# gigabytes of CUDA packages
PIP_ARGS = {"torch": " --index-url https://download.pytorch.org/whl/cpu"}


def _missing_package(name: str, file: str, declared: bool) -> GoldenUnavailable:
    return GoldenUnavailable(
        f"the golden {Path(file).name} needs the Python package {name!r}, which is not "
        f"installed where opkg runs ({sys.executable})"
        + ("" if declared else " (add it to verify.requires)")
        + f": install it with `{Path(sys.executable).parent}/pip install {name}"
        + PIP_ARGS.get(name, "") + "`")


def load_golden(file: str, function: str, requires=()):
    import importlib.util as util

    for name in requires:      # verify.requires: said before the golden runs
        if util.find_spec(name) is None:
            raise _missing_package(name, file, True)
    # ml_dtypes' types by name (`np.dtype("bfloat16")`), as in the test tools the ops
    # repositories' goldens are written for, which hand them bfloat16 arrays: ops-nn's quant_max
    # golden names that dtype on its float32 path before importing anything of its own
    if util.find_spec("ml_dtypes") is not None:
        import ml_dtypes  # noqa: F401
    spec = importlib.util.spec_from_file_location(f"opkg_golden_{Path(file).stem}", file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and util.find_spec(exc.name.split(".")[0]) is None:
            raise _missing_package(exc.name.split(".")[0], file, False) from None
        raise
    found = module
    for part in function.split("."):     # `Class.golden`: a TestSpec class's golden
        found = getattr(found, part)
    return found


def _module_table(path: Path, name: str) -> dict:
    """A repository test module's `name = {...}` table (`__golden__`, `__input__`), read
    without running the module (a golden may import what this Python lacks)."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError):
        return {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return {}
            return value if isinstance(value, (dict, str)) else {}
    return {}


def load_input_function(golden_file: str, golden_function: str, resolve=lambda f: f):
    """The ops repositories' input generator beside their golden (tests/assets/input.py,
    `__input__ = {"kernel": {<kernel>: <function>}}`, the kernel named as the golden's
    `__golden__` names it), else the golden's own module when it has the table (12 of ops-nn's
    goldens: dynamic_quant_update_scatter's makes its indices distinct there): their test tool
    draws the inputs from the ttk ranges, then hands them to it to make them valid for the
    operator (segment_sum's sorted segment ids, scatter_update's indices without repeats where
    the rows allow). A golden the import rendered in NumPy names the repository golden it
    stands for (`__golden_source__`, resolved by `resolve`), whose directory holds the input
    generator. None when there is none."""
    golden = Path(golden_file)
    source = _module_table(golden, "__golden_source__")
    if isinstance(source, str) and source:
        golden = Path(resolve(source))
    path = next((p for p in (golden.with_name("input.py"), golden)
                 if p.is_file() and _module_table(p, "__input__")), None)
    if path is None:
        return None
    table = (_module_table(path, "__input__") or {}).get("kernel") or {}
    goldens = (_module_table(golden, "__golden__") or {}).get("kernel") or {}
    kernels = [k for k, f in goldens.items() if f == golden_function and k in table] or list(table)[:1]
    name = table.get(kernels[0]) if kernels else None
    if not isinstance(name, str):
        return None
    spec = importlib.util.spec_from_file_location(f"opkg_inputs_{path.parent.parent.parent.name}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top and importlib.util.find_spec(top) is None:
            raise _missing_package(top, str(path), False) from None
        raise
    return getattr(module, name, None)


def _repository_inputs(make_inputs, op, variant, soc, case: dict, inputs: dict, seed: int) -> tuple[dict, dict]:
    """(inputs, case) after the repository's input function: it takes the drawn inputs in
    prototype order, the attributes and the test tool's keywords (with input_ranges) and returns
    the inputs in that order; their values are cast to the variant's dtypes, and a shape it
    changes becomes the case's. NumPy's global generator, which these functions draw from, is
    seeded per case, so a case's inputs are the same on every run."""
    import zlib

    import numpy as np

    from opkg.core.model import numpy_dtype

    given = [t for t in op.inputs if t.name in inputs]
    extra = {**_convention_kwargs("ttk", op, variant, soc, case, inputs),
             "input_ranges": [list(case["ranges"].get(t.name) or ()) or None for t in given]}
    args, kwargs = _bind(make_inputs, [inputs.get(t.name) for t in op.inputs], case["attrs"], extra)
    np.random.seed(zlib.crc32(f"{seed}:{case['name']}:input".encode()))
    made = make_inputs(*args, **kwargs)
    if not isinstance(made, (list, tuple)) or len(made) not in (len(op.inputs), len(given)):
        raise ValueError(f"it returned {type(made).__name__} of {len(made) if isinstance(made, (list, tuple)) else 1}"
                         f" for {len(given)} inputs; return a list with one array per input")
    names = [t.name for t in (op.inputs if len(made) == len(op.inputs) else given)]
    out, shapes = dict(inputs), dict(case["shapes"])
    for name, value in zip(names, made):
        if name not in inputs or value is None or isinstance(inputs[name], list):
            continue
        array = np.ascontiguousarray(np.asarray(value).astype(numpy_dtype(variant.dtype_of(name)), copy=False))
        out[name] = array
        shapes[name] = list(array.shape)
    return out, {**case, "shapes": shapes}


# verify.golden_convention "ttk": the ops repositories' tests/assets/golden.py signature (their
# test tool's): inputs as arrays, then the attributes, then these keyword arguments
TTK_KWARGS = ("input_dtypes", "output_dtypes", "input_ori_shapes", "output_ori_shapes",
              "input_formats", "output_formats", "input_ori_formats", "output_ori_formats",
              "full_soc_version", "short_soc_version", "testcase_name")


def _convention_kwargs(convention, op, variant, soc, case, inputs) -> dict:
    """The keyword arguments a golden of `convention` takes besides inputs and attrs."""
    if convention != "ttk":
        return {}
    import re

    formats = dict(variant.formats)
    fmt = lambda t: formats.get(t.name, "ND")   # noqa: E731
    given = [t for t in op.inputs if t.name in inputs]
    in_shapes = [list(case["shapes"][t.name]) for t in given]
    out_shapes = [list(case.get("output_shapes", {}).get(t.name, ())) or None for t in op.outputs]
    return {"input_dtypes": [variant.dtype_of(t.name) for t in given],
            "output_dtypes": [variant.dtype_of(t.name) for t in op.outputs],
            "input_ori_shapes": in_shapes, "output_ori_shapes": out_shapes,
            "input_formats": [fmt(t) for t in given], "output_formats": [fmt(t) for t in op.outputs],
            "input_ori_formats": [fmt(t) for t in given],
            "output_ori_formats": [fmt(t) for t in op.outputs],
            "full_soc_version": soc.name,
            "short_soc_version": re.sub(r"(?<=[A-Za-z])\d+$", "", soc.name),
            "testcase_name": case["name"]}


# CANN's op_impl_mode_enum (ops-nn matmul_v3_base_tiling.cpp lines 290-300): MatMulV3 takes the
# HF32 switch as its `opImplMode` attribute (0x40: enable_hi_float_32_execution), the other
# matmuls as a bool `enable_hf32`, and the shared tiling reads either into one flag. The
# repositories' matmul goldens key HF32 on `opImplMode == 64`, "the kernel-side alias for
# enable_hf32" (batch_mat_mul_v3's bmmv3_kernel_golden.py, its docstring).
OP_IMPL_MODE_HF32 = 0x40


def _impl_mode_alias(params, attrs: dict) -> dict:
    """`opImplMode` for a golden that names it, from an operator's `enable_hf32`, when the
    operator has no `opImplMode` of its own."""
    if "opImplMode" in params and "opImplMode" not in attrs and "enable_hf32" in attrs:
        return {"opImplMode": OP_IMPL_MODE_HF32 if attrs["enable_hf32"] else 0}
    return {}


def _bind(golden, args: list, attrs: dict, extra: dict) -> tuple[list, dict]:
    """A ttk golden's call: the attributes by name where the signature names them, else in
    def order into the positional slots left; the extra keywords only if it takes them (and
    `opImplMode` from `enable_hf32`, _impl_mode_alias)."""
    import inspect

    try:
        params = inspect.signature(golden).parameters
    except (TypeError, ValueError):
        return args, {**attrs, **extra}
    attrs = {**attrs, **_impl_mode_alias(params, attrs)}
    var_kw = any(p.kind is p.VAR_KEYWORD for p in params.values())
    positional = [p for p in params.values() if p.kind in (p.POSITIONAL_ONLY,
                                                            p.POSITIONAL_OR_KEYWORD)]
    args, kwargs = list(args), {}
    free = [p.name for p in positional[len(args):]]
    for name, value in attrs.items():
        if name in params and params[name].kind is not params[name].POSITIONAL_ONLY:
            kwargs[name] = value
            if name in free:
                free.remove(name)
        elif free:
            slot = free.pop(0)
            kwargs[slot] = value
        elif var_kw:
            kwargs[name] = value
    kwargs.update({k: v for k, v in extra.items() if var_kw or k in params})
    return args, kwargs


def _call_golden(golden, op, inputs: dict, attrs: dict, variant, inplace=(),
                 extra: dict | None = None) -> dict:
    """{tensor name: expected array, or None where the golden returned None (not compared)}:
    the outputs, then the in-place inputs (verify.inplace) in the order listed."""
    import numpy as np

    from opkg.core.model import numpy_dtype

    # every input in prototype order, None for an optional one the case leaves out: the
    # golden's signature is the prototype's (as `opkg import` writes it), so no later input
    # shifts into an omitted one's place
    args = [inputs.get(t.name) for t in op.inputs]
    if extra:
        # the ops repositories' test tools hand a one-bit tensor to the golden as its device
        # bytes (ops-nn's relu_grad_v2 golden reads its uint1 mask eight elements a byte)
        args = [_bits_for_golden(a, variant.dtype_of(t.name)) for a, t in zip(args, op.inputs)]
    counts = {k: len(v) for k, v in inputs.items() if isinstance(v, list)}   # before the golden runs
    if extra:
        args, kwargs = _bind(golden, args, attrs, extra)
        result = golden(*args, **kwargs)
    else:
        result = golden(*args, **attrs)
    names = [t.name for t in op.outputs] + list(inplace)
    lists = ({t.name for t in op.outputs if t.param_type == "dynamic"}
             | ({t.name for t in op.inputs if t.param_type == "dynamic"} & set(inplace)))
    # one tensor list compared: the golden's list is that list, not one array per name
    # (unless it wrapped the list itself, as (list,) or [list])
    sole_list = len(names) == 1 and names[0] in lists and isinstance(result, (tuple, list)) and not (
        len(result) == 1 and isinstance(result[0], (tuple, list)))
    if sole_list or not isinstance(result, (tuple, list)):
        result = (result,)
    if extra and (len(result) != len(names) or any(
            n in lists and not isinstance(r, (list, tuple)) for n, r in zip(names, result))):
        result = _regroup(result, names, counts, lists)
    if extra and not lists and 0 < len(result) < len(op.outputs) and not inplace:
        # the ttk test tool compares what the golden returns, in output order: dynamic_quant_v2's
        # golden returns y and scale only when is_symmetrical (its kernel writes no offset then)
        result = tuple(result) + (None,) * (len(names) - len(result))
    if len(result) != len(names):
        what = f"{len(op.outputs)} outputs" + (f" and {len(inplace)} in-place inputs ("
                                               f"{', '.join(inplace)})" if inplace else "")
        raise ValueError(f"returned {len(result)} arrays for {what}")
    dynamic = {t.name for t in op.inputs if t.param_type == "dynamic"} & set(inplace)
    dynamic_outputs = {t.name for t in op.outputs if t.param_type == "dynamic"}
    out = {}
    for name, value in zip(names, result):
        if value is None:
            out[name] = None
            continue
        dtype = numpy_dtype(variant.dtype_of(name))
        if name in dynamic:
            # a list of tensors rewritten in place: one expected array per tensor of the list
            given = counts[name]
            if not isinstance(value, (list, tuple)) or len(value) != given:
                got = (f"{len(value)} arrays" if isinstance(value, (list, tuple))
                       else type(value).__name__)
                raise ValueError(f"returned {got} for the in-place dynamic input {name!r}, which "
                                 f"holds {given} tensors in this case; return a list of "
                                 f"{given} arrays, one per tensor")
            out[name] = [_expected_array(v, dtype, f"{name}[{k}]") for k, v in enumerate(value)]
            continue
        if name in dynamic_outputs:
            # a list of tensors: one expected array per tensor, as many as the kernel writes
            if not isinstance(value, (list, tuple)) or not value:
                got = "an empty list" if isinstance(value, (list, tuple)) else type(value).__name__
                raise ValueError(f"returned {got} for the dynamic output {name!r}, a list of "
                                 "tensors; return a non-empty list of arrays, one per tensor")
            out[name] = [_expected_array(v, dtype, f"{name}[{k}]") for k, v in enumerate(value)]
            continue
        if extra and _one_bit(variant.dtype_of(name)):
            # ... and takes one back as those bytes (relu_v2's golden: np.packbits(mask,
            # bitorder="little")): the elements, flat (_in_shape shapes them)
            value = np.unpackbits(np.asarray(value).astype(np.uint8).reshape(-1), bitorder="little")
        out[name] = _expected_array(value, dtype, name)
    return out


def _one_bit(dtype: str) -> bool:
    from opkg.core.model import DTYPES

    return dtype in DTYPES and DTYPES[dtype].per_byte == 8


def _bits_for_golden(array, dtype: str):
    if array is None or isinstance(array, list) or not _one_bit(dtype):
        return array
    from opkg.sim.packed import bits_image

    return bits_image(array)


def _output_shapes(op, inferred: dict | None, stated: dict, inputs: dict) -> dict:
    """The shape each output of one tensor is compared in: the case's, else InferShape's; a ref
    tensor's is its input's, since the kernel rewrites the input's buffer whatever shape the
    graph gives the output (ops-nn's dynamic_quant_update_scatter_v2: InferShape and the table
    give var x's rank, [1, 1, 2] for a [1, 1, 1, 2] var; _shape_disagreement notes it)."""
    return {**{k: v[0] for k, v in (inferred or {}).items() if not isinstance(v, list) and v[0] is not None},
            **{k: v for k, v in stated.items() if not (v and isinstance(v[0], (list, tuple)))},
            **{k: list(inputs[k].shape) for k in op.ref_outputs
               if k in inputs and not isinstance(inputs[k], list)}}


def _in_shape(op, variant, expected: dict, shapes: dict) -> dict:
    """A ttk golden's outputs in the output's shape (`shapes`: the case's or InferShape's) where
    only the shape differs, as the repositories' test tool compares data, not shape (ops-nn's
    rms_norm_grad golden returns dx [2, 16] for an InferShape of [2, 1, 16]); a one-bit output
    the golden returned as bytes, unpacked flat, less the padding bits of its last byte."""
    import numpy as np

    out = dict(expected)
    for t in op.outputs:
        want, shape = expected.get(t.name), shapes.get(t.name)
        if want is None or shape is None or isinstance(want, list) or tuple(want.shape) == tuple(shape):
            continue
        n = int(np.prod(shape, dtype=np.int64))
        if _one_bit(variant.dtype_of(t.name)) and want.ndim == 1 and n <= want.size < n + 8:
            out[t.name] = want[:n].reshape(shape)
        elif want.size == n:
            out[t.name] = want.reshape(shape)
    return out


def _regroup(result, names: list, counts: dict, lists: set):
    """A ttk golden returns its expected tensors flat, as its test tool numbers them: a dynamic
    in-place input's tensors one by one (ops-nn's foreach_non_finite_check_and_unscale returns
    each scaled grad, then found_inf). Grouped per name when the counts add up; else as it was."""
    sizes = [counts.get(n, 1) if n in lists else 1 for n in names]
    if sum(sizes) != len(result) or any(n in lists and n not in counts for n in names):
        return result
    grouped, at = [], 0
    for name, size in zip(names, sizes):
        grouped.append(list(result[at:at + size]) if name in lists else result[at])
        at += size
    return grouped


def _expected_array(value, dtype, name: str):
    import numpy as np

    from opkg.core.model import EN_DTYPES, ML_DTYPES

    array = np.asarray(value)
    if array.dtype.kind not in "biufc" and array.dtype.name not in ML_DTYPES + EN_DTYPES:
        raise TypeError(f"returned {type(value).__name__} for output {name!r}; "
                        "return a NumPy array per output")
    if dtype.name == "int4" and array.dtype != dtype and array.size:
        # ml_dtypes' cast into int4 wraps (9 becomes -7): a value out of range is the golden's
        # mistake, not a result to compare
        wide = array.astype(np.float64)
        bad = np.flatnonzero((wide < -8) | (wide > 7))
        if bad.size:
            raise ValueError(f"returned {wide.reshape(-1)[bad[0]]:g} (element {int(bad[0])}) for "
                             f"the int4 output {name!r}, outside int4's range [-8, 7]")
    return np.ascontiguousarray(array.astype(dtype))


def _tensors(name: str, value) -> list:
    """(label, array) per tensor of one expected value: a dynamic tensor's as name[k]."""
    if value is None:
        return []
    if isinstance(value, list):
        return [(f"{name}[{k}]", v) for k, v in enumerate(value)]
    return [(name, value)]


def _output_counts(op, expected: dict, stated: dict) -> dict[str, int]:
    """How many tensors each dynamic output holds in this case: the golden's list, else the
    case's stated output_shapes."""
    counts = {}
    for t in op.outputs:
        if t.param_type != "dynamic":
            continue
        for value in (expected.get(t.name), stated.get(t.name)):
            if isinstance(value, (list, tuple)) and value and (
                    not isinstance(value[0], (int, float))):
                counts[t.name] = len(value)
                break
    return counts


def _copy(value):
    """An input's own copy: one array, or each tensor of a dynamic input's list."""
    return [v.copy() for v in value] if isinstance(value, list) else value.copy()


def _as_stated(stated: dict, expected: dict) -> dict:
    """The ops repositories' test tool compares an output's data, not its shape: a golden
    array of as many elements as the case's stated output shape (ops-nn's foreach_norm returns
    [1] where its table states [1, 1]) is taken in that shape. Other sizes stay, and disagree."""
    import numpy as np

    def fit(array, shape):
        if array is None or np.size(array) != int(np.prod(shape, dtype=np.int64)):
            return array
        return np.reshape(array, shape)

    out = dict(expected)
    for name, shape in stated.items():
        value = expected.get(name)
        if value is None:
            continue
        if shape and isinstance(shape[0], (list, tuple)):
            if isinstance(value, (list, tuple)) and len(value) == len(shape):
                out[name] = [fit(a, s) for a, s in zip(value, shape)]
        else:
            out[name] = fit(value, shape)
    return out


def _stated_overruled(stated: dict, expected: dict, inferred: dict | None) -> tuple[dict, list[str]]:
    """(stated, notes): a ttk row's output shape that the golden and the OpDef's InferShape
    both contradict, with one shape, is the table's slip (ops-nn's swi_glu tables copy the input
    shapes into output_shapes for an operator that halves the split axis); theirs is used."""
    out, notes = dict(stated), []
    for name, shape in stated.items():
        want = expected.get(name)
        if want is None or (shape and isinstance(shape[0], (list, tuple))) or isinstance(want, (list, tuple)):
            continue
        got = (inferred or {}).get(name, (None,))
        if isinstance(got, list) or got[0] is None:
            continue
        if tuple(shape) != tuple(want.shape) and tuple(got[0]) == tuple(want.shape):
            del out[name]
            notes.append(f"the case states output_shapes {name}: {list(shape)}, but the golden and the "
                         f"OpDef's InferShape both give {list(want.shape)}; theirs is used")
    return out, notes


def _stated_disagreement(stated: dict, expected: dict) -> str | None:
    """A case's output_shapes are what the outputs are: the golden must agree."""
    import numpy as np

    for name, shape in stated.items():
        if expected.get(name) is None:     # not compared in this case
            continue
        if shape and isinstance(shape[0], (list, tuple)):
            got = [list(np.shape(a)) for a in expected[name]] if isinstance(
                expected[name], (list, tuple)) else None
            if got is not None and got != [list(s) for s in shape]:
                return (f"the golden returned {name} with shapes {got} but the case states "
                        f"output_shapes {name}: {[list(s) for s in shape]}; fix whichever is "
                        "wrong")
            continue
        if tuple(shape) != tuple(expected[name].shape):
            return (f"the golden returned {name} with shape {list(expected[name].shape)} but the "
                    f"case states output_shapes {name}: {list(shape)}; fix whichever is wrong")
    return None


def _parts(array):
    """A complex array as (real, imag) float pairs, each part held to the tolerance."""
    import numpy as np

    if array.dtype.kind != "c":
        return array
    return np.ascontiguousarray(array).view(array.real.dtype).reshape(array.shape + (2,))


def _parts_mask(mask, array):
    """The never-written mask of an output, matched to _parts(array)."""
    import numpy as np

    if mask is None or array.dtype.kind != "c":
        return mask
    return np.repeat(np.asarray(mask)[..., None], 2, axis=-1)


def _unchecked_output(job, op, variant, inputs, case, name: str, host=None, capture_dir=None):
    """An empty array standing for an output the golden does not check (it returned None):
    its shape from the case's output_shapes, else from the OpDef's InferShape."""
    import numpy as np

    from opkg.core.model import numpy_dtype

    dtype = numpy_dtype(variant.dtype_of(name))
    shape = (case.get("output_shapes") or {}).get(name)
    if shape and isinstance(shape[0], (list, tuple)):   # a dynamic output: one array per tensor
        return [np.empty(tuple(s), dtype=dtype) for s in shape]
    if shape is None:
        inferred = _inferred_shapes(job, op, variant, inputs, case["attrs"], None, host,
                                    capture_dir)
        got = (inferred or {}).get(name, (None,))
        shape = None if isinstance(got, list) else got[0]
    if shape is None:
        raise ValueError(f"the golden returned None for output {name!r} (not compared), but "
                         "nothing gives its shape: the OpDef registers no InferShape; return "
                         "an array (for a dynamic output, a list of them), or state the case's "
                         "output_shapes")
    return np.empty(tuple(shape), dtype=dtype)


def _inferred_shapes(job, op, variant, inputs, attrs, output_counts=None, host=None,
                     capture_dir=None) -> dict | None:
    """What the package's OpDef InferShape gives for these inputs (None: it registers none).
    An operator without outputs has nothing to infer: its InferShape is not called (cann-ops'
    ScatterMax registers one that writes output 0, which does not exist)."""
    from opkg.sim.hostio import captured
    from opkg.sim.runtime import infer_output_shapes

    if not op.outputs:
        return None
    _mark_step("InferShape")
    # the arrays, not their shapes: InferShape reads the values of the inputs it depends on
    # (IMPL_OP_INFERSHAPE(...).InputsDataDependency, ValueDepend), as on the device's host
    with captured(host, "InferShape", capture_dir):
        found = infer_output_shapes(Path(job["host_lib"]), op, variant, inputs, attrs,
                                    output_counts)
    if found is None and host is not None:
        host.pop("InferShape", None)      # none registered: nothing ran, nothing to show
    return found


def _ref_shape_error(name: str, want, given) -> str | None:
    """A ref tensor is the input's buffer (a dynamic one the input's tensor list): the golden
    returns it with the input's shape, tensor by tensor."""
    import numpy as np

    if want is None:
        return None
    if isinstance(given, list):
        if not isinstance(want, (list, tuple)) or len(want) != len(given):
            return (f"the golden returned {name} as {_describe_value(want)}, but {name} is a "
                    f"dynamic ref tensor (an input list and an output of one name) of "
                    f"{len(given)} tensors; return the list as the kernel leaves it")
        pairs = [(f"{name}[{k}]", w, g) for k, (w, g) in enumerate(zip(want, given))]
    else:
        pairs = [(name, want, given)]
    for label, w, g in pairs:
        if w is not None and tuple(np.shape(w)) != g.shape:
            return (f"the golden returned {label} with shape {list(np.shape(w))}, but {name} is "
                    "a ref tensor (an input and an output of one name: one buffer) of shape "
                    f"{list(g.shape)}; return the input as the kernel leaves it")
    return None


def _describe_value(value) -> str:
    import numpy as np

    return (f"a list of {len(value)}" if isinstance(value, (list, tuple))
            else f"an array of shape {list(np.shape(value))}")


def _shape_disagreement(op, inferred: dict | None, expected: dict,
                        stated: dict) -> tuple[str | None, list[str]]:
    """(error, notes): where the OpDef registers InferShape, the golden's output shapes must
    match it, otherwise the kernel would be blamed for the golden's (or InferShape's) mistake.
    An output whose shape the case states is what the case says: InferShape's other opinion
    on it is only a note; on the outputs the case leaves unstated it is still an error."""
    notes = []
    for t in op.outputs:
        inferred_t = (inferred or {}).get(t.name, (None,))
        # a dynamic output: InferShape's shape per tensor (a list), compared tensor by tensor
        inferred_each = ([s for s, _ in inferred_t] if isinstance(inferred_t, list)
                         else [inferred_t[0]] * len(_tensors(t.name, expected[t.name])))
        for (label, want), shape in zip(_tensors(t.name, expected[t.name]), inferred_each):
            if shape is None:   # not compared: InferShape alone sizes it
                continue
            got = list(want.shape)
            if tuple(shape) == tuple(got):
                continue
            if t.name in op.ref_outputs and math.prod(shape) == math.prod(got):
                # the kernel writes the input's buffer whatever shape the graph gives it: the
                # same elements under another shape (ops-nn's dynamic_quant_update_scatter_v2
                # gives its ref var x's rank) are compared as the input's
                notes.append(f"the OpDef's InferShape gives {label} shape {list(shape)}: a ref "
                             f"tensor (the input's buffer) of as many elements, so the input's "
                             f"shape {got} is used")
                continue
            if t.name in stated:
                notes.append(f"the case states {label} with shape {got} but the OpDef's "
                             f"InferShape gives {list(shape)}; the stated shape is used")
            else:
                return (f"the golden returned {label} with shape {got} but the OpDef's "
                        f"InferShape gives {list(shape)}; fix whichever is wrong"), notes
    return None, notes


def _int_poison(dtype):
    import numpy as np

    if dtype.name == "int4":     # ml_dtypes' int4: NumPy kind 'V'
        return dtype.type(-8)
    return np.iinfo(dtype).min if dtype.kind in "iu" else 0


_MEMORY_MIB: int | None = None


def _describe(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for fr in reversed(frames):
        if "opkg" not in Path(fr.filename).parts:
            where = f" at {fr.filename}:{fr.lineno}"
            break
    if isinstance(exc, MemoryError) and _MEMORY_MIB:
        where += (f" (the verifier's memory limit is {_MEMORY_MIB} MiB; {MEMORY_ENV} sets it)")
    return f"{type(exc).__name__}: {exc}{where}"


def _report(job: dict, results: list[dict], error: str | None = None) -> dict:
    worst = {"max_abs_error": 0.0, "max_rel_error": 0.0, "mismatch_ratio": 0.0}
    for r in results:
        for o in r["outputs"].values():
            for k in worst:
                if o.get(k) is not None:
                    worst[k] = max(worst[k], o[k])
    failed = sum(1 for r in results if not r["passed"])
    refused = [r for r in results if r.get("refused")]
    if error is None and results and len(refused) == len(results):
        # nothing ran: not a pass (nothing was verified), said as the SoC's refusal
        error = (f"no case ran on {job['soc']['name']}: the operator's tiling refused all "
                 f"{len(results)} (cases it may refuse: {refused[0]['refused']})")
    return {
        "package": job["package"], "name": job["name"], "variant": job["variant"],
        "soc": job["soc"]["name"], "toolchain": "sim", "seed": job["seed"],
        "kernel_source": job["kernel_source"], "modes": job.get("modes", {}),
        "passed": error is None and bool(results) and failed == 0,
        # the cases run: the job's, and its fallback ones when they ran
        "error": error, "cases": max(len(job["cases"]), len(results)),
        "failed": failed if error is None else max(len(job["cases"]), len(results)),
        "results": results, **worst,
        # only when some: other reports unchanged
        **({"refused": len(refused)} if refused else {}),
    }


def write_report(path: Path, report: dict) -> None:
    """verification.json holds what the run decided, the same for the same inputs (the bundle
    step, cached locally and remotely, is keyed on it); each case's measured wall time goes
    beside it, in the step's other output (report_schema.timings_path)."""
    from opkg.core.report_schema import timings_path
    from opkg.util.fsutil import atomic_write_text

    timings = {case["case"]: case["seconds"] for case in report.get("results", [])
               if "seconds" in case}
    report = {**report, "results": [{k: v for k, v in case.items() if k != "seconds"}
                                    for case in report.get("results", [])]}
    atomic_write_text(timings_path(path), json.dumps(timings, indent=1, sort_keys=True) + "\n")
    atomic_write_text(path, json.dumps(_jsonable(report), indent=1, sort_keys=True) + "\n")


def _jsonable(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


if __name__ == "__main__":
    sys.exit(main())
