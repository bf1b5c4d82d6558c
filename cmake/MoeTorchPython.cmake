# Where LibTorch comes from: the torch package of a Python environment (PyPI's wheel is a
# CUDA-enabled LibTorch for C++), by default the one packaging/install-deps.sh made.
#
#   -DMOE_TORCH_PYTHON=/path/to/python  a Python whose `torch` to build against (a user's own
#        PyTorch environment on a GPU host, say); default: install-deps' environment,
#        ${XDG_CACHE_HOME:-~/.cache}/moe-studio/torch-<version pinned in
#        packaging/torch-requirements.txt>/bin/python.
#   -DTorch_DIR=<libtorch>/share/cmake/Torch  a LibTorch found without Python (wins over the above).
#
# Sets MOE_PYTHON (that Python; the tests run the real torchrun and tensorboard from its
# environment, MOE_TORCHRUN), MOE_TORCH_SITE_PACKAGES (its site-packages, where the wheel's
# nvidia/ libraries and headers are) when LibTorch came from it, and puts the wheel's CMake files
# on CMAKE_PREFIX_PATH.

set(MOE_TORCH_PYTHON "" CACHE FILEPATH
  "Python whose torch package provides LibTorch (empty: the environment install-deps made)")
file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/torch-requirements.txt _moe_torch_pin
  REGEX "^torch==")
string(REGEX REPLACE "^torch==([^ ]+).*" "\\1" MOE_TORCH_PINNED_VERSION "${_moe_torch_pin}")

set(MOE_PYTHON "${MOE_TORCH_PYTHON}")
if(NOT MOE_PYTHON)
  if(DEFINED ENV{MOE_TORCH_VENV})
    set(MOE_PYTHON "$ENV{MOE_TORCH_VENV}/bin/python")
  elseif(MOE_DEFAULT_TORCH_PYTHON)
    # A re-run of CMake from ninja or another shell keeps what the first configure found.
    set(MOE_PYTHON "${MOE_DEFAULT_TORCH_PYTHON}")
  elseif(DEFINED ENV{XDG_CACHE_HOME})
    set(MOE_PYTHON "$ENV{XDG_CACHE_HOME}/moe-studio/torch-${MOE_TORCH_PINNED_VERSION}/bin/python")
  else()
    set(MOE_PYTHON "$ENV{HOME}/.cache/moe-studio/torch-${MOE_TORCH_PINNED_VERSION}/bin/python")
  endif()
  set(MOE_DEFAULT_TORCH_PYTHON "${MOE_PYTHON}" CACHE INTERNAL
    "install-deps' environment as the configure that made this build tree found it")
endif()
get_filename_component(_moe_bin "${MOE_PYTHON}" DIRECTORY)
set(MOE_TORCHRUN "${_moe_bin}/torchrun")

# moe_python_paths(OUT_TORCH OUT_SITE): torch's package folder ("" without torch) and purelib.
# find_spec, not `import torch`: importing loads the CUDA libraries (seconds); the paths suffice.
function(moe_python_paths out_torch out_site)
  execute_process(
    COMMAND "${MOE_PYTHON}" -c
      "import importlib.util, os, sysconfig; s = importlib.util.find_spec('torch'); print(os.path.dirname(s.origin) if s else ''); print(sysconfig.get_paths()['purelib'])"
    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REPLACE "\n" ";" out "${out}")
  list(LENGTH out n)
  if(NOT rc EQUAL 0 OR NOT n EQUAL 2)
    message(FATAL_ERROR "${MOE_PYTHON} failed to run (${err})")
  endif()
  list(GET out 0 torch_dir)
  list(GET out 1 site)
  set(${out_torch} "${torch_dir}" PARENT_SCOPE)
  set(${out_site} "${site}" PARENT_SCOPE)
endfunction()

set(MOE_PYTHON_TORCH_DIR "")
set(_moe_site "")
if(EXISTS "${MOE_PYTHON}")
  moe_python_paths(MOE_PYTHON_TORCH_DIR _moe_site)
endif()
if(NOT Torch_DIR)
  if(NOT EXISTS "${MOE_PYTHON}")
    message(FATAL_ERROR "LibTorch not found: no Python at ${MOE_PYTHON}. Run "
      "packaging/install-deps.sh (it installs torch ${MOE_TORCH_PINNED_VERSION} there), or point "
      "-DMOE_TORCH_PYTHON= at a Python with torch, or -DTorch_DIR= at a LibTorch")
  endif()
  if(NOT MOE_PYTHON_TORCH_DIR)
    message(FATAL_ERROR "LibTorch not found: ${MOE_PYTHON} has no torch package (pip install "
      "torch, or run packaging/install-deps.sh for the project's environment)")
  endif()
  list(PREPEND CMAKE_PREFIX_PATH "${MOE_PYTHON_TORCH_DIR}/share/cmake")
endif()

# moe_uses_python_torch(OUT): whether the LibTorch in use is MOE_PYTHON's torch: before
# find_package(Torch) when no Torch_DIR was given, after it (and on a re-run, with Torch_DIR
# cached) when Torch_DIR lies inside that package.
function(moe_uses_python_torch out)
  set(at -1)
  if(MOE_PYTHON_TORCH_DIR AND Torch_DIR)
    string(FIND "${Torch_DIR}" "${MOE_PYTHON_TORCH_DIR}/" at)
  endif()
  if(MOE_PYTHON_TORCH_DIR AND (NOT Torch_DIR OR at EQUAL 0))
    set(${out} ON PARENT_SCOPE)
  else()
    set(${out} OFF PARENT_SCOPE)
  endif()
endfunction()

# LibTorch's CMake files put CUDA_NVRTC_LIB (default: the CUDA Toolkit's) on every executable's
# link line, and with it the toolkit's library folder first in their RUNPATH: the wheel's own
# nvrtc keeps the toolkit's runtime out of the process (cmake/MoeTorch.cmake, CUDA::cudart).
moe_uses_python_torch(_moe_python_torch)
if(_moe_python_torch)
  file(GLOB _moe_nvrtc "${_moe_site}/nvidia/*/lib/libnvrtc.so.[0-9]*")
  if(_moe_nvrtc)
    list(GET _moe_nvrtc 0 _moe_nvrtc)
    set(CUDA_NVRTC_LIB "${_moe_nvrtc}" CACHE FILEPATH "nvrtc of the torch wheel" FORCE)
  endif()
endif()

# After find_package(Torch): MOE_TORCH_SITE_PACKAGES is the Python's site-packages when the
# LibTorch found is that Python's torch, else empty.
macro(moe_torch_site_packages)
  set(MOE_TORCH_SITE_PACKAGES "")
  moe_uses_python_torch(_moe_python_torch)
  if(_moe_python_torch)
    set(MOE_TORCH_SITE_PACKAGES "${_moe_site}")
    message(STATUS "LibTorch: the torch package of ${MOE_PYTHON}")
  endif()
endmacro()
