#!/usr/bin/env bash
# Sets up a Debian 12 machine for Ascend Timeline, builds it, and then either runs the viewer on
# the bundled sample (`run`) or runs the whole test suite (`test`).
#   bash scripts/bootstrap.sh run     # install, build, open the bundled sample
#   bash scripts/bootstrap.sh test    # install, build with -Werror, run every test (ctest)
set -euo pipefail
mode="${1:-run}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/scripts/lib.sh"
build="${AT_BUILD_DIR:-$here/build}"

packages=(cmake ninja-build g++ lld ccache pkg-config qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n fonts-wqy-microhei
          libqt6sql6-sqlite libsqlite3-dev libgl-dev libsimdjson-dev libzstd-dev zlib1g-dev zstd gzip xvfb xauth
          dpkg-dev file desktop-file-utils appstream libxml2-utils shared-mime-info)
install_packages "${packages[@]}"

use_ccache "$here"
# Tests build with warnings as errors; `run` keeps whatever the build folder has, so it reuses a
# test build instead of recompiling everything.
werror=()
[ "$mode" = "test" ] && werror=(-DAT_WERROR=ON)
# AT_BUILD_BENCH=OFF (what .ci/run sets) leaves out the benchmark programs, which no test runs.
bench=()
[ -n "${AT_BUILD_BENCH:-}" ] && bench=(-DAT_BUILD_BENCH="$AT_BUILD_BENCH")
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${werror[@]}" "${bench[@]}"
# `run` builds the viewer and what it links, nothing else; `test` builds everything ctest runs.
targets=()
[ "$mode" = "run" ] && targets=(--target ascend-timeline)
cmake --build "$build" -j "$(nproc)" "${targets[@]}"

case "$mode" in
  run)
    shift || true
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "No display found: starting the viewer under xvfb-run (headless)."
      exec xvfb-run -a "$build/app/ascend-timeline" "$@"
    fi
    exec "$build/app/ascend-timeline" "$@"
    ;;
  test)
    echo "bootstrap: built in $SECONDS s"
    cd "$build"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
