"""A symbolic link inside a package that points out of it is never walked: a link to / made
every build walk the whole file system and fail on /proc."""

from __future__ import annotations

import os

from tests.conftest import opkg


def test_a_link_to_the_root_directory_inside_a_package_is_not_walked(workspace):
    pkg = workspace.copy_package("add_custom")
    os.symlink("/", pkg / "rootlink")
    first = opkg("build", "//...", "--soc", "Ascend910B1", cwd=workspace.root)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "/proc" not in first.stderr
    # The fast path cannot prove what is behind the link, so it says so and SCons decides.
    again = opkg("build", "//...", "--soc", "Ascend910B1", "--explain", cwd=workspace.root)
    assert again.returncode == 0, again.stderr
    assert ("checking every step: packages/add_custom/rootlink links to a directory outside "
            "its tree, which the fast path does not walk") in again.stdout + again.stderr
    assert "nothing to rebuild: every step is up to date" in again.stdout + again.stderr
