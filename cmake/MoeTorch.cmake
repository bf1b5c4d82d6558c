# One shared precompiled header for every Torch target (LibTorch itself is found, and required,
# by MoeDependencies.cmake): a Torch translation unit is slow to compile (docs/BENCHMARKS.md,
# "Figures the code's choices rest on"), the PCH makes the rest cheap. Only targets that include Torch headers should use it: it also costs a
# Torch-free file its load time.
# Debian's TorchConfig appends its flags to CMAKE_CXX_FLAGS; we use the imported target instead.
add_library(moe_torch_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
target_link_libraries(moe_torch_pch PUBLIC ${TORCH_LIBRARIES})
target_precompile_headers(moe_torch_pch PRIVATE <torch/torch.h>)

# Gives TARGET the shared Torch PCH (the target must link Torch with the same flags).
function(moe_use_torch_pch target)
  target_precompile_headers(${target} REUSE_FROM moe_torch_pch)
endfunction()

# --- The engine's device ----------------------------------------------------------------------
# A CUDA LibTorch defines torch_cuda / c10_cuda and lists its CUDA libraries; a CPU one neither.
set(_moe_engine_cuda OFF)
if(TORCH_CUDA_LIBRARIES OR TARGET torch_cuda OR TARGET c10_cuda)
  set(_moe_engine_cuda ON)
endif()
set(MOE_ENGINE_CUDA ${_moe_engine_cuda} CACHE BOOL
  "Detected, not an option: the LibTorch found is a CUDA build (the engine trains on CUDA, NCCL)"
  FORCE)
if(MOE_ENGINE_CUDA)
  message(STATUS "engine: CUDA + NCCL (LibTorch ${Torch_VERSION} is a CUDA build)")
else()
  message(STATUS "engine: CPU-only (the LibTorch in ${Torch_DIR} has no CUDA)")
endif()

# c10d's NCCL process group header includes nccl.h, which a torch wheel keeps in its nvidia-nccl
# package (the NCCL its CUDA libraries load); a CUDA Toolkit install may have one beside cuda.h.
if(MOE_ENGINE_CUDA)
  find_path(MOE_NCCL_INCLUDE_DIR nccl.h
    HINTS "${MOE_TORCH_SITE_PACKAGES}/nvidia/nccl/include" ${CUDAToolkit_INCLUDE_DIRS}
    NO_CACHE)
  if(NOT MOE_NCCL_INCLUDE_DIR)
    message(FATAL_ERROR "nccl.h not found (looked in ${MOE_TORCH_SITE_PACKAGES}/nvidia/nccl/include "
      "and ${CUDAToolkit_INCLUDE_DIRS}): install the torch wheel's nvidia-nccl package or NCCL")
  endif()
  message(STATUS "NCCL headers: ${MOE_NCCL_INCLUDE_DIR}")
endif()

# A torch wheel's CUDA libraries load the CUDA runtime, NCCL, cuBLAS... from its nvidia-* packages
# (their RPATH), but its CMake files hand executables the CUDA Toolkit's libcudart and libnvrtc:
# loaded first, an older toolkit's runtime would serve LibTorch (same soname, fewer symbols), and
# the linker would check libtorch_cuda against the toolkit's older NCCL. So executables link the
# wheel's own cudart (nvrtc: cmake/MoeTorchPython.cmake) and the linker resolves LibTorch's
# dependencies among the wheel's libraries.
if(MOE_ENGINE_CUDA AND MOE_TORCH_SITE_PACKAGES)
  file(GLOB _moe_wheel_lib_dirs LIST_DIRECTORIES true "${MOE_TORCH_SITE_PACKAGES}/nvidia/*/lib")
  file(GLOB _moe_cudart "${MOE_TORCH_SITE_PACKAGES}/nvidia/*/lib/libcudart.so.[0-9]*")
  if(_moe_cudart AND TARGET CUDA::cudart)
    list(GET _moe_cudart 0 _moe_cudart)
    set_target_properties(CUDA::cudart PROPERTIES IMPORTED_LOCATION "${_moe_cudart}")
    message(STATUS "CUDA::cudart: the wheel's ${_moe_cudart}")
  endif()
  if(_moe_wheel_lib_dirs)
    list(JOIN _moe_wheel_lib_dirs ":" _moe_rpath_link)
    add_link_options("LINKER:-rpath-link,${_moe_rpath_link}")
  endif()
endif()
