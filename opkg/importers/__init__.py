"""Packages from other sources: `opkg new` from templates, `opkg import` of msopgen and cann-ops
projects, over one OpDef reader (opdef) shared with the build's OpDef check."""
