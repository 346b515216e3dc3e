"""External source repositories (Bazel's local_repository / git_repository): declared in the
workspace file, pinned by commit, checked by a tree digest, recorded in opkg.lock.

`spec` parses the workspace file's `repositories:` section and `@repo//...` labels (pure data);
`fetch` makes a repository present (a local checkout, or a git fetch into the cache) and
digests its tree; `libraries` turns a repository's `libraries:` overlay into the dependency
nodes packages name as `@repo//:library`. docs/repositories.md is the format.
"""
