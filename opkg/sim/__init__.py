"""The `sim` toolchain's engine: Ascend C emulation headers, generated entry points, runtime.

`flags` says how to compile a package's unmodified sources against the headers in `include/`,
`codegen` writes the host/kernel entry translation units, `runtime` loads the two libraries the
build produced and runs one verification case on NumPy arrays. The build pipeline (SCons glue)
and the verifier sit on either side and only use these three modules.
"""
