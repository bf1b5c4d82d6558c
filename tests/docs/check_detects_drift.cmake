# Runs `protocol_key_table --check` on copies of docs/PROTOCOL.md with one row changed, one row
# removed and one row added, and on the copy rewritten by --write; fails unless each stale copy is
# rejected with a message naming the key and the command that regenerates it, and the rewritten
# copy passes.
#   cmake -DTOOL=<protocol_key_table> -DDOC=<docs/PROTOCOL.md> -DWORK_DIR=<scratch> -P this file
file(MAKE_DIRECTORY ${WORK_DIR})
file(READ ${DOC} doc)

function(expect_stale name text key)
  set(copy ${WORK_DIR}/${name}.md)
  file(WRITE ${copy} "${text}")
  execute_process(COMMAND ${TOOL} --check ${copy} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${name}: --check exited ${rc}, expected 1; stderr:\n${err}")
  endif()
  if(NOT err MATCHES "key ${key}:")
    message(FATAL_ERROR "${name}: the message does not name ${key}:\n${err}")
  endif()
  if(NOT err MATCHES "--write ${copy}")
    message(FATAL_ERROR "${name}: the message does not say how to regenerate:\n${err}")
  endif()
  # --write repairs the copy.
  execute_process(COMMAND ${TOOL} --write ${copy} RESULT_VARIABLE rc ERROR_VARIABLE err)
  execute_process(COMMAND ${TOOL} --check ${copy} RESULT_VARIABLE rc2 ERROR_VARIABLE err2)
  if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${name}: --write (${rc}) then --check (${rc2}) failed:\n${err}\n${err2}")
  endif()
endfunction()

string(REGEX MATCH "\\| `moe\\.top_k` \\| integer \\| `[^`]*`" top_k_row "${doc}")
if(top_k_row STREQUAL "")
  message(FATAL_ERROR "${DOC}: no row for moe.top_k")
endif()
string(REPLACE "${top_k_row}" "| `moe.top_k` | integer | `3`" changed "${doc}")
expect_stale(changed "${changed}" "moe\\.top_k")

string(REGEX REPLACE "\\| `train\\.lr` \\|[^\n]*\n" "" removed "${doc}")
expect_stale(removed "${removed}" "train\\.lr")

string(REPLACE "| `seed` |" "| `bogus` | integer | `0` | | | |\n| `seed` |" added "${doc}")
expect_stale(added "${added}" "bogus")

# Without markers the tool refuses (exit 2) rather than guess where the table goes.
file(WRITE ${WORK_DIR}/no_markers.md "# no table here\n")
execute_process(COMMAND ${TOOL} --check ${WORK_DIR}/no_markers.md RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "no markers: --check exited ${rc}, expected 2")
endif()
