#!/usr/bin/env bash
# Builds the Debian package in a configured and built build directory with `cpack -G DEB`,
# unpacks it into a scratch root with `dpkg -x`, checks its metadata and files, and runs the
# installed binary with --version and --summary on the bundled AlexNet sample trace.
#
#   bash packaging/check-deb.sh BUILD_DIR
#
# Writes only into BUILD_DIR/deb-package (the .deb and CPack's staging files) and a temporary
# scratch root, never into the source tree. Exits non-zero with a message on the first failure.
# Needs: cpack (cmake), dpkg-deb and dpkg-shlibdeps (dpkg-dev), file. Also runs, when installed,
# desktop-file-validate (desktop-file-utils), appstreamcli (appstream), xmllint (libxml2-utils)
# and update-mime-database (shared-mime-info); set AT_PACKAGING_STRICT=1 to require them too.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
sample_rel="../shared/samples/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
app_id="io.github.ascendtimeline.AscendTimeline"
strict="${AT_PACKAGING_STRICT:-0}"

checks=0
fail() {
  echo "check-deb: FAIL: $*" >&2
  exit 1
}
ok() {
  checks=$((checks + 1))
  echo "check-deb: ok: $*"
}
note() { echo "check-deb: $*"; }
# Optional validators: skipped with a note when missing, unless AT_PACKAGING_STRICT=1.
have_optional() { # tool debian-package
  if command -v "$1" >/dev/null 2>&1; then
    return 0
  fi
  if [ "$strict" = "1" ]; then
    fail "'$1' not found (apt-get install $2)"
  fi
  note "skipped: '$1' not found (apt-get install $2)"
  return 1
}

[ $# -eq 1 ] || {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}
[ -d "$1" ] || fail "build directory '$1' does not exist"
build="$(cd "$1" && pwd)"
[ -f "$build/CMakeCache.txt" ] || fail "'$build' is not a CMake build directory (no CMakeCache.txt)"
[ -f "$build/CPackConfig.cmake" ] ||
  fail "'$build/CPackConfig.cmake' missing: re-run cmake so that packaging/Packaging.cmake is included"
[ -x "$build/app/ascend-timeline" ] ||
  fail "'$build/app/ascend-timeline' not built yet: run 'cmake --build $build --target ascend-timeline' first"

# --- tools -------------------------------------------------------------------------------------
# Prefer the cpack that belongs to the cmake that configured this build directory.
cmake_cmd="$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")"
cpack_cmd="$(dirname "${cmake_cmd:-/nonexistent/cmake}")/cpack"
[ -x "$cpack_cmd" ] || cpack_cmd="$(command -v cpack || true)"
[ -n "$cpack_cmd" ] || fail "cpack not found (apt-get install cmake)"
for tool_pkg in dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev file:file objdump:binutils readelf:binutils; do
  tool="${tool_pkg%%:*}"
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' not found (apt-get install ${tool_pkg#*:})"
done

version="$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")"
[ -n "$version" ] || fail "no CPACK_PACKAGE_VERSION in $build/CPackConfig.cmake"

# --- build the package -------------------------------------------------------------------------
out="$build/deb-package"
mkdir -p "$out"
rm -f "$out"/*.deb
log="$out/cpack.log"
note "running cpack -G DEB in $build (log: $log)"
if ! (cd "$build" && "$cpack_cmd" -G DEB -B "$out" --config "$build/CPackConfig.cmake") >"$log" 2>&1; then
  cat "$log" >&2
  fail "cpack -G DEB failed (see output above)"
fi
shopt -s nullglob
debs=("$out"/*.deb)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || {
  cat "$log" >&2
  fail "expected exactly one .deb in $out, found ${#debs[@]}"
}
deb="${debs[0]}"
ok "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# --- control fields ----------------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = "ascend-timeline" ] || fail "Package is '$(field Package)', expected ascend-timeline"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
[ "$(field Section)" = "devel" ] || fail "Section is '$(field Section)', expected devel"
[ -n "$(field Maintainer)" ] || fail "no Maintainer field"
[ -n "$(field Description)" ] || fail "no Description field"
depends="$(field Depends)"
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libc6; do
  echo "$depends" | sed 's/[,|]/\n/g' | sed 's/^ *//; s/[ (].*//' | grep -qx "$lib" ||
    fail "Depends lacks $lib (did dpkg-shlibdeps run?): '$depends'"
done
ok "control: ascend-timeline $version, section devel, Depends from dpkg-shlibdeps: $depends"

# --- unpack into a scratch root ------------------------------------------------------------------
root="$(mktemp -d "${TMPDIR:-/tmp}/ascend-timeline-deb.XXXXXX")"
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root" || fail "dpkg -x $deb failed"
ok "unpacked with dpkg -x into $root"

bin="$root/usr/bin/ascend-timeline"
desktop="$root/usr/share/applications/ascend-timeline.desktop"
icon="$root/usr/share/icons/hicolor/scalable/apps/ascend-timeline.svg"
metainfo="$root/usr/share/metainfo/$app_id.metainfo.xml"
mimexml="$root/usr/share/mime/packages/ascend-timeline.xml"
for f in "$bin" "$desktop" "$icon" "$metainfo" "$mimexml"; do
  [ -f "$f" ] || fail "missing from the package: ${f#"$root"}  (package contents: $(dpkg-deb -c "$deb" | awk '{print $6}' | tr '\n' ' '))"
done
[ -x "$bin" ] || fail "/usr/bin/ascend-timeline is not executable"
ok "files present: /usr/bin/ascend-timeline, ${desktop#"$root"}, ${icon#"$root"}, ${metainfo#"$root"}, ${mimexml#"$root"}"

# --- the binary: ELF, no build-tree RUNPATH, all libraries resolved from the system ---------------
file -b "$bin" | grep -q ELF || fail "/usr/bin/ascend-timeline is not an ELF file: $(file -b "$bin")"
if readelf -d "$bin" | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
  fail "installed binary still has a RUNPATH into the build tree: $(readelf -d "$bin" | grep -E 'R(UN)?PATH')"
fi
missing_libs="$(env -u LD_LIBRARY_PATH ldd "$bin" | grep 'not found' || true)"
[ -z "$missing_libs" ] || fail "unresolved shared libraries: $missing_libs"
ok "binary is ELF, no build-tree RUNPATH, all shared libraries resolve"

# --- desktop entry -------------------------------------------------------------------------------
grep -qx 'Exec=ascend-timeline %F' "$desktop" || fail "desktop entry lacks 'Exec=ascend-timeline %F'"
grep -qx 'Icon=ascend-timeline' "$desktop" || fail "desktop entry lacks 'Icon=ascend-timeline'"
grep -qx 'Categories=Development;Profiling;' "$desktop" || fail "desktop entry lacks 'Categories=Development;Profiling;'"
mimetypes="$(sed -n 's/^MimeType=//p' "$desktop")"
for t in application/x-ascend-trace+json application/x-ascend-trace+zstd; do
  [[ ";$mimetypes" == *";$t;"* ]] || fail "desktop entry MimeType lacks $t"
  grep -q "<mime-type type=\"$t\">" "$mimexml" || fail "MIME XML does not define $t"
done
if have_optional desktop-file-validate desktop-file-utils; then
  desktop-file-validate "$desktop" || fail "desktop-file-validate reported errors"
  ok "desktop-file-validate"
fi
ok "desktop entry: Exec, Icon, Categories, MimeType match the MIME XML"

# --- XML files ------------------------------------------------------------------------------------
grep -q '<svg' "$icon" || fail "icon is not an SVG"
if have_optional xmllint libxml2-utils; then
  xmllint --noout "$icon" "$mimexml" "$metainfo" || fail "xmllint: malformed XML"
  ok "xmllint: icon, MIME XML and metainfo are well-formed"
fi

# --- AppStream metainfo ---------------------------------------------------------------------------
grep -q "<id>$app_id</id>" "$metainfo" || fail "metainfo id is not $app_id"
grep -q '<launchable type="desktop-id">ascend-timeline.desktop</launchable>' "$metainfo" ||
  fail "metainfo lacks launchable ascend-timeline.desktop"
newest_release="$(grep -o '<release [^>]*version="[^"]*"' "$metainfo" | head -1 | sed 's/.*version="\([^"]*\)"/\1/')"
[ "$newest_release" = "$version" ] ||
  fail "newest <release> in the metainfo is '$newest_release' but the project version is $version: add a release entry to packaging/$app_id.metainfo.xml"
if have_optional appstreamcli appstream; then
  appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate --no-net reported errors"
  ok "appstreamcli validate --no-net"
fi

# --- MIME globs: build a scratch MIME database from the packaged XML -------------------------------
if have_optional update-mime-database shared-mime-info; then
  mimedb="$root/mime-db"
  mkdir -p "$mimedb/packages"
  cp "$mimexml" "$mimedb/packages/"
  mime_log="$(update-mime-database "$mimedb" 2>&1)" || fail "update-mime-database rejected the MIME XML: $mime_log"
  for glob in 'application/x-ascend-trace+json:trace_view.json' 'application/x-ascend-trace+json:msprof_*.json' \
    'application/x-ascend-trace+zstd:*.json.zst'; do
    # globs2 lines are weight:type:pattern[:flags]
    awk -F: -v t="${glob%%:*}" -v g="${glob#*:}" '$2 == t && $3 == g { found = 1 } END { exit !found }' \
      "$mimedb/globs2" || fail "globs2 lacks ${glob#*:} -> ${glob%%:*}: $(cat "$mimedb/globs2")"
  done
  ok "update-mime-database: trace_view.json, msprof_*.json -> application/x-ascend-trace+json; *.json.zst -> application/x-ascend-trace+zstd"
fi

# --- run the installed binary ------------------------------------------------------------------------
run() { env -u LD_LIBRARY_PATH QT_QPA_PLATFORM=offscreen timeout 300 "$bin" "$@"; }
ver_out="$(run --version 2>&1)" || fail "'ascend-timeline --version' exited $?: $ver_out"
[[ "$ver_out" == *"$version"* ]] || fail "'ascend-timeline --version' printed '$ver_out', expected $version"
ok "installed binary --version: $ver_out"

sample="$(realpath -m "$repo/$sample_rel")"
[ -f "$sample" ] || fail "sample trace not found: $sample (the samples live in ../shared/samples next to the checkout)"
sum_out="$(run --summary "$sample" 2>&1)" || {
  echo "$sum_out" >&2
  fail "'ascend-timeline --summary $sample' failed"
}
[ -n "$sum_out" ] || fail "'ascend-timeline --summary' printed nothing"
echo "$sum_out" | sed -n '1,12s/^/check-deb:   | /p'
ok "installed binary --summary on the sample trace ($(echo "$sum_out" | wc -l) lines)"

echo "check-deb: PASS: $checks checks on $(basename "$deb")"
