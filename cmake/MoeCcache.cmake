# Compiles C++ and CUDA through ccache when it is installed (packaging/install-deps.sh installs
# it), so a fresh clone on a machine that has built the tree before (CI after a session, say)
# recompiles little. The cache is ccache's own (~/.cache/ccache unless CCACHE_DIR says otherwise),
# outside the clone. -DMOE_CCACHE=OFF, or a launcher given on the command line, turns it off.
#
# Every Torch file uses the shared precompiled header; ccache caches such compiles only with the
# pch_defines and time_macros sloppiness, and -fpch-preprocess for GCC. base_dir (the source
# tree) makes paths inside it relative, so that a clone in another folder hits the same entries.
option(MOE_CCACHE "Compile through ccache when it is found" ON)
find_program(MOE_CCACHE_PROGRAM ccache)
if(MOE_CCACHE AND MOE_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(_moe_launcher env
    "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
    "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1
    "${MOE_CCACHE_PROGRAM}")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_moe_launcher})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${_moe_launcher})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fpch-preprocess>)
  endif()
  message(STATUS "ccache: ${MOE_CCACHE_PROGRAM}")
endif()
