# Installed data (presets, desktop entry, icon, AppStream metainfo) and the .deb through CPack:
#   cmake --build --preset release --target package   ->  build/release/moe-studio_<ver>_amd64.deb
include(GNUInstallDirs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/presets/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/moe-studio/presets FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/org.moestudio.MoeStudio.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/org.moestudio.MoeStudio.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/moe-studio.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME moe-studio)
set(CPACK_PACKAGE_VENDOR "MoE Studio")
set(CPACK_PACKAGE_CONTACT "MoE Studio developers <dev@moestudio.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Train Mixture-of-Experts models and watch their routing live")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # runtime libraries (Torch, Qt, OpenBLAS) from dpkg-shlibdeps
# Without OpenBLAS LibTorch falls back to the reference BLAS, about 40x slower.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-pthread")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, openssh-client")
set(CPACK_STRIP_FILES ON)
include(CPack)
