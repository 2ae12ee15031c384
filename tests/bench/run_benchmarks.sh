#!/usr/bin/env bash
# Builds the benchmarks, generates the tiled inputs (cached in $AT_BENCH_DIR, default
# /tmp/ascend-timeline-bench) and prints every figure with its ratio to the in-run baseline.
#   bash tests/bench/run_benchmarks.sh [SIZE...]      SIZE: 100M 200M 1G 4G (default: 100M 200M)
# The cluster benchmarks generate AT_CLUSTER_RANKS (default 128) rank folders of AT_CLUSTER_RANK_SIZE
# (default 12M; the issue's figure is 100M, 12.8 GB in all) each.
# Peers run on the same input in the same run: simdjson's On-Demand walk (in bench_load), Python's
# json.load and the Chrome DevTools trace engine (npm @paulirish/trace_engine under node, installed
# into $AT_NPM_DIR, default ~/.cache/ascend-timeline/npm, when missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${AT_BUILD_DIR:-$root/build}"
data="${AT_BENCH_DIR:-/tmp/ascend-timeline-bench}"
npmdir="${AT_NPM_DIR:-$HOME/.cache/ascend-timeline/npm}"
sizes=("$@")
# Every figure below is a cold load except bench_snapshot's reopen (it manages the cache itself).
export AT_NO_SNAPSHOT=1
[ ${#sizes[@]} -gt 0 ] || sizes=(100M 200M)
mkdir -p "$data"
# shellcheck source=../../scripts/lib.sh
source "$root/scripts/lib.sh"
[ -x /usr/bin/time ] || install_packages time
devtools=1
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  install_packages nodejs npm || true
fi
if [ ! -d "$npmdir/node_modules/@paulirish/trace_engine" ]; then
  mkdir -p "$npmdir"
  (cd "$npmdir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund @paulirish/trace_engine >/dev/null 2>&1) ||
    { echo "!! npm install @paulirish/trace_engine failed (registry unreachable?): DevTools comparison skipped"; devtools=0; }
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target bench_load bench_load_db bench_csv bench_steps bench_render bench_snapshot bench_cluster \
  bench_cluster_page bench_cluster_open ascend-timeline >/dev/null

# measure NAME CMD...: runs CMD under /usr/bin/time, sets $wall (s) and $rss (MB), prints one line.
measure() {
  local name="$1" t rc=0
  shift
  t="$(mktemp)"
  /usr/bin/time -f "%e %M" -o "$t" "$@" >"$t.out" 2>&1 || rc=$?
  read -r wall rss_kb < <(tail -n1 "$t")
  rss=$((rss_kb / 1024))
  [ -s "$t.out" ] && sed 's/^/   /' "$t.out" | tail -n 3
  printf "   %-42s %8.2f s wall, peak RSS %6d MB%s\n" "$name" "$wall" "$rss" "$([ $rc -eq 0 ] || echo " (exit $rc)")"
  rm -f "$t" "$t.out"
  return $rc
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1f", b / a; else print "n/a" }'; }

for size in "${sizes[@]}"; do
  input="$data/tiled_$size.json"
  # The generator streams (one copy of the step in memory at a time); write, then rename.
  [ -f "$input" ] || { python3 "$here/make_tiled_trace.py" --size "$size" "$input.tmp" && mv "$input.tmp" "$input"; }
  mb=$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f", b / 1e6 }')
  echo "== $size ($mb MB) =="
  "$build/tests/bench/bench_load" "$input" 5
  echo "-- snapshot cache: cold load vs reopen (same run)"; "$build/tests/bench/bench_snapshot" "$input" 5
  echo "-- whole process, same input (median of 3 for ours; peers once)"
  walls=() rsss=()
  for _ in 1 2 3; do
    measure "ascend-timeline --summary" "$build/app/ascend-timeline" --summary "$input" >/dev/null
    walls+=("$wall") rsss+=("$rss")
  done
  ours=$(printf "%s\n" "${walls[@]}" | sort -g | sed -n 2p)
  ours_rss=$(printf "%s\n" "${rsss[@]}" | sort -g | sed -n 2p)
  printf "   %-42s %8.2f s wall, peak RSS %6d MB (%.2fx the file size)\n" "ascend-timeline --summary, median" \
    "$ours" "$ours_rss" "$(awk -v r="$ours_rss" -v m="$mb" 'BEGIN { print r / m }')"
  if [ $devtools -eq 1 ]; then
    if measure "DevTools trace engine (node)" node --max-old-space-size=20000 "$here/devtools_trace_engine.mjs" \
      "$input" "$npmdir"; then
      echo "   => ascend-timeline is $(ratio "$ours" "$wall")x faster than the DevTools trace engine" \
        "(target >= 20x on 200M), $(ratio "$ours_rss" "$rss")x less peak memory"
    fi
  fi
  if [ "$(stat -c %s "$input")" -le $((1100 * 1000 * 1000)) ]; then
    measure "python3 json.load" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$input" &&
      echo "   => ascend-timeline is $(ratio "$ours" "$wall")x faster than python json.load," \
      "$(ratio "$ours_rss" "$rss")x less peak memory"
  else
    echo "   python3 json.load: not run above 1.1 GB (needs about 5x the file size in RAM)"
  fi
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
echo "== Cluster: the page from 128 ranks' summary files; opening one rank and every rank (issue 18) =="
"$build/tests/bench/bench_cluster" 128
echo "== Cluster: 128 to 1,024 generated ranks, readCluster / analyses / Overview / --cluster --json and the page (issue #32) =="
for r in 128 256 512 1024; do
  "$build/tests/bench/bench_cluster" "$r" "$data/cluster_job_$r" --cli "$build/app/ascend-timeline"
  QT_QPA_PLATFORM=offscreen "$build/tests/bench/bench_cluster_page" "$r" "$data/cluster_job_$r"
done
ranks="${AT_CLUSTER_RANKS:-128}" rank_size="${AT_CLUSTER_RANK_SIZE:-12M}"
cluster="$data/cluster_${ranks}x${rank_size}"
[ -d "$cluster" ] || { python3 "$here/make_tiled_cluster.py" "$cluster.tmp" --ranks "$ranks" --size "$rank_size" &&
  mv "$cluster.tmp" "$cluster"; }
"$build/tests/bench/bench_cluster_open" "$cluster" 7
echo "== Cluster scale (issue 29 item 7, target <= 5 s each): two ranks, --cluster --json =="
for case in "steps 200000" "groups 100000"; do
  set -- $case
  scale="$data/cluster_2x_$1_$2"
  [ -d "$scale" ] || { python3 "$here/make_scale_cluster.py" "$scale.tmp" --"$1" "$2" && mv "$scale.tmp" "$scale"; }
  measure "baseline: cat the summary files" sh -c "find '$scale' -type f -exec cat {} + >/dev/null"
  base="$wall"
  measure "--cluster --json, $2 $1 per rank" sh -c "'$build/app/ascend-timeline' --cluster '$scale' --json >/dev/null"
  echo "   => $(ratio "$base" "$wall")x the baseline"
done
