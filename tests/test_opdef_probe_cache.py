"""The OpDef probe's shared objects (opkg/importers/opdef.py `shared_objects`): what every probe
compiles alike (the sim's host runtime, the generated entry, the precompiled prelude of the
sim's OpDef headers) is compiled once into the cache, keyed by content, and reused; an OpDef
read through the prelude is the OpDef read without it."""

from __future__ import annotations

from pathlib import Path

from opkg.importers import opdef

OPDEF = """\
#include <cstdint>
#include "register/op_def_registry.h"
namespace ops {
static const std::vector<ge::DataType> kTypes = {ge::DT_FLOAT16, ge::DT_FLOAT};
class %(name)s : public OpDef {
public:
    explicit %(name)s(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType(kTypes).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType(kTypes).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(%(eps)s);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(%(name)s);
}
"""


def _source(tmp_path: Path, name: str, eps: str) -> Path:
    src = tmp_path / f"{name.lower()}_def.cpp"
    src.write_text(OPDEF % {"name": name, "eps": eps})
    return src


def _probe_files(cache: Path) -> dict[str, float]:
    """The shared objects of the cache (not the probes' kept answers)."""
    return {p.relative_to(cache / "opdef-probe").as_posix(): p.stat().st_mtime_ns
            for p in (cache / "opdef-probe").rglob("*") if p.is_file()
            and p.parent.name != "answers"}


def test_shared_objects_are_compiled_once_and_the_prelude_only_when_asked(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("OPKG_CACHE_DIR", str(cache))
    monkeypatch.delenv("OPKG_IMPORT_PCH", raising=False)
    first = opdef.read_opdefs([_source(tmp_path, "OneOp", "1e-5f")], [tmp_path], tmp_path)
    files = _probe_files(cache)
    # one probe alone: the runtime and the entry, no prelude (its compile would cost a single
    # import more than it saves)
    assert sorted(f.split("-")[0] + "-" + f.split("-")[1] for f in files) == [
        "host-runtime", "probe-entry"]
    assert opdef.shared_objects().prelude is None
    # an import of many: the prelude is built once, then every probe uses it
    many = [opdef.read_opdefs([_source(tmp_path, name, eps)], [tmp_path], tmp_path,
                              precompile=True)
            for name, eps in (("TwoOp", "2.5f"), ("ThreeOp", "0.125f"))]
    after = _probe_files(cache)
    assert {f: t for f, t in after.items() if f in files} == files     # none compiled again
    assert sorted(f.split("/")[-1] for f in after if f not in files) == [
        "opkg_probe_prelude.h", "opkg_probe_prelude.h.gch"]
    assert opdef.shared_objects().prelude is not None
    assert _probe_files(cache) == after
    assert [o["type"] for o in first.ops] == ["OneOp"]
    assert [[o["type"] for o in p.ops] for p in many] == [["TwoOp"], ["ThreeOp"]]


def test_an_opdef_read_through_the_prelude_is_the_opdef_read_without(tmp_path, monkeypatch):
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    src = _source(tmp_path, "SameOp", "3.0f")
    monkeypatch.setenv("OPKG_IMPORT_PCH", "0")
    without = opdef.read_opdefs([src], [tmp_path], tmp_path, precompile=True)
    assert opdef.shared_objects(precompile=True).prelude is None
    monkeypatch.setenv("OPKG_IMPORT_PCH", "1")
    with_prelude = opdef.read_opdefs([src], [tmp_path], tmp_path)
    assert opdef.shared_objects().prelude is not None
    assert with_prelude.ops == without.ops
    assert opdef.to_manifest_op(with_prelude.ops[0])["attrs"] == [
        {"name": "eps", "type": "float", "default": 3.0}]


def test_an_unchanged_probe_is_answered_from_the_cache_and_a_changed_header_is_read_again(
        tmp_path, monkeypatch):
    import subprocess

    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPKG_IMPORT_PCH", "0")
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "eps.h").write_text("constexpr float kEps = 0.5f;\n")
    src = _source(tmp_path, "KeptOp", "kEps")
    src.write_text('#include "eps.h"\n' + src.read_text())

    def read():
        return opdef.to_manifest_op(opdef.read_opdefs([src], [inc], tmp_path).ops[0])["attrs"]

    assert read() == [{"name": "eps", "type": "float", "default": 0.5}]
    calls = []
    real_run = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a) or real_run(*a, **k))
    assert read() == [{"name": "eps", "type": "float", "default": 0.5}]
    assert calls == []                   # nothing compiled, linked or loaded
    # a header the source includes (not named on the command line) changes: probed again
    (inc / "eps.h").write_text("constexpr float kEps = 0.25f;\n")
    assert read() == [{"name": "eps", "type": "float", "default": 0.25}]
    assert calls
