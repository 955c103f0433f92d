# Runs one fuzzer for SECONDS over a scratch corpus WORK seeded by the directories in SEEDS
# (read-only). Fails when the fuzzer reports a crash, leak or timeout. An input that makes the
# runtime allocate past the fuzzer's RSS limit (out-of-memory) is reported but does not fail the
# run: the VM has no allocation caps yet (issue 7's limits), so a module may legitimately ask for
# gigabytes; such inputs are kept in WORK for that work.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(
  COMMAND ${FUZZER} ${OPTIONS} -max_total_time=${SECONDS}
          -artifact_prefix=${WORK}/ ${WORK} ${SEEDS}
  RESULT_VARIABLE result
  ERROR_VARIABLE log)
message("${log}")
if(NOT result EQUAL 0)
  string(FIND "${log}" "ERROR: libFuzzer: out-of-memory" oom)
  if(NOT oom EQUAL -1)
    message(WARNING "${FUZZER}: out-of-memory input (no allocation caps yet) kept in ${WORK}")
  else()
    message(FATAL_ERROR "${FUZZER} exited with ${result}; crash inputs are in ${WORK}")
  endif()
endif()
