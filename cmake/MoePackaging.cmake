# Installed data (presets, desktop entry, icon, AppStream metainfo) and the .deb through CPack:
#   cmake --build --preset release --target package   ->  build/release/moe-studio_<ver>_amd64.deb
# The .deb holds the desktop app (component "studio": moe-studio and this data) only. moe-train
# links the torch wheel's LibTorch, which no Debian package provides: it is installed into a
# Python environment with torch (packaging/install-engine.sh; README, "The engine on a machine").
include(GNUInstallDirs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/presets/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/moe-studio/presets COMPONENT studio FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/org.moestudio.MoeStudio.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT studio)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/org.moestudio.MoeStudio.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT studio)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/moe-studio.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT studio)

set(CPACK_GENERATOR DEB)
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};${PROJECT_NAME};studio;/")
set(CPACK_PACKAGE_NAME moe-studio)
set(CPACK_PACKAGE_VENDOR "MoE Studio")
set(CPACK_PACKAGE_CONTACT "MoE Studio developers <dev@moestudio.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Train Mixture-of-Experts models and watch their routing live")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # runtime libraries (Qt, QCustomPlot) from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, openssh-client")
set(CPACK_STRIP_FILES ON)
include(CPack)
