#!/usr/bin/env bash
# Robustness pass (issue 7, docs/ROBUSTNESS.md), run by .ci/run after `bootstrap.sh test`:
#   1. an AddressSanitizer + UndefinedBehaviorSanitizer build (clang, -DAT_FUZZ=ON, in build-fuzz) of the
#      core and parser libraries, their test suites, the robustness suites and the libFuzzer targets;
#   2. those test suites under the sanitizers (ctest -L none: selected by name, see TESTS below);
#   3. every fuzzer for AT_FUZZ_SECONDS (default 60) seconds, seeded with the real samples.
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

# The suites of the libraries that read untrusted input (no widgets, no app: those are covered by the
# normal build; `-DAT_SANITIZE=ON` builds and runs everything when wanted).
TESTS='^(tst_core_|tst_parser_|tst_csv_|tst_folder_|tst_sqlite_|tst_raw_|tst_config_|tst_folderloading$|tst_fuzz_regressions$|tst_robust_|tst_steps$|tst_step_compare$)'

start=$(date +%s)
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" \
  -DAT_FUZZ=ON -DAT_BUILD_BENCH=OFF >/dev/null
mapfile -t targets < <(cd "$build" && ctest -N -R "$TESTS" | sed -n 's/^ *Test *#[0-9]*: //p')
((${#targets[@]})) || { echo "no sanitizer tests selected" >&2; exit 1; }
cmake --build "$build" -j "$(nproc)" --target fuzzers "${targets[@]}"
built=$(date +%s)

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
(cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" -R "$TESTS")
tested=$(date +%s)

AT_FUZZ_SKIP_BUILD=1 AT_FUZZ_BUILD_DIR="$build" bash "$here/tests/fuzz/run_fuzzers.sh" "$seconds"
fuzzed=$(date +%s)
echo "robustness: sanitizer build $((built - start)) s, sanitizer tests $((tested - built)) s," \
  "fuzzers $((fuzzed - tested)) s (${seconds} s each, $(nproc) at a time)"
