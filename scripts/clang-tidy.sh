#!/usr/bin/env bash
# Runs clang-tidy (the repo's .clang-tidy: bugprone, function size, unused) over the project's
# sources (core/, parser/, widgets/, app/; not tests/ or generated files) from a configured
# build's compile_commands.json, one file per core in parallel. Any finding fails the run.
#   bash scripts/clang-tidy.sh [BUILD_DIR]          # every source file (default build/)
#   AT_TIDY_CHANGED=origin/main bash scripts/clang-tidy.sh   # only files changed against a ref
# Run by .ci/run after the build (the build generates the moc/ui headers the sources include).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/scripts/lib.sh"
install_packages clang-tidy
build="$(cd "${1:-${AT_BUILD_DIR:-$here/build}}" && pwd)"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "clang-tidy: $build/compile_commands.json is missing (configure the build first)" >&2
  exit 2
fi

# The translation units the build compiles from the project's own source folders.
mapfile -t files < <(python3 - "$build/compile_commands.json" "$here" <<'PY'
import json, os, sys
db, root = sys.argv[1], os.path.realpath(sys.argv[2])
seen = set()
for entry in json.load(open(db)):
    path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    if rel.split(os.sep)[0] in ("core", "parser", "widgets", "app") and rel not in seen:
        seen.add(rel)
        print(rel)
PY
)
if [ -n "${AT_TIDY_CHANGED:-}" ]; then
  # A changed header re-checks nothing by itself: list the .cpp beside it so its code is seen.
  mapfile -t changed < <(git -C "$here" diff --name-only "$AT_TIDY_CHANGED" -- '*.cpp' '*.h' | sed 's/\.h$/.cpp/' | sort -u)
  mapfile -t files < <(comm -12 <(printf '%s\n' "${files[@]}" | sort) <(printf '%s\n' "${changed[@]}"))
fi
if ((${#files[@]} == 0)); then
  echo "clang-tidy: no files to check"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s)
cd "$here"
printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$(nproc)" clang-tidy --quiet -p "$build" >"$log" 2>/dev/null || true
# Each finding is a "file:line:col: warning|error: ... [check]" line; notes only explain one.
findings=$(grep -cE '^[^ ].*:[0-9]+:[0-9]+: (warning|error): ' "$log" || true)
echo "clang-tidy: ${#files[@]} files in $(($(date +%s) - start)) s, $findings findings"
if ((findings > 0)); then
  cat "$log"
  exit 1
fi
