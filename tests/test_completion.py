"""`opkg completion`: the script a shell sources, completing labels, names, SoCs, commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import opkg


@pytest.fixture
def opkg_on_path(tmp_path):
    """An `opkg` executable on PATH, as an installed opkg is: the script calls it by name."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "opkg"
    exe.write_text(f'#!/bin/sh\nexec {sys.executable} -m opkg "$@"\n')
    exe.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def bash_complete(words: str, cwd, env) -> list[str]:
    """What bash offers for `words` + Tab, through the script `opkg completion bash` prints."""
    script = ('eval "$(opkg completion bash)"\n'
              f'COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n'
              '_opkg_completion opkg\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
    r = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [l for l in r.stdout.splitlines() if l]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_labels_names_socs_and_commands(workspace, opkg_on_path):
    workspace.operator("addone")
    workspace.operator("softmax", op_type="Softmax")
    workspace.library("common")
    root = workspace.root
    assert bash_complete("opkg build //packages/so", root, opkg_on_path) == ["//packages/softmax"]
    assert bash_complete("opkg test add", root, opkg_on_path) == ["addone"]
    assert set(bash_complete("opkg build //", root, opkg_on_path)) == {
        "//packages/addone", "//packages/common", "//packages/softmax", "//..."}
    socs = bash_complete("opkg build --soc Ascend910B", root, opkg_on_path)
    assert "Ascend910B1" in socs and all(s.startswith("Ascend910B") for s in socs)
    assert "Ascend310P3" in bash_complete("opkg toolchain check --soc Ascend310P", root,
                                          opkg_on_path)
    assert bash_complete("opkg bui", root, opkg_on_path) == ["build"]
    assert "completion" in bash_complete("opkg comp", root, opkg_on_path)
    # outside a workspace: no labels, no error on the terminal
    assert bash_complete("opkg build //", root.parent, opkg_on_path) == []


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o nosort -F _opkg_completion opkg"),
                                           ("zsh", "#compdef opkg"),
                                           ("fish", "complete --no-files --command opkg")])
def test_completion_scripts(workspace, shell, marker):
    r = opkg("completion", shell, cwd=workspace.root)
    assert r.returncode == 0 and marker in r.stdout and "_OPKG_COMPLETE" in r.stdout


def test_unknown_shell_is_a_usage_error(workspace):
    r = opkg("completion", "tcsh", cwd=workspace.root)
    assert r.returncode == 2 and "'tcsh' is not one of 'bash', 'zsh', 'fish'" in r.stderr
