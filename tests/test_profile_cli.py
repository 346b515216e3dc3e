"""`opkg profile`: the kernel profile model read back from a real build's reports."""

from __future__ import annotations

import json

from tests.conftest import opkg


def test_profile_table_and_json_after_a_build(workspace):
    workspace.copy_package("add_custom")
    root = workspace.root
    r = opkg("profile", "//packages/add_custom", cwd=root, check=2)
    assert "not built" in r.stderr and "build first: opkg build //packages/add_custom" in r.stderr

    r = opkg("build", "//packages/add_custom", "--soc", "Ascend910B1", "--soc", "Ascend310P3",
             "-j", "2", cwd=root, check=0)
    assert "MODEL" not in r.stdout and "est us" not in r.stdout     # builds stay quiet

    r = opkg("profile", "//packages/add_custom", cwd=root, check=0)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("MODEL, not a measurement")
    assert lines[1].split()[:5] == ["package", "soc", "variant", "case", "est"]
    rows = [l.split() for l in lines if l.startswith("add_custom ")]
    assert len(rows) == 2 * 2 * 3                   # SoCs x variants x cases
    b1 = [row for row in rows if row[1] == "Ascend910B1"]
    assert all(float(row[4]) > 0 and row[8] in ("memory", "compute") for row in b1)
    p3 = [row for row in rows if row[1] == "Ascend310P3"]
    assert all(row[4:9] == ["-"] * 5 for row in p3)
    # once, with what it applies to, not once per case
    assert ("note: no time estimate for Ascend310P3: toolchains/socs.yaml has no "
            "gm_bandwidth_gbps, clock_ghz, vector_bytes_per_cycle for it "
            "[add_custom on Ascend310P3 (6 cases)]") in lines
    assert sum(l.startswith("note:") for l in lines) == 1

    data = json.loads(opkg("profile", "add_custom", "--soc", "Ascend910B1", "--json",
                           cwd=root, check=0).stdout)
    assert data["model"] is True and data["missing"] == []
    assert {(p["variant"], p["case"]) for p in data["profiles"]} == {
        (v, c) for v in ("float16", "float32") for c in ("even", "uneven_split", "small")}
    even32 = next(p["profile"] for p in data["profiles"]
                  if (p["variant"], p["case"]) == ("float32", "even"))
    assert even32["model"] is True
    c = even32["counters"]
    # z = x + y over 48 x 1024 floats: every input byte read once, every output byte written once
    assert (c["gm_read_bytes"], c["gm_write_bytes"]) == (2 * 48 * 1024 * 4, 48 * 1024 * 4)
    assert c["vector"]["by_kind"]["Add"]["elements"] == 48 * 1024
    assert c["min_queue_buffers"] == 2 and even32["estimate"]["overlapped"]

    # bad input: a misspelt SoC, a damaged report
    r = opkg("profile", "add_custom", "--soc", "Ascend910B9", cwd=root, check=2)
    assert "unknown SoC 'Ascend910B9'" in r.stderr and "did you mean" in r.stderr
    report = root / "out/sim/add_custom/Ascend910B1/float32/verification.json"
    report.write_text(report.read_text()[:100])
    r = opkg("profile", "add_custom", "--soc", "Ascend910B1", cwd=root, check=2)
    assert f"{report} is not a readable verification report" in r.stderr
    assert "rebuild it: opkg build //packages/add_custom --soc Ascend910B1" in r.stderr
    assert "Traceback" not in r.stderr


def test_profile_help_has_examples_and_says_model(tmp_path):
    r = opkg("profile", "--help", cwd=tmp_path, check=0)
    text = " ".join(r.stdout.split())      # independent of where click wraps
    assert "opkg profile //packages/layernorm" in text and "not a measurement" in text
    r = opkg("--help", cwd=tmp_path, check=0)
    assert "profile" in r.stdout
