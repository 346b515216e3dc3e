"""The build: plan -> SCons subprocess -> results read back from files, with the build cache,
output records, the null-build fast path, --explain, distcc and the workspace lock."""
