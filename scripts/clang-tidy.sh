#!/usr/bin/env bash
# Runs clang-tidy (the repository's .clang-tidy: bugprone, function size, unused code) over the
# project's sources (core/, parser/, widgets/, app/; not tests/ or generated files) from a configured
# build's compile_commands.json, $(nproc) files at a time. Any finding fails the run.
#   bash scripts/clang-tidy.sh [BUILD_DIR]                      # every source file (default build/)
#   AT_TIDY_CHANGED=<git ref> bash scripts/clang-tidy.sh        # only the files changed since <ref>
#   AT_TIDY_CHANGED=auto bash scripts/clang-tidy.sh             # what .ci/run uses (below)
# `auto` checks the files changed since the merge base with origin/main (HEAD~1 when HEAD is that
# base, e.g. a merge commit on main: its first parent's diff is the merged branch), and every file
# when the checks (.clang-tidy) changed or no base exists. The whole tree (~190 files, 6-30 s
# each) is an estimated 10-15 minutes on two cores, more than CI's 30-minute budget leaves, so CI
# checks what changed; a whole-tree run (no AT_TIDY_CHANGED) is what makes and keeps the tree clean.
# Results are cached (scripts/tidy_cached.py, ~/.cache/at-clang-tidy): a file is checked again only when
# its sources, any header it includes, its compile command or the tidy setup changed since a clean run.
# The build must have run: sources include the moc/ui headers it generates.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/scripts/lib.sh"
install_packages clang-tidy
build="$(cd "${1:-${AT_BUILD_DIR:-$here/build}}" && pwd)"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "clang-tidy: $build/compile_commands.json is missing (configure and build first)" >&2
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

# The base commit for AT_TIDY_CHANGED=auto, or nothing when every file must be checked.
auto_base() {
  local base
  base=$(git -C "$here" merge-base HEAD origin/main 2>/dev/null) || return 0
  if [ "$base" = "$(git -C "$here" rev-parse HEAD)" ]; then
    base=$(git -C "$here" rev-parse HEAD~1 2>/dev/null) || return 0
  fi
  if git -C "$here" diff --name-only "$base" -- .clang-tidy | grep -q .; then
    return 0
  fi
  echo "$base"
}

scope="every file"
if [ -n "${AT_TIDY_CHANGED:-}" ]; then
  base="$AT_TIDY_CHANGED"
  [ "$base" = auto ] && base="$(auto_base)"
  if [ -n "$base" ]; then
    # A changed header is checked through the .cpp beside it (and the other files including it
    # report its lines when they are checked themselves).
    mapfile -t changed < <(git -C "$here" diff --name-only "$base" -- '*.cpp' '*.h' | sed 's/\.h$/.cpp/' | sort -u)
    mapfile -t files < <(comm -12 <(printf '%s\n' "${files[@]}" | sort) <(printf '%s\n' "${changed[@]}"))
    scope="files changed since ${base:0:12}"
  fi
fi
if ((${#files[@]} == 0)); then
  echo "clang-tidy: no source file changed ($scope)"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s)
cd "$here"
# clang-tidy exits non-zero on a finding (WarningsAsErrors); the log decides. A file whose sources,
# headers, compile command and tidy setup are those of an earlier clean run is not checked again
# (scripts/tidy_cached.py says what the key holds; AT_TIDY_CACHE=off checks every file).
python3 "$here/scripts/tidy_cached.py" "$build" "$here" "$(nproc)" "$log" "${files[@]}"
# A finding is a "file:line:col: warning|error: … [check]" line; notes only explain one. A header's
# finding is reported by every file that includes it: count it once.
mapfile -t findings < <(grep -E '^/.*:[0-9]+:[0-9]+: (warning|error): ' "$log" | sort -u)
echo "clang-tidy: ${#files[@]} files ($scope) in $(($(date +%s) - start)) s, ${#findings[@]} findings"
if ((${#findings[@]} > 0)); then
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' "$log" >&2
  exit 1
fi
