#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DAT_FUZZ=ON: ASan + UBSan + fuzzer coverage) in their own build
# folder and runs each for SECONDS, seeded with the real samples (copied into a temporary folder: the
# samples are never written). Exits non-zero when a target crashes, leaks, hits undefined behaviour or
# a timeout; the input that did it is kept in $AT_FUZZ_OUT/<target>/ (default build-fuzz/fuzz-out).
#
#   bash tests/fuzz/run_fuzzers.sh SECONDS [TARGET...]     # targets: json csv sqlite folder raw snapshot truncate session cluster (default all)
#
# Environment: AT_FUZZ_BUILD_DIR (default build-fuzz), AT_FUZZ_OUT, AT_FUZZ_PARALLEL (targets run at once,
# default nproc), AT_SAMPLES_DIR (default ../shared/samples), AT_FUZZ_SKIP_BUILD=1 (use the built targets).
# A crash becomes a regression test by copying its input to tests/data/fuzz/<target>/ (tst_fuzz_regressions).
set -euo pipefail
seconds="${1:?usage: run_fuzzers.sh SECONDS [json|csv|sqlite|folder|raw|snapshot|truncate|session ...]}"
shift
targets=("$@")
((${#targets[@]})) || targets=(json csv sqlite folder raw snapshot truncate session cluster)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${AT_FUZZ_BUILD_DIR:-$here/build-fuzz}"
out="${AT_FUZZ_OUT:-$build/fuzz-out}"
samples="${AT_SAMPLES_DIR:-$here/../shared/samples}"
parallel="${AT_FUZZ_PARALLEL:-$(nproc)}"

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
if [ "${AT_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DAT_FUZZ=ON -DAT_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" -j "$(nproc)" --target fuzzers
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Seed corpora: copies of the real samples (and the hand-written JSON fixtures) in $work/seeds/<target>.
seed() { mkdir -p "$work/seeds/$1"; }
seed json; seed csv; seed sqlite; seed folder; seed snapshot
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$work/seeds/json/$((n++)).json"
done < <(find "$samples" "$here/tests/data/json" "$here/tests/data/fuzz/json" -name '*.json' -size -512k -print0 2>/dev/null)
n=0
while IFS= read -r -d '' f; do
  # fuzzCsv reads its options from the first byte: 0 = comma, header row, no trimming.
  { printf '\0'; cat "$f"; } >"$work/seeds/csv/$((n++)).csv"
done < <(find "$samples" -name '*.csv' -size -64k -print0 2>/dev/null)
# Saved CSV inputs (tests/data/fuzz/csv) already start with their options byte.
for f in "$here"/tests/data/fuzz/csv/*.csv; do
  [ -f "$f" ] && cp "$f" "$work/seeds/csv/saved_$(basename "$f")"
done
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$work/seeds/sqlite/$((n++)).db"
done < <(find "$samples" -name '*.db' -size -1024k -print0 2>/dev/null)
# Folder trees: the listings (first 64 entries, folders ending in "/") of every sample folder up to
# four levels down, plus a few links (fuzzFolder's "name -> target" lines).
n=0
while IFS= read -r -d '' d; do
  (cd "$d" && find . -mindepth 1 \( -type d -printf '%P/\n' \) -o -printf '%P\n' | awk 'NR <= 64') \
    >"$work/seeds/folder/$n.txt"
  n=$((n + 1))
done < <(find "$samples" -mindepth 1 -maxdepth 4 -type d -print0)
printf 'PROF_1/device_0/timeline/msprof_0_1_1.json\nPROF_1/device_0/loop -> ..\n' >"$work/seeds/folder/link1.txt"
printf 'r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\nr_ascend_pt/self -> .\nr_ascend_pt/x -> ../r_ascend_pt/self\n' \
  >"$work/seeds/folder/link2.txt"

# Snapshots (whole file and bare payload) of the small real JSON samples, by the cache's own encoder.
{ find "$here/tests/data/json" -name '*.json' -print0; find "$samples" -name 'msprof*.json' -size -256k -print0; } 2>/dev/null |
  xargs -0 -r "$build/tests/fuzz/make_snapshot_seeds" "$work/seeds/snapshot" >/dev/null || true

declare -A max_len=([json]=65536 [csv]=32768 [sqlite]=1048576 [folder]=4096 [raw]=8192 [snapshot]=262144 [truncate]=32768 [session]=16384 [cluster]=65536)
# Truncation and special-file seeds (FuzzTruncateEntryPoint.h: reader byte, 4-byte cut offset, content).
seed truncate
cp "$here"/tests/data/fuzz/truncate/* "$work/seeds/truncate/" 2>/dev/null || true
# Session files (issue 29): the saved ones (naming themselves, each other, an empty path) and every
# session file of the samples.
seed session
cp "$here"/tests/data/fuzz/session/* "$work/seeds/session/" 2>/dev/null || true
# Cluster rank files (FuzzClusterEntryPoint.h: file byte, content): the samples' communication.json (0),
# communication_matrix.json (1), step_trace_time.csv (2), profiler_metadata.json (3), and the saved bad values.
seed cluster
cp "$here"/tests/data/fuzz/cluster/* "$work/seeds/cluster/" 2>/dev/null || true
n=0
for kind in 0:communication.json 1:communication_matrix.json 2:step_trace_time.csv 3:profiler_metadata.json; do
  while IFS= read -r -d '' f; do
    { printf "\\$(printf '%03o' "${kind%%:*}")"; cat "$f"; } >"$work/seeds/cluster/$((n++)).bin"
  done < <(find "$samples" -name "${kind#*:}" -size -64k -print0 2>/dev/null)
done
# Raw record seeds: synthetic records of every family, written by the target itself.
seed raw
AT_FUZZ_WRITE_SEEDS="$work/seeds/raw" QT_QPA_PLATFORM=offscreen "$build/tests/fuzz/fuzz_raw" >/dev/null 2>&1 || true
# Leaks are checked; abort_on_error gives one clear report per problem.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export QT_QPA_PLATFORM=offscreen
# Targets that load through loadTrace (fuzz_raw) must not read or write the user's snapshot cache.
export AT_NO_SNAPSHOT=1

run_one() {
  local t="$1"
  mkdir -p "$work/corpus/$t" "$out/$t"
  echo "fuzz_$t: $(ls "$work/seeds/$t" | wc -l) seeds, ${seconds}s"
  "$build/tests/fuzz/fuzz_$t" "$work/corpus/$t" "$work/seeds/$t" -max_total_time="$seconds" \
    -max_len="${max_len[$t]}" -timeout=30 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$out/$t/" >"$out/$t.log" 2>&1 && echo 0 >"$work/status.$t" || echo 1 >"$work/status.$t"
}

status=0
for t in "${targets[@]}"; do
  [ -x "$build/tests/fuzz/fuzz_$t" ] || { echo "no target fuzz_$t in $build" >&2; exit 2; }
  rm -rf "${out:?}/$t"
  run_one "$t" &
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
done
wait
for t in "${targets[@]}"; do
  if [ "$(cat "$work/status.$t" 2>/dev/null)" = 0 ]; then
    echo "fuzz_$t: ok ($(grep -E '^stat::number_of_executed_units' "$out/$t.log" | awk '{print $2}') runs)"
  else
    status=1
    echo "fuzz_$t: FAILED, see $out/$t.log; inputs: $(ls "$out/$t" 2>/dev/null | tr '\n' ' ')" >&2
    grep -E 'ERROR|runtime error|invariant failed|SUMMARY' "$out/$t.log" | head -5 >&2 || true
  fi
done
exit "$status"
