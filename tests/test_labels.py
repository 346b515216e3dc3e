from pathlib import Path

import pytest

from opkg.core import labels
from opkg.core.errors import LabelError

ROOT = Path("/ws")


@pytest.mark.parametrize("pattern, cwd, path, recursive", [
    ("//packages/layernorm", "/ws", "packages/layernorm", False),
    ("//packages/layernorm/", "/ws", "packages/layernorm", False),
    ("//packages/...", "/ws", "packages", True),
    ("//...", "/ws/packages", "", True),
    ("packages/layernorm", "/ws", "packages/layernorm", False),
    ("./packages/layernorm/", "/ws", "packages/layernorm", False),
    ("layernorm/", "/ws/packages", "packages/layernorm", False),
    ("../packages/add", "/ws/docs", "packages/add", False),
    ("...", "/ws/packages", "packages", True),
    ("packages/...", "/ws", "packages", True),
    (".", "/ws/packages/add", "packages/add", False),
])
def test_parse(pattern, cwd, path, recursive, tmp_path):
    sel = labels.parse(pattern, ROOT, Path(cwd))
    assert (sel.path, sel.recursive, sel.name) == (path, recursive, None)


def test_bare_name_matches_package_name(tmp_path):
    sel = labels.parse("layernorm", tmp_path, tmp_path)
    assert sel.name == "layernorm"
    assert sel.matches("packages/x/y", "layernorm") and not sel.matches("packages/layernorm", "x")


def test_matching():
    sel = labels.parse("//packages/...", ROOT, ROOT)
    assert sel.matches("packages/a", "a") and sel.matches("packages/a/b", "b")
    assert not sel.matches("packagesx/a", "a")
    exact = labels.parse("//packages/a", ROOT, ROOT)
    assert exact.matches("packages/a", "a") and not exact.matches("packages/a/b", "b")


@pytest.mark.parametrize("bad", ["//packages/../x", "//pkg:target", "//a/.../b", "", " //x",
                                 "//a/b...", "/packages/x-not-there"])
def test_malformed_labels(bad):
    with pytest.raises(LabelError) as info:
        labels.parse(bad, ROOT, ROOT)
    assert info.value.exit_code == 2
    assert info.value.hint


def test_path_outside_workspace():
    with pytest.raises(LabelError, match="outside the workspace"):
        labels.parse("../elsewhere/pkg", ROOT, Path("/ws"))
