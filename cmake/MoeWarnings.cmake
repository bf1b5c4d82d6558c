# -Wall -Wextra for every target in the tree: add_compile_options in the top directory reaches
# every target any folder adds, so no target can opt out by forgetting. Third-party headers
# (LibTorch, Qt, QCustomPlot, GoogleTest) come in through imported targets, whose include
# directories CMake passes as -isystem: their warnings stay out without dropping a flag.
#
# MOE_WERROR makes every warning an error. It defaults to ON where the environment says CI
# (CI=true, as CI services set it) so CI's build of README's command fails on a new warning, and
# to OFF elsewhere so a newer compiler's new warning never stops a developer's build.
if(DEFINED ENV{CI} AND NOT "$ENV{CI}" MATCHES "^(|0|false|FALSE|no|NO|off|OFF)$")
  set(_moe_werror_default ON)
else()
  set(_moe_werror_default OFF)
endif()
option(MOE_WERROR "Treat compiler warnings as errors (default: ON when CI is set)"
  ${_moe_werror_default})

add_compile_options(-Wall -Wextra $<$<BOOL:${MOE_WERROR}>:-Werror>)
