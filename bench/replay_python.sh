#!/bin/sh
# Stand-in for the Python that opkg runs its per-package checks with ($OPKG_PYTHON), for the large
# benchmark workspaces only: the OpDef check and the verifier answer with what the real ones
# answered for a prototype package (see replay_cxx.sh), so populating 200 packages takes minutes.
# Anything else runs on the real interpreter ($OPKG_BENCH_REAL_PYTHON). The OPKG_ names survive the
# verifier's scrubbed environment (opkg/verify/runner.py, verifier_env).
case "$2" in
  opkg.verify.prototype) path="$3" ;;
  opkg.verify.runner) path="$4" ;;
  *) exec "$OPKG_BENCH_REAL_PYTHON" "$@" ;;
esac
case "$path" in /*) ;; *) path="$PWD/$path" ;; esac   # opkg passes paths relative to the workspace
ws="${path%%/out/sim/*}"
pkg="${path#*/out/sim/}"
pkg="${pkg%%/*}"
proto="$OPKG_BENCH_PROTO1"
grep -q Ascend310P3 "$ws/packages/$pkg/opkg.yaml" && proto="$OPKG_BENCH_PROTO2"
if [ "$2" = opkg.verify.prototype ]; then
  # the prototype's OpDef under this package's op type (BenchOp<i>, kernel bench_op<i>)
  num="${pkg#bench_op}"
  exec sed "s/BenchOp000[03]/BenchOp$num/g; s/bench_op000[03]/bench_op$num/g" \
    "$proto/host/declared-opdef.json"
fi
rel="${path#*/out/sim/*/}"
cp "$proto/$rel" "$path" || exit 1
if [ "$2" = opkg.verify.runner ]; then
  # the verify step's second output: the cases' wall times beside the report
  # (opkg/core/report_schema.py, timings_path)
  timings="${path%/*}/timings.json"
  if [ -f "$proto/${rel%/*}/timings.json" ]; then cp "$proto/${rel%/*}/timings.json" "$timings"
  else echo '{}' > "$timings"; fi
fi
