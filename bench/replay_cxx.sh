#!/bin/sh
# Stand-in C++ compiler for the large benchmark workspaces: instead of compiling, it copies the
# output a real g++ produced for the same relative path in a prototype build: $OPKG_BENCH_PROTO1 for a
# package with one SoC, $OPKG_BENCH_PROTO2 for one with two (each an out/sim/<package> directory; the
# host library's OpDef names the SoCs). The copies are not valid libraries for another op type,
# so the OpDef check and verification are replayed too (replay_python.sh). Null builds never run
# any of them, so the null-build figures do not depend on this; it only makes populating 200
# packages take minutes instead of an hour.
if [ "$1" = "--version" ]; then echo "bench-replay-cxx 1"; exit 0; fi
out=""; prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  prev="$a"
done
case "$out" in
  */out/sim/.runtime/*)   # the sim runtime objects all packages share (both prototypes have them)
    rel="${out#*/out/sim/.runtime/}"
    exec cp "$OPKG_BENCH_PROTO1/../.runtime/${rel%.tmp-*}" "$out";;
  */out/sim/.pch/*)       # the precompiled headers, one per architecture, shared likewise
    rel="${out#*/out/sim/.pch/}"
    exec cp "$OPKG_BENCH_PROTO1/../.pch/${rel%.tmp-*}" "$out";;
esac
rel="${out#*/out/sim/*/}"
rel="${rel%.tmp-*}"
ws="${out%%/out/sim/*}"
pkg="${out#*/out/sim/}"
pkg="${pkg%%/*}"
proto="$OPKG_BENCH_PROTO1"
grep -q Ascend310P3 "$ws/packages/$pkg/opkg.yaml" && proto="$OPKG_BENCH_PROTO2"
exec cp "$proto/$rel" "$out"
