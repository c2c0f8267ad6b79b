# Desktop integration and the Debian package (issue 9, item 6). Included at the end of the root CMakeLists.txt.
#   cmake --install <build-dir> --prefix /usr        (or DESTDIR=... cmake --install ...)
#   cd <build-dir> && cpack -G DEB                   -> stepforge_<version>_<arch>.deb
# Installed layout (all relative to the prefix; core/bench resource_dir() finds <exe>/../share/stepforge/resources):
#   bin/stepforge, bin/stepforge-cli
#   share/stepforge/resources/{benchmark,manual,configs}
#   share/applications/io.github.stepforge.StepForge.desktop
#   share/metainfo/io.github.stepforge.StepForge.metainfo.xml
#   share/icons/hicolor/scalable/apps/io.github.stepforge.StepForge.svg
# See docs/packaging.md.
include(GNUInstallDirs)

set(STEPFORGE_APP_ID "io.github.stepforge.StepForge")
set(_sf_pkg ${CMAKE_CURRENT_LIST_DIR})

if(STEPFORGE_BUILD_GUI)
  install(FILES ${_sf_pkg}/${STEPFORGE_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_sf_pkg}/${STEPFORGE_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${_sf_pkg}/${STEPFORGE_APP_ID}.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "stepforge")
set(CPACK_PACKAGE_VENDOR "The StepForge developers")
set(CPACK_PACKAGE_CONTACT "The StepForge developers <stepforge@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Workbench where LLM agents learn to write STeP from their own verified work
 StepForge lets LLM agents write operator libraries in STeP (Streaming Tensor
 Programs). A verifier runs every candidate on a functional simulator against a
 reference; adaptive demonstrations and an adoption-aware memory learn from what
 was verified. Includes the Qt workbench (stepforge), the headless command-line
 tool (stepforge-cli), the benchmark tasks and the STeP manual.")
# Runtime libraries come from dpkg-shlibdeps (every ELF file in the package); nothing else is loaded at run time
# except Qt's platform and image plugins, which ship in libqt6gui6 and libqt6svg6 (already in the shlibdeps list).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
if(STEPFORGE_BUILD_GUI)
  # Qt's own catalogues (standard dialogs) for the zh_CN and de user interfaces; optional.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libqscintilla2-qt6-l10n")
endif()
include(CPack)
