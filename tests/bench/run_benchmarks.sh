#!/usr/bin/env bash
# Builds the benchmarks, generates the tiled inputs (cached in $AT_BENCH_DIR, default
# /tmp/ascend-timeline-bench) and prints every figure with its ratio to the in-run baseline.
#   bash tests/bench/run_benchmarks.sh [SIZE...]      e.g. 100M 1G
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${AT_BUILD_DIR:-$root/build}"
data="${AT_BENCH_DIR:-/tmp/ascend-timeline-bench}"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100M)
mkdir -p "$data"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target bench_load bench_load_db bench_csv bench_steps bench_render ascend-timeline >/dev/null
for size in "${sizes[@]}"; do
  input="$data/tiled_$size.json"
  [ -f "$input" ] || python3 "$here/make_tiled_trace.py" --size "$size" "$input"
  echo "== $size =="
  "$build/tests/bench/bench_load" "$input" 5
  echo "-- whole process: ascend-timeline --summary (peak RSS)"
  /usr/bin/time -f "   %e s wall, peak RSS %M KB" "$build/app/ascend-timeline" --summary "$input" >/dev/null
  echo "-- whole process: python3 json.load (peak RSS)"
  /usr/bin/time -f "   %e s wall, peak RSS %M KB" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$input"
done
echo "== CSV reader (replicated real kernel_details / operator_details rows) =="
"$build/tests/bench/bench_csv" 2>&1 | grep -E "MB/s" || true
echo "== SQLite database vs JSON of the same workload (alexnet level1, 1 and 50 copies) =="
samples="$root/../shared/samples/msinsight_alexnet_1step_levels/test/data/pytorch"
json1="$samples/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
"$build/tests/bench/bench_load_db" "$samples/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" "$json1" 7
db50="$data/ascend_pytorch_profiler_50.db"
json50="$data/tiled_alexnet_50.json"
[ -f "$db50" ] || python3 "$here/make_tiled_db.py" "$db50" --copies 50
[ -f "$json50" ] || python3 "$here/make_tiled_trace.py" --input "$json1" --size $(( $(stat -c %s "$json1") * 50 * 50 / 55 )) "$json50"
"$build/tests/bench/bench_load_db" "$db50" "$json50" 3
echo "== Steps: detection on 200 tiled real steps, comparison, LCS on 20,000-kernel sequences =="
"$build/tests/bench/bench_steps" 200 20000
echo "== Timeline frames at 1920x1080 (level of detail vs every slice), search and range statistics (issue 10) =="
copies=()
for size in "${sizes[@]}"; do
  case "$size" in 100M) copies+=(52) ;; 1G) copies+=(520) ;; 4G) copies+=(2080) ;; esac
done
[ ${#copies[@]} -gt 1 ] || copies=(52 520)
QT_QPA_PLATFORM=offscreen "$build/tests/bench/bench_render" "${copies[@]}"
