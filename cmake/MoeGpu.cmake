# GPU kernel backends and the engine's device, decided once at configure time.
#
# Options (cache variables; -DNAME=VALUE):
#   MOE_WITH_CUDA  AUTO | ON | OFF (default AUTO). Build the "cuda" kernel backend: nvcc compiles
#                  kernels/gpu/device_backend.cu into the object library moe_kernels_cuda.
#                  AUTO: on when nvcc is found (on PATH, $CUDACXX, CMAKE_CUDA_COMPILER or
#                  /usr/local/cuda/bin); ON: nvcc is required, configure stops naming it if missing.
#   MOE_WITH_HIP   AUTO | ON | OFF (default AUTO). Build the "hip" kernel backend: hipcc compiles
#                  the same device_backend.cu into one object (target moe_kernels_hip, linking
#                  libamdhip64). AUTO: on when hipcc and libamdhip64 are found (Debian: hipcc,
#                  libamdhip64-dev); ON: both are required.
#   MOE_CUDA_ARCHITECTURES  default "80;90": CMake CUDA architectures ("native" on a GPU machine
#                  builds for the GPUs present only).
#   MOE_HIP_ARCHITECTURES   default "gfx90a;gfx1030": one --offload-arch each (Debian's hipcc 5.2
#                  does not know gfx942).
#
# Results for the rest of the tree (normal variables of the top directory):
#   MOE_CUDA_ENABLED, MOE_HIP_ENABLED  ON/OFF: the backends being built.
#   MOE_HIPCC, MOE_AMDHIP64_LIBRARY    where HIP was found.
# (MOE_ENGINE_CUDA, whether the LibTorch found is a CUDA build, is decided in MoeTorch.cmake.)
# Included before LibTorch is looked for: a CUDA LibTorch's CMake files enable CUDA themselves,
# and the host compiler must be set before that.
#
# The backends register themselves only where a device is present, so a binary built with them
# still runs on a machine without a GPU; nothing is lost by building them wherever the compilers
# are installed, except build time: one object each in the default build (about 12 s of one core
# for CUDA's two architectures, 7 s for HIP's), the GPU test programs only on request.

set(MOE_WITH_CUDA AUTO CACHE STRING "Build the CUDA kernel backend: AUTO (when nvcc is found), ON, OFF")
set_property(CACHE MOE_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)
set(MOE_WITH_HIP AUTO CACHE STRING "Build the HIP kernel backend: AUTO (when hipcc is found), ON, OFF")
set_property(CACHE MOE_WITH_HIP PROPERTY STRINGS AUTO ON OFF)
set(MOE_CUDA_ARCHITECTURES "80;90" CACHE STRING "CUDA architectures of the CUDA backend")
set(MOE_HIP_ARCHITECTURES "gfx90a;gfx1030" CACHE STRING "--offload-arch values of the HIP backend")

# moe_gpu_choice(OPTION OUT): OUT = AUTO, ON or OFF from OPTION's value (any CMake boolean
# spelling for ON and OFF); anything else stops configure.
function(moe_gpu_choice option out)
  string(TOUPPER "${${option}}" value)
  if(value STREQUAL "AUTO")
    set(${out} AUTO PARENT_SCOPE)
  elseif(value MATCHES "^(ON|YES|TRUE|Y|1)$")
    set(${out} ON PARENT_SCOPE)
  elseif(value MATCHES "^(OFF|NO|FALSE|N|0)$")
    set(${out} OFF PARENT_SCOPE)
  else()
    message(FATAL_ERROR "${option}=${${option}}: expected AUTO, ON or OFF")
  endif()
endfunction()

# --- CUDA -----------------------------------------------------------------------------------
moe_gpu_choice(MOE_WITH_CUDA _moe_cuda_choice)
set(MOE_CUDA_ENABLED OFF)
if(NOT _moe_cuda_choice STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER)
    if(DEFINED ENV{CUDACXX})
      set(_moe_nvcc "$ENV{CUDACXX}")
    else()
      find_program(MOE_NVCC nvcc HINTS /usr/local/cuda/bin)
      set(_moe_nvcc "${MOE_NVCC}")
    endif()
    if(_moe_nvcc AND EXISTS "${_moe_nvcc}")
      set(CMAKE_CUDA_COMPILER "${_moe_nvcc}" CACHE FILEPATH "CUDA compiler")
    endif()
  endif()
  if(CMAKE_CUDA_COMPILER)
    # nvcc compiles the host side with the compiler of the C++ code (g++ 12 on Debian 12), so
    # the backend's object is ABI-compatible with everything it is linked with.
    if(NOT CMAKE_CUDA_HOST_COMPILER)
      set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH "nvcc's host compiler")
    endif()
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "${MOE_CUDA_ARCHITECTURES}")
    endif()
    # A CUDA LibTorch's CMake files add -gencode flags for TORCH_CUDA_ARCH_LIST (eleven
    # architectures by default) to every CUDA compile: the same architectures as ours.
    if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND MOE_CUDA_ARCHITECTURES MATCHES "^[0-9;]+$")
      string(REGEX REPLACE "([0-9])([0-9]*)" "\\1.\\2" TORCH_CUDA_ARCH_LIST "${MOE_CUDA_ARCHITECTURES}")
    endif()
    # Stops configure, with CMake's own message, when nvcc cannot build with this host compiler.
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(MOE_CUDA_ENABLED ON)
    set(_moe_host "${CMAKE_CUDA_HOST_COMPILER}")
    if(CMAKE_CUDA_HOST_COMPILER STREQUAL CMAKE_CXX_COMPILER)
      string(APPEND _moe_host " (${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")
    endif()
    message(STATUS "CUDA kernels: nvcc ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}), "
      "host compiler ${_moe_host}, architectures ${MOE_CUDA_ARCHITECTURES}")
  elseif(_moe_cuda_choice STREQUAL "ON")
    message(FATAL_ERROR "MOE_WITH_CUDA=ON but nvcc was not found (searched PATH, $CUDACXX and "
      "/usr/local/cuda/bin): install the CUDA Toolkit or set CMAKE_CUDA_COMPILER")
  else()
    message(STATUS "CUDA kernels: off (nvcc not found)")
  endif()
else()
  message(STATUS "CUDA kernels: off (MOE_WITH_CUDA=OFF)")
endif()

# --- HIP ------------------------------------------------------------------------------------
moe_gpu_choice(MOE_WITH_HIP _moe_hip_choice)
set(MOE_HIP_ENABLED OFF)
if(NOT _moe_hip_choice STREQUAL "OFF")
  find_program(MOE_HIPCC hipcc HINTS /opt/rocm/bin)
  find_library(MOE_AMDHIP64_LIBRARY amdhip64 HINTS /opt/rocm/lib)
  set(_moe_hip_missing "")
  if(NOT MOE_HIPCC)
    list(APPEND _moe_hip_missing "hipcc (Debian package hipcc)")
  endif()
  if(NOT MOE_AMDHIP64_LIBRARY)
    list(APPEND _moe_hip_missing "libamdhip64 (Debian package libamdhip64-dev)")
  endif()
  if(NOT _moe_hip_missing)
    set(MOE_HIP_ENABLED ON)
    message(STATUS "HIP kernels: ${MOE_HIPCC}, architectures ${MOE_HIP_ARCHITECTURES}")
  elseif(_moe_hip_choice STREQUAL "ON")
    list(JOIN _moe_hip_missing " and " _moe_hip_missing)
    message(FATAL_ERROR "MOE_WITH_HIP=ON but ${_moe_hip_missing} not found "
      "(packaging/install-deps.sh installs them)")
  else()
    list(JOIN _moe_hip_missing " and " _moe_hip_missing)
    message(STATUS "HIP kernels: off (${_moe_hip_missing} not found)")
  endif()
else()
  message(STATUS "HIP kernels: off (MOE_WITH_HIP=OFF)")
endif()
