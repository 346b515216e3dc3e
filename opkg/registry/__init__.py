"""The operator registry: immutable, content-addressed, with verification results; a directory
or an OCI registry.

    backend.py   the interface both backends implement; which one serves a location
    store.py     the directory layout, atomic writes, the lock, the reader's view
    oci.py       the same versions as OCI artifacts in an OCI registry (oci://HOST/NAMESPACE)
    publish.py   bundles -> blobs + one record per version (refuses unverified bundles)
    install.py   requirement -> selected bundle -> digest check -> safe unpack
    yank.py      yank / unyank
    check.py     recompute every digest; repair the index
    location.py  which registry (--registry, OPKG_REGISTRY, workspace)

The CLI modules (opkg/cli/{publish,search,info,install,yank,registry}.py) are thin wrappers;
docs/registry.md describes the format.
"""
