"""`make fuzz`: hypothesis-driven hostile input through opkg's loaders, for a fixed time.

Four targets share FUZZ_SECONDS (default 60): manifests (YAML text and mutated documents),
version strings and specifiers, registry indexes and records, and bundle archives. A loader
may accept its input or refuse it with an opkg error (`OpkgError`: file, line, hint); any other
exception is a bug, printed with the input that caused it (shrunk by hypothesis), and the run
exits 1. Not part of `make test` or CI: it runs for as long as it is told to, on random input.

    make fuzz                       # 60 s
    FUZZ_SECONDS=600 make fuzz      # longer
    .venv/bin/python tests/fuzz/fuzz.py manifests archives   # some targets only
"""

from __future__ import annotations

import copy
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
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "registry")]

from opkg.core.errors import OpkgError  # noqa: E402

WORK = Path(tempfile.mkdtemp(prefix="opkg-fuzz-"))
SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

# -- values ------------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats() | st.text(max_size=20)
           | st.sampled_from(["1.0.0", "../../x", "garbage", "sha256:" + "0" * 64, "float32",
                              "Ascend910B1", "//packages/x", ".inf", "1e300", ""]))
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
    """`base` with one to three values replaced by arbitrary ones."""
    doc = base
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(paths_of(doc))))
        doc = replaced(doc, where, draw(values))
    return doc


def expect_opkg_errors(fn, *args):
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


def fuzz_manifests():
    from conftest import MINIMAL_MANIFEST  # tests/conftest.py

    from opkg.core.manifest import load_package
    from opkg.core.socs import soc_table

    pkg = _package_dir()
    text = MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]") \
        + "  tolerance: {float16: {rtol: 1.0e-3}}\n  timeout: 60\n"
    base = yaml.safe_load(text)
    known = soc_table(None)

    def load(manifest_text: str):
        (pkg / "opkg.yaml").write_text(manifest_text, encoding="utf-8", errors="surrogatepass")
        load_package(pkg / "opkg.yaml", "//packages/addone", known_socs=known)

    yaml_chars = st.sampled_from(list("&*!|>-?:[]{},#'\"%@`\n\t .0123456789eEaxnif<=\\"))

    @SETTINGS
    @given(st.one_of(
        mutated(base).map(lambda d: yaml.safe_dump(d, allow_unicode=True)),
        st.tuples(st.integers(0, len(text)), st.text(yaml_chars, max_size=12)).map(
            lambda t: text[:t[0]] + t[1] + text[t[0]:]),
        st.text(max_size=200)))
    def run(manifest_text):
        try:
            manifest_text.encode("utf-8")
        except UnicodeEncodeError:
            return
        expect_opkg_errors(load, manifest_text)
    run()


# -- version strings ---------------------------------------------------------------------------

def fuzz_versions():
    from opkg.core import versions
    from opkg.registry.install import parse_requirement
    from opkg.registry.records import version_key
    from opkg.registry.yank import parse_pinned

    chars = st.sampled_from(list("0123456789.rcRCTalphbet+-_!*<>=~, abcxyz\t/"))
    texts = st.text(chars, max_size=24) | st.text(max_size=24) | values

    @SETTINGS
    @given(texts)
    def run(text):
        # what a manifest, pins file or record may hold: any value
        for fn in (versions.parse_cann, versions.parse_driver, versions.cann_spec,
                   versions.driver_spec, version_key):
            expect_opkg_errors(fn, text)
        if isinstance(text, str):   # what the command line passes: text
            for fn in (parse_requirement, parse_pinned):
                expect_opkg_errors(fn, text)
        try:
            spec = versions.cann_spec(text)
            spec.contains(versions.parse_cann("8.0.RC2")) if hasattr(spec, "contains") else None
        except OpkgError:
            pass
    run()


# -- registry indexes and records ---------------------------------------------------------------

def fuzz_registry():
    from registry_testlib import make_bundle

    from opkg.registry.check import check
    from opkg.registry.install import select, parse_requirement
    from opkg.registry.publish import publish_bundles
    from opkg.registry.store import Store

    pristine = WORK / "registry-pristine"
    out = WORK / "bundles"
    for v in ("1.0.0", "1.1.0"):
        (out / v).mkdir(parents=True, exist_ok=True)
        publish_bundles(Store(pristine), [make_bundle(out / v, version=v)])
    index = json.loads((pristine / "index.json").read_text())
    record = json.loads((pristine / "records/add_custom/1.1.0.json").read_text())
    root = WORK / "registry"

    def readers(store):
        catalog = store.catalog()
        for name, versions in catalog.items():
            for e in versions.values():
                e.parsed
            expect_opkg_errors(select, store, parse_requirement(name), "Ascend910B1")
        check(store)

    @SETTINGS
    @given(st.one_of(mutated(index).map(lambda d: ("index", d)),
                     mutated(record).map(lambda d: ("record", d))))
    def run(case):
        which, doc = case
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(pristine, root)
        path = root / ("index.json" if which == "index" else "records/add_custom/1.1.0.json")
        path.chmod(0o644)
        path.write_text(json.dumps(doc))
        expect_opkg_errors(readers, Store(root))
        try:
            check(Store(root), repair=True)
            readers(Store(root))
        except OpkgError:
            pass
    run()


# -- archives ----------------------------------------------------------------------------------

def fuzz_archives():
    from registry_testlib import make_bundle

    from opkg.core.bundle import read_metadata, safe_extract
    from opkg.registry.publish import load_bundle

    (WORK / "archives").mkdir(exist_ok=True)
    raw = make_bundle(WORK / "archives", version="1.0.0").read_bytes()
    path = WORK / "fuzzed.opkg.tgz"
    dest = WORK / "unpacked"

    def load(data: bytes):
        path.write_bytes(data)
        shutil.rmtree(dest, ignore_errors=True)
        expect_opkg_errors(load_bundle, path)
        try:
            read_metadata(path)
            safe_extract(path, dest)
        except OpkgError:
            pass

    def tar_of(members) -> bytes:
        import gzip

        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            for name, kind, data in members:
                info = tarfile.TarInfo(name)
                info.type = kind
                info.size = len(data) if kind == tarfile.REGTYPE else 0
                info.linkname = "../x" if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE) else ""
                tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
        return gzip.compress(buf.getvalue())

    names = st.sampled_from(["opkg-bundle.json", "lib/x.so", "../x", "/abs", "a/../../b", "",
                             "verification/float32.json", "a\\b", "."]) | st.text(max_size=12)
    kinds = st.sampled_from([tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE,
                             tarfile.FIFOTYPE])
    members = st.lists(st.tuples(names, kinds, st.binary(max_size=64)
                                 | values.map(lambda v: json.dumps(v).encode())), max_size=5)

    @SETTINGS
    @given(st.one_of(
        st.tuples(st.integers(0, len(raw) - 1), st.integers(0, 255)).map(
            lambda t: raw[:t[0]] + bytes([t[1]]) + raw[t[0] + 1:]),         # one byte changed
        st.integers(0, len(raw)).map(lambda n: raw[:n]),                     # truncated
        members.map(tar_of),
        st.binary(max_size=256)))
    def run(data):
        load(data)
    run()


TARGETS = {"manifests": fuzz_manifests, "versions": fuzz_versions,
           "registry": fuzz_registry, "archives": fuzz_archives}


def main(argv) -> int:
    chosen = argv or list(TARGETS)
    seconds = float(os.environ.get("FUZZ_SECONDS", "60"))
    share = seconds / len(chosen)
    try:
        for name in chosen:
            until, rounds = time.monotonic() + share, 0
            while time.monotonic() < until:
                try:
                    TARGETS[name]()
                except Exception:
                    print(f"fuzz {name}: a loader raised something other than an opkg error:",
                          file=sys.stderr)
                    traceback.print_exc()
                    return 1
                rounds += 1
            print(f"fuzz {name}: {rounds * SETTINGS.max_examples} inputs, no traceback")
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
