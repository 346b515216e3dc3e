"""opkg: a declarative build system and registry for Ascend C custom operator packages.

Data flows one way: CLI labels -> workspace -> manifests -> package graph -> build plan (pure
data) -> SCons (a subprocess) -> bundles + verification reports -> registry. docs/ARCHITECTURE.md
maps each stage to its module.
"""

__version__ = "0.1.0"
