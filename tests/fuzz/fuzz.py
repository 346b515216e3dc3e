"""`make fuzz`: hostile input through opkg's loaders, for a fixed time budget.

Six targets: manifests (YAML text), version strings and specifiers, registry indexes and
records, bundle archives, OpDef sources (`opkg import`'s reader of host code) and the records
opkg reads back from `out/` (the manifest cache, verification reports). Each loader may accept
its input or refuse it with an opkg error (`OpkgError`: file, line, hint); any other exception
is a bug: it is printed with the input that caused it (shrunk by hypothesis), the input is
saved into the corpus, and the run exits 1.

The corpus lives in tests/fuzz/corpus/<target>/: every file there is replayed first (inputs
that broke a loader once stay tests forever), then hypothesis mutates corpus entries and
generates new inputs until the target's share of FUZZ_SECONDS is used.

    make fuzz                                   # 60 s
    FUZZ_SECONDS=600 make fuzz                  # longer
    .venv/bin/python tests/fuzz/fuzz.py manifests archives   # some targets only

tests/test_fuzz.py runs every target for a few seconds in `make test` (and so in CI).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "registry")]

from opkg.core.errors import OpkgError  # noqa: E402

WORK = Path(tempfile.mkdtemp(prefix="opkg-fuzz-"))
SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

# -- values and mutations ----------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats() | st.text(max_size=20)
           | st.sampled_from(["1.0.0", "../../x", "garbage", "sha256:" + "0" * 64, "float32",
                              "Ascend910B1", "//packages/x", ".inf", "1e300", "", "a" * 300]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)


def paths_of(doc, here=()):
    """Every path to a value inside a JSON-like document."""
    yield here
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths_of(v, here + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths_of(v, here + (i,))


def replaced(doc, where, value):
    if not where:
        return value
    out = copy.deepcopy(doc)
    node = out
    for part in where[:-1]:
        node = node[part]
    node[where[-1]] = value
    return out


@st.composite
def mutated(draw, base):
    """`base` with one to three values replaced by arbitrary ones (or dropped)."""
    doc = base
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(paths_of(doc))))
        if where and draw(st.booleans()) and isinstance(_at(doc, where[:-1]), dict):
            doc = copy.deepcopy(doc)
            del _at(doc, where[:-1])[where[-1]]
        else:
            doc = replaced(doc, where, draw(values))
    return doc


def _at(doc, where):
    for part in where:
        doc = doc[part]
    return doc


@st.composite
def edited(draw, base, alphabet):
    """`base` (text or bytes) with a few insertions, deletions or replacements."""
    data = base
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        cut = draw(st.integers(0, min(8, len(data) - at)))
        piece = draw(alphabet)
        data = data[:at] + piece + data[at + cut:]
    return data


def corpus_of(target: str, kind: str) -> list:
    """The corpus files of `target`, as text, bytes or JSON documents."""
    out = []
    for path in sorted((CORPUS / target).glob("*")):
        if kind == "bytes":
            out.append(path.read_bytes())
        elif kind == "json":
            out.append(json.loads(path.read_text()))
        else:
            out.append(path.read_text(encoding="utf-8", errors="surrogateescape"))
    return out


def save_to_corpus(target: str, kind: str, value) -> Path:
    if kind == "bytes":
        data = value
    elif kind == "json":
        data = json.dumps(value, indent=1).encode()
    else:
        data = value.encode("utf-8", errors="surrogateescape")
    ext = {"bytes": ".bin", "json": ".json"}.get(kind, ".txt")
    path = CORPUS / target / f"found-{hashlib.sha256(data).hexdigest()[:12]}{ext}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def refused_cleanly(fn, *args):
    try:
        fn(*args)
    except OpkgError:
        pass


# -- manifests ---------------------------------------------------------------------------------

def _package_dir() -> Path:
    from conftest import MINIMAL_KERNEL  # tests/conftest.py

    pkg = WORK / "ws" / "packages" / "addone"
    for rel, text in {"op_host/op.cpp": "// host\n", "op_host/op_tiling.h": "// tiling\n",
                      "op_kernel/op.cpp": MINIMAL_KERNEL.format(entry="add_one"),
                      "golden.py": "def golden(x, *, alpha):\n    return x + alpha\n"}.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    return pkg


def manifests_target():
    from opkg.core.manifest import load_package
    from opkg.core.socs import soc_table

    pkg = _package_dir()
    known = soc_table(None)

    def check(text: str):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return                  # not a text file a user could write
        (pkg / "opkg.yaml").write_text(text, encoding="utf-8")
        refused_cleanly(lambda: load_package(pkg / "opkg.yaml", "//packages/addone",
                                             known_socs=known))

    corpus = corpus_of("manifests", "text")
    docs = [d for d in (_yaml_or_none(t) for t in corpus) if isinstance(d, dict)]
    yaml_chars = st.text(st.sampled_from(list("&*!|>-?:[]{},#'\"%@`\n\t .0123456789eEaxnif<=\\")),
                         max_size=12)
    strategy = st.one_of(
        st.sampled_from(docs).flatmap(mutated).map(
            lambda d: yaml.safe_dump(d, allow_unicode=True)),
        st.sampled_from(corpus).flatmap(lambda t: edited(t, yaml_chars)),
        st.text(max_size=200))
    return "text", corpus, check, strategy


def _yaml_or_none(text):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


# -- version strings ---------------------------------------------------------------------------

def versions_target():
    from opkg.core import versions
    from opkg.registry.install import parse_requirement
    from opkg.registry.records import version_key
    from opkg.registry.yank import parse_pinned

    def check(value):
        # what a manifest, pins file or record may hold: any value
        for fn in (versions.parse_cann, versions.parse_driver, versions.cann_spec,
                   versions.driver_spec, version_key):
            refused_cleanly(fn, value)
        if isinstance(value, str):   # what the command line passes: text
            for fn in (parse_requirement, parse_pinned):
                refused_cleanly(fn, value)
        try:
            spec = versions.cann_spec(value)
            spec.contains(versions.parse_cann("8.0.RC2")) if hasattr(spec, "contains") else None
        except OpkgError:
            pass

    corpus = corpus_of("versions", "json")
    chars = st.sampled_from(list("0123456789.rcRCTalphbet+-_!*<>=~, abcxyz\t/"))
    strategy = (st.text(chars, max_size=24) | st.text(max_size=24) | values
                | st.sampled_from([c for c in corpus if isinstance(c, str)] or [""]).flatmap(
                    lambda t: edited(t, st.text(chars, max_size=3))))
    return "json", corpus, check, strategy


# -- registry indexes and records ---------------------------------------------------------------

def registry_target():
    from registry_testlib import make_bundle

    from opkg.registry.check import check as registry_check
    from opkg.registry.install import parse_requirement, select
    from opkg.registry.publish import publish_bundles
    from opkg.registry.store import Store

    pristine = WORK / "registry-pristine"
    out = WORK / "bundles"
    for v in ("1.0.0", "1.1.0"):
        (out / v).mkdir(parents=True, exist_ok=True)
        publish_bundles(Store(pristine), [make_bundle(out / v, version=v)])
    root = WORK / "registry"

    def readers(store):
        catalog = store.catalog()
        for name, found in catalog.items():
            for e in found.values():
                e.parsed
            refused_cleanly(select, store, parse_requirement(name), "Ascend910B1")
        registry_check(store)

    def check(case):
        """case: {"which": "index" | "record", "doc": the file's JSON}."""
        if not isinstance(case, dict) or case.get("which") not in ("index", "record"):
            return
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(pristine, root)
        path = root / ("index.json" if case["which"] == "index"
                       else "records/add_custom/1.1.0.json")
        path.chmod(0o644)
        path.write_text(json.dumps(case.get("doc")))
        refused_cleanly(readers, Store(root))
        try:
            registry_check(Store(root), repair=True)
            readers(Store(root))
        except OpkgError:
            pass

    corpus = corpus_of("registry", "json")
    strategy = st.sampled_from(corpus).flatmap(
        lambda c: mutated(c["doc"]).map(lambda d: {"which": c["which"], "doc": d}))
    return "json", corpus, check, strategy


# -- archives ----------------------------------------------------------------------------------

def archives_target():
    from opkg.core.bundle import read_metadata, safe_extract
    from opkg.registry.publish import load_bundle

    path = WORK / "fuzzed.opkg.tgz"
    dest = WORK / "unpacked"

    def check(data: bytes):
        path.write_bytes(data)
        shutil.rmtree(dest, ignore_errors=True)
        refused_cleanly(load_bundle, path)
        try:
            read_metadata(path)
            safe_extract(path, dest)
        except OpkgError:
            pass

    def tar_of(members) -> bytes:
        import gzip

        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for name, kind, data, pax in members:
                info = tarfile.TarInfo(name)
                info.type = kind
                info.size = len(data) if kind == tarfile.REGTYPE else 0
                info.linkname = "../x" if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE) else ""
                info.pax_headers = pax
                tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
        return gzip.compress(buf.getvalue())

    names = st.sampled_from(["opkg-bundle.json", "lib/x.so", "../x", "/abs", "a/../../b", "",
                             "verification/float32.json", "a\\b", ".", "x" * 300]) \
        | st.text(max_size=12)
    kinds = st.sampled_from([tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE,
                             tarfile.FIFOTYPE])
    pax = st.dictionaries(st.sampled_from(["comment", "path", "size", "mtime", "uid"]),
                          st.text(max_size=8) | st.sampled_from(["x" * 5000, "-1", "1e99"]),
                          max_size=2)
    members = st.lists(st.tuples(names, kinds, st.binary(max_size=64)
                                 | values.map(lambda v: json.dumps(v).encode()), pax), max_size=5)
    corpus = corpus_of("archives", "bytes")
    strategy = st.one_of(
        st.sampled_from(corpus).flatmap(lambda raw: st.one_of(
            edited(raw, st.binary(min_size=1, max_size=2)),     # a few bytes changed
            st.integers(0, len(raw)).map(lambda n: raw[:n]))),  # truncated
        members.map(tar_of),
        st.binary(max_size=256))
    return "bytes", corpus, check, strategy


# -- OpDef sources (opkg import) -----------------------------------------------------------------

def opdef_target():
    from opkg.importers.opdef import parse_opdef_text, to_manifest_op

    src = WORK / "opdef" / "op.cpp"
    src.parent.mkdir(parents=True, exist_ok=True)

    def check(text: str):
        src.write_text(text, encoding="utf-8", errors="surrogateescape")
        ops, why = parse_opdef_text([src])
        assert all(isinstance(w, str) for w in why)
        for op in ops:
            refused_cleanly(to_manifest_op, op)

    corpus = corpus_of("opdef", "text")
    cpp = st.lists(st.sampled_from(list('(){};,."<>:-_ \nxyzAOIDT0123456789') + [
        "DataType(", "Format(", "ParamType(", "Attr(", "Input(", "Output(", "ge::DT_FLOAT",
        "ge::FORMAT_ND", "OPTIONAL", "REQUIRED", "DYNAMIC", ".Int(", ".Float(", ".ListInt(",
        "/*", "*/", "//", "OP_ADD(", "AddConfig(", "class X : public OpDef {"]),
        min_size=1, max_size=6).map("".join)
    strategy = st.one_of(st.sampled_from(corpus).flatmap(lambda t: edited(t, cpp)),
                         st.text(max_size=300))
    return "text", corpus, check, strategy


# -- what opkg reads back from out/ ----------------------------------------------------------------

def records_target():
    """The manifest cache (out/.opkg/manifests.json) and verification reports: JSON that may
    come from another machine with out/ (a CI artefact)."""
    from opkg.core.manifest import load_package
    from opkg.core.manifest_cache import ManifestCache
    from opkg.core.socs import soc_table
    from opkg.core.report_schema import read_report

    from conftest import MINIMAL_MANIFEST  # tests/conftest.py

    pkg = _package_dir()
    manifest = pkg / "opkg.yaml"
    out = WORK / "out"
    state = out / ".opkg"
    state.mkdir(parents=True, exist_ok=True)
    report = WORK / "verification.json"
    context = [sorted(soc_table(None)), []]

    def check(case):
        """case: {"which": "cache" | "report", "doc": the file's JSON}."""
        if not isinstance(case, dict) or case.get("which") not in ("cache", "report"):
            return
        if case["which"] == "report":
            report.write_text(json.dumps(case.get("doc")))
            read_report(report)
            return
        manifest.write_text(MINIMAL_MANIFEST.format(name="addone", op_type="AddOne",
                                                     deps="[]"))
        # the corpus names the package directory @PKG@: entries then are this manifest's
        (state / "manifests.json").write_text(json.dumps(case.get("doc")).replace(
            "@PKG@", str(pkg)))
        with contextlib.redirect_stderr(io.StringIO()):     # its one warning, expected here
            cache = ManifestCache(out, context)
        got = cache.get(manifest, "//packages/addone")
        if got is not None:   # only a Package of this manifest, as the parser makes it
            assert got == load_package(manifest, "//packages/addone",
                                       known_socs=soc_table(None))
        cache.save()

    corpus = corpus_of("records", "json")
    strategy = st.sampled_from(corpus).flatmap(
        lambda c: mutated(c["doc"]).map(lambda d: {"which": c["which"], "doc": d}))
    return "json", corpus, check, strategy


TARGETS = {"manifests": manifests_target, "versions": versions_target,
           "registry": registry_target, "archives": archives_target,
           "opdef": opdef_target, "records": records_target}


def fuzz(name: str, seconds: float) -> int:
    kind, corpus, check, strategy = TARGETS[name]()
    last = []

    def run_one(value):
        last[:] = [value]
        check(value)

    try:
        for value in corpus:                 # the corpus first: every past finding stays fixed
            run_one(value)
        rounds = 0
        until = time.monotonic() + seconds

        @SETTINGS
        @given(strategy)
        def run(value):
            run_one(value)

        while True:
            run()
            rounds += 1
            if time.monotonic() >= until:
                break
    except Exception as exc:
        print(f"fuzz {name}: a loader raised something other than an opkg error:",
              file=sys.stderr)
        traceback.print_exc()
        if last and not type(exc).__module__.startswith("hypothesis"):   # not a harness error
            saved = save_to_corpus(name, kind, last[0])
            print(f"fuzz {name}: the input is saved as {saved.relative_to(REPO)}",
                  file=sys.stderr)
        return 1
    print(f"fuzz {name}: {len(corpus)} corpus inputs and {rounds * SETTINGS.max_examples} "
          "generated, no traceback")
    return 0


def main(argv) -> int:
    chosen = argv or list(TARGETS)
    unknown = [t for t in chosen if t not in TARGETS]
    if unknown:
        print(f"unknown fuzz target(s) {unknown}; targets: {', '.join(TARGETS)}",
              file=sys.stderr)
        return 2
    share = float(os.environ.get("FUZZ_SECONDS", "60")) / len(chosen)
    try:
        return max(fuzz(name, share) for name in chosen)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
