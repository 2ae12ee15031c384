#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (the repo's .clang-format) makes of it.
# Run by .ci/run before the build; `clang-format -i FILE` fixes a file it names.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/scripts/lib.sh"
install_packages clang-format
cd "$here"
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if ! clang-format --dry-run -Werror "${files[@]}"; then
  echo "check-format: the files above are not clang-formatted (run clang-format -i on them)" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
