"""The local operator registry: immutable, content-addressed, with verification results.

    store.py     the directory layout, atomic writes, the lock, the reader's view
    publish.py   bundles -> blobs + one record per version (refuses unverified bundles)
    install.py   requirement -> selected bundle -> digest check -> safe unpack
    yank.py      yank / unyank
    check.py     recompute every digest; repair the index
    location.py  which directory is the registry (--registry, OPKG_REGISTRY, workspace)

The CLI modules (opkg/cli/{publish,search,info,install,yank,registry}.py) are thin wrappers;
docs/registry.md describes the format.
"""
