# Runs one fuzzer for SECONDS over a scratch corpus WORK seeded by the directories in SEEDS
# (read-only). Fails when the fuzzer reports a crash, leak, timeout or out-of-memory.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(
  COMMAND ${FUZZER} ${OPTIONS} -max_total_time=${SECONDS}
          -artifact_prefix=${WORK}/ ${WORK} ${SEEDS}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} exited with ${result}; crash inputs are in ${WORK}")
endif()
