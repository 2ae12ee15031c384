# Desktop integration files and the Debian package (CPack), included last by the top-level
# CMakeLists.txt. `cpack -G DEB` in a build directory (after the build) writes
# ascend-timeline_<version>_<arch>.deb; packaging/check-deb.sh builds and checks it.
include_guard(GLOBAL)
include(GNUInstallDirs)

set(AT_PACKAGING_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(AT_APP_ID "io.github.ascendtimeline.AscendTimeline")

# --- Desktop integration (freedesktop.org locations under the install prefix) -------------------
install(FILES "${AT_PACKAGING_DIR}/ascend-timeline.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${AT_PACKAGING_DIR}/ascend-timeline.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES "${AT_PACKAGING_DIR}/${AT_APP_ID}.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
# shared-mime-info wants <package>.xml in mime/packages; the trigger of the shared-mime-info
# package (update-mime-database) rebuilds the database when the .deb is installed.
install(FILES "${AT_PACKAGING_DIR}/ascend-timeline-mime.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
        RENAME "ascend-timeline.xml")

# --- CPack: Debian package ------------------------------------------------------------------------
# Only set defaults: a CPACK_* value given on the command line (-D...) wins.
macro(at_cpack_default var)
  if(NOT DEFINED ${var})
    set(${var} ${ARGN})
  endif()
endmacro()

at_cpack_default(CPACK_GENERATOR "DEB")
at_cpack_default(CPACK_PACKAGE_NAME "ascend-timeline")
at_cpack_default(CPACK_PACKAGE_VENDOR "The Ascend Timeline developers")
at_cpack_default(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(AT_PACKAGE_MAINTAINER "Ascend Timeline developers <maintainers@ascend-timeline.invalid>"
    CACHE STRING "Maintainer (Name <email>) written into the Debian package")
at_cpack_default(CPACK_PACKAGE_CONTACT "${AT_PACKAGE_MAINTAINER}")
at_cpack_default(CPACK_PACKAGE_DESCRIPTION_SUMMARY
                 "Timeline viewer for Huawei Ascend NPU profiling data")
# Wrapped below 80 columns: CPackDeb writes each line as a line of the extended description.
at_cpack_default(CPACK_PACKAGE_DESCRIPTION
"Ascend Timeline is a fast native Qt 6 desktop viewer for the profiling data
that msprof and torch_npu write for Huawei Ascend NPUs. It opens profiler
result folders (PROF_*, *_ascend_pt) and Chrome-trace JSON files
(trace_view.json, msprof_*.json, .json.zst, .json.gz) and shows every layer of
every device on one zoomable timeline, with each device kernel joined to its
AI Core metrics. Its command line prints summaries and metric tables for
scripts.")
at_cpack_default(CPACK_PACKAGE_INSTALL_DIRECTORY "ascend-timeline")
at_cpack_default(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
at_cpack_default(CPACK_STRIP_FILES TRUE)

at_cpack_default(CPACK_DEBIAN_PACKAGE_NAME "ascend-timeline")
at_cpack_default(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT") # ascend-timeline_<version>_<arch>.deb
at_cpack_default(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
at_cpack_default(CPACK_DEBIAN_PACKAGE_SECTION "devel")
at_cpack_default(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# dpkg-shlibdeps reads the ELF files of the package and turns their shared libraries into
# Depends on Debian's packages (libqt6core6, libqt6widgets6, libzstd1, ...). CPackDeb writes the
# debian/control stub dpkg-shlibdeps needs inside its own staging dir, so this works in a plain
# build dir; it needs the `file` and `dpkg-shlibdeps` (dpkg-dev) programs.
at_cpack_default(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Not seen by dpkg-shlibdeps: Qt loads its platform plugins (xcb in qt6-qpa-plugins, wayland) at
# run time, and shared-mime-info's trigger registers the MIME type from share/mime/packages.
at_cpack_default(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-qpa-plugins, shared-mime-info")
at_cpack_default(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")

include(CPack)
