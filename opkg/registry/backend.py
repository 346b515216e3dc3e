"""The registry backend interface, and which backend serves a location.

publish.py, install.py, yank.py and the CLI talk to a registry only through these methods;
store.Store (a directory) and oci.OciStore (an OCI registry) implement them:

    root                               where it is, for messages and --json ("registry")
    exists() / ensure_readable() / ensure_writable() / preflight()
    catalog(names=None)                name -> version key -> store.VersionEntry
    existing_key(name, version)        the key of an equal published version, or None
    read_record(name, key, expected_digest=None)   the version record, digest-checked
    record_location(name, key)         where a version's record lives (for messages)
    put_blob(data=|src=, name=)        store a blob of package `name` -> (digest, size)
    verify_blob(digest, size, name=)   None, or what is wrong with a stored blob
    fetch_blob(name, digest, dest)     copy a blob as stored (the caller hashes the copy)
    blob_location(name, digest)        where a blob lives (for messages)
    commit_record(name, key, record)   the commit point: (created, record digest); exactly
                                       one of several concurrent publishers creates it
    finish_publish(name, key, record=None, digest=None)   what follows a commit (the
                                       directory's index, the OCI bundle tags)
    planned_writes(name, key, group)   what a dry run would write
    read_yank(name, key) / set_yank(name, key, mark|None)
    check(repair=False)                -> check.Report

The registry tests run their matrix against both (tests/registry/conftest.py `backend`).
"""

from __future__ import annotations

from pathlib import Path


def open_registry(where: Path | str):
    """The backend for a registry location: OciStore for oci://, else the directory Store."""
    from opkg.core.settings import is_oci
    from opkg.registry.oci import OciStore
    from opkg.registry.store import Store

    return OciStore(str(where)) if is_oci(str(where)) else Store(Path(where))
