# Every dependency of the parts being built is required: a missing one stops configure with the
# Debian package that provides it (packaging/install-deps.sh installs them all), so a tree can
# never pass its tests with a part silently left out. Parts are left out only on request:
#   -DMOE_BUILD_ENGINE=OFF  a GUI-only tree (no LibTorch: no moe_engine, moe-train or their tests)
#   -DMOE_BUILD_GUI=OFF     an engine-only tree (no Qt: no moe_ui, moe-studio or their tests)
#   -DMOE_DEVICE_CHECKS_ONLY=ON  (default OFF; needs -DMOE_BUILD_GUI=OFF) the build of
#        tests/gpu/run-device-checks.sh on a GPU machine that has none of our Debian packages:
#        the engine, the kernels and tests/gpu only, so of the test dependencies only GoogleTest
#        is required (no GoogleMock, Google Benchmark, data set, Open MPI, Slurm or munge).
#        tests/gpu/fetch-device-deps.sh downloads the few packages that build still needs.

# moe_require(NAME DEBIAN_PACKAGE [find_package arguments...]): find_package or fail naming the
# package.
macro(moe_require name package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${name} not found: install ${package} (packaging/install-deps.sh)")
  endif()
endmacro()

# moe_require_file(WHAT DEBIAN_PACKAGE PATH): PATH must exist (a header, plugin or data set).
function(moe_require_file what package path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR
      "${what} not found (${path}): install ${package} (packaging/install-deps.sh)")
  endif()
endfunction()

option(MOE_DEVICE_CHECKS_ONLY
  "Build only what tests/gpu/run-device-checks.sh needs (engine, kernels, tests/gpu)" OFF)
if(MOE_DEVICE_CHECKS_ONLY AND (MOE_BUILD_GUI OR NOT MOE_BUILD_ENGINE OR NOT MOE_BUILD_TESTS))
  message(FATAL_ERROR "MOE_DEVICE_CHECKS_ONLY=ON builds the engine and the GPU tests, no GUI: "
    "configure with -DMOE_BUILD_GUI=OFF (and MOE_BUILD_ENGINE, MOE_BUILD_TESTS on)")
endif()

moe_require(nlohmann_json nlohmann-json3-dev 3)
find_package(Threads REQUIRED)  # the C library's pthreads

if(MOE_BUILD_ENGINE)
  include(MoeTorchPython)  # puts the torch wheel's CMake files on CMAKE_PREFIX_PATH
  find_package(Torch QUIET)
  if(NOT Torch_FOUND)
    message(FATAL_ERROR "Torch not found (Torch_DIR=${Torch_DIR}): run packaging/install-deps.sh, "
      "or point -DMOE_TORCH_PYTHON= at a Python with torch")
  endif()
  moe_torch_site_packages()
  if(Torch_VERSION VERSION_LESS 2.4)
    message(FATAL_ERROR "LibTorch ${Torch_VERSION} in ${Torch_DIR} is too old: the engine needs "
      "2.4 or newer (packaging/install-deps.sh installs ${MOE_TORCH_PINNED_VERSION})")
  endif()
  moe_require(CLI11 libcli11-dev)
  moe_require(ZLIB zlib1g-dev)
  # c10d's Gloo process group (multi-process runs) compiles against Gloo's headers, which the torch
  # wheel does not carry: Debian's libgloo-dev (some LibTorch archives have them among their own).
  find_path(MOE_GLOO_INCLUDE_DIR gloo/config.h HINTS ${TORCH_INCLUDE_DIRS})
  if(NOT MOE_GLOO_INCLUDE_DIR)
    message(FATAL_ERROR "Gloo headers (gloo/config.h) not found: install libgloo-dev "
      "(packaging/install-deps.sh)")
  endif()
endif()

if(MOE_BUILD_GUI)
  moe_require(Qt6 qt6-base-dev COMPONENTS Widgets Sql PrintSupport Concurrent)
  moe_require(Qt6Svg qt6-svg-dev)
  moe_require(QCustomPlotQt6 libqcustomplot-dev)
  # The run store opens its database through Qt's SQLite driver, a plugin loaded at run time.
  moe_require_file("Qt's SQLite driver" libqt6sql6-sqlite
    "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_PLUGINS}/sqldrivers/libqsqlite.so")
endif()

if(MOE_BUILD_TESTS)
  moe_require(GTest libgtest-dev)
endif()
# The device checks build tests/gpu only: GoogleTest is all they need of the rest.
if(MOE_BUILD_TESTS AND NOT MOE_DEVICE_CHECKS_ONLY)
  find_path(MOE_GMOCK_INCLUDE_DIR gmock/gmock.h)
  if(NOT MOE_GMOCK_INCLUDE_DIR OR NOT TARGET GTest::gmock)
    message(FATAL_ERROR "GoogleMock not found: install libgmock-dev (packaging/install-deps.sh)")
  endif()
  moe_require(benchmark libbenchmark-dev)
  if(MOE_BUILD_GUI)
    moe_require(Qt6Test qt6-base-dev)
  endif()
  if(MOE_BUILD_ENGINE)
    # The IDX reader's test loads the real data set that the default experiment trains on.
    set(MOE_FASHION_MNIST_DIR /usr/share/datasets/fashion-mnist)
    moe_require_file(Fashion-MNIST dataset-fashion-mnist
      "${MOE_FASHION_MNIST_DIR}/train-images-idx3-ubyte.gz")
    # The reference tools the tests run from the torch environment: torchrun starts ranks, the
    # tensorboard package reads our event files back.
    execute_process(COMMAND "${MOE_PYTHON}" -c "import tensorboard, torch.distributed.run"
      RESULT_VARIABLE _moe_rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT _moe_rc EQUAL 0 OR NOT EXISTS "${MOE_TORCHRUN}")
      message(FATAL_ERROR "The tests need torchrun and the tensorboard package beside "
        "${MOE_PYTHON}: run packaging/install-deps.sh (or -DMOE_TORCH_PYTHON= an environment "
        "with packaging/torch-requirements.txt installed)")
    endif()
    # The launcher tests start the ranks with Open MPI's mpirun and Slurm's srun.
    foreach(tool mpirun:openmpi-bin srun:slurm-client slurmctld:slurmctld slurmd:slurmd
                 munged:munge)
      string(REPLACE ":" ";" pair ${tool})
      list(GET pair 0 program)
      list(GET pair 1 package)
      find_program(MOE_${program}_PROGRAM ${program} PATHS /usr/sbin)
      moe_require_file("${program}" ${package} "${MOE_${program}_PROGRAM}")
    endforeach()
  endif()
endif()
