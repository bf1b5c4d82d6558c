# cmake -DEXE=<gtest executable> -DSUITES=<a,b,...> -P check_registered_suites.cmake
cmake_minimum_required(VERSION 3.25)  # IN_LIST and the rest of the policies of the tree
# Fails naming every test suite the executable lists that is not among SUITES: a suite that
# moe_add_gtest did not find in any source file would otherwise never run.
string(REPLACE "," ";" SUITES "${SUITES}")
execute_process(COMMAND ${EXE} --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${rc})")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(missing "")
set(count 0)
foreach(line IN LISTS lines)
  # Suite lines start in the first column: "Suite.", "Prefix/Suite." or "Suite/0.  # TypeParam".
  if(NOT line MATCHES "^[A-Za-z0-9_/]+\\.")
    continue()
  endif()
  string(REGEX REPLACE "\\..*" "" suite "${line}")
  string(REGEX REPLACE "/[0-9]+$" "" suite "${suite}")                             # Suite/0
  string(REGEX REPLACE "^[A-Za-z0-9_]+/([A-Za-z0-9_]+)$" "\\1" suite "${suite}")  # Prefix/Suite
  math(EXPR count "${count} + 1")
  if(NOT suite IN_LIST SUITES AND NOT suite IN_LIST missing)
    list(APPEND missing ${suite})
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${EXE} lists no test suite")
endif()
if(missing)
  message(FATAL_ERROR "${EXE}: suites ${missing} are in no source file's ctest entry "
    "(moe_add_gtest finds them by TEST(...) at the start of a line)")
endif()
message(STATUS "${count} suites, all registered")
