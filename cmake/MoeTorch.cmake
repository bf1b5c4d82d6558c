# Finds LibTorch and sets up one shared precompiled header for every Torch target:
# a Torch translation unit costs ~20 s on these machines, the PCH makes the rest cheap.
find_package(Torch QUIET)
if(Torch_FOUND)
  set(MOE_HAVE_TORCH ON)
  # Debian's TorchConfig appends its flags to CMAKE_CXX_FLAGS; we use the imported target instead.
  add_library(moe_torch_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
  target_link_libraries(moe_torch_pch PUBLIC ${TORCH_LIBRARIES})
  target_precompile_headers(moe_torch_pch PRIVATE <torch/torch.h>)
else()
  set(MOE_HAVE_TORCH OFF)
  message(WARNING "LibTorch not found: only moe_protocol and moe_kernels are built")
endif()

# Gives TARGET the shared Torch PCH (the target must link Torch with the same flags).
function(moe_use_torch_pch target)
  target_precompile_headers(${target} REUSE_FROM moe_torch_pch)
endfunction()
