#!/usr/bin/env bash
# Robustness pass (issue 7, docs/ROBUSTNESS.md), run by .ci/run after `bootstrap.sh test`:
#   1. an AddressSanitizer + UndefinedBehaviorSanitizer build (clang, -DAT_FUZZ=ON, in build-fuzz) of
#      everything: libraries, the app, every test suite and the libFuzzer targets;
#   2. the whole test suite under the sanitizers (all but the packaging check, which builds a .deb);
#   3. every fuzzer for AT_FUZZ_SECONDS (default 60) seconds, seeded with the real samples. When .ci/run
#      says when it started (AT_CI_START) and the 30-minute budget would be exceeded, the fuzzing time
#      is shortened (never below 15 s) and the script says so.
# Fails on a failing test, a sanitizer report or a fuzzer crash (the input is kept in build-fuzz/fuzz-out).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/scripts/lib.sh"
build="${AT_FUZZ_BUILD_DIR:-$here/build-fuzz}"
seconds="${AT_FUZZ_SECONDS:-60}"

packages=(clang-14 libclang-rt-14-dev)
install_packages "${packages[@]}"
clangxx="$(command -v clang++ || command -v clang++-14)"

use_ccache "$here"

# Every suite but the packaging check (it builds and unpacks a .deb: nothing to sanitize) and the two
# memory-limit suites: a limit is checked against the process's memory, which the sanitizers' shadow memory
# inflates several times, so under ASan they test other stop points than the ones they were written for (and
# took 165 s of the 30-minute budget); they run in the gcc pass of .ci/run.
EXCLUDE='^(tst_packaging.*|tst_cluster_prepare_limit|tst_robust_limits_cli)$'

start=$(date +%s)
# -O1 -g1: about a third less compile time than -O2 -g, and line tables are all the reports need.
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DAT_FUZZ=ON -DAT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)"
built=$(date +%s)

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/tests/lsan.supp:print_suppressions=0}"
(cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" -E "$EXCLUDE")
tested=$(date +%s)

if [ -n "${AT_CI_START:-}" ]; then
  # Targets run $(nproc) at a time: rounds × seconds must fit in what is left of the budget.
  targets_count=$(find "$build/tests/fuzz" -maxdepth 1 -name 'fuzz_*' -type f -perm -u+x | wc -l)
  rounds=$(( (targets_count + $(nproc) - 1) / $(nproc) ))
  left=$(( AT_CI_START + ${AT_CI_BUDGET:-1740} - $(date +%s) - 60 ))
  if (( rounds > 0 && seconds * rounds > left )); then
    seconds=$(( left / rounds ))
    (( seconds >= 15 )) || seconds=15
    echo "robustness: only ${left} s of the CI budget left: each fuzzer runs ${seconds} s instead of ${AT_FUZZ_SECONDS:-60} s"
  fi
fi
AT_FUZZ_SKIP_BUILD=1 AT_FUZZ_BUILD_DIR="$build" bash "$here/tests/fuzz/run_fuzzers.sh" "$seconds"
fuzzed=$(date +%s)
echo "robustness: sanitizer build $((built - start)) s, sanitizer tests $((tested - built)) s," \
  "fuzzers $((fuzzed - tested)) s (${seconds} s each, $(nproc) at a time)"
