# One shared precompiled header for every Torch target (LibTorch itself is found, and required,
# by MoeDependencies.cmake): a Torch translation unit costs ~20 s on these machines, the PCH makes
# the rest cheap. Only targets that include Torch headers should use it: it also costs a
# Torch-free file its load time.
# Debian's TorchConfig appends its flags to CMAKE_CXX_FLAGS; we use the imported target instead.
add_library(moe_torch_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
target_link_libraries(moe_torch_pch PUBLIC ${TORCH_LIBRARIES})
target_precompile_headers(moe_torch_pch PRIVATE <torch/torch.h>)

# Gives TARGET the shared Torch PCH (the target must link Torch with the same flags).
function(moe_use_torch_pch target)
  target_precompile_headers(${target} REUSE_FROM moe_torch_pch)
endfunction()
