# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs one fuzzer for SECONDS over a scratch corpus WORK seeded by the directories in SEEDS
# (read-only). Fails when the fuzzer reports a crash or a leak. An input that makes the runtime
# allocate past the fuzzer's RSS limit (out-of-memory) or run past its time limit is reported but
# does not fail the run: the VM has no allocation caps or step budget yet (issue 7's limits), so
# a module may legitimately ask for gigabytes or loop; such inputs are kept in WORK for that work.
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
  string(FIND "${log}" "ERROR: libFuzzer: timeout" slow)
  if(NOT oom EQUAL -1 OR NOT slow EQUAL -1)
    message(WARNING "${FUZZER}: an out-of-memory or timeout input (no caps yet) kept in ${WORK}")
  else()
    message(FATAL_ERROR "${FUZZER} exited with ${result}; crash inputs are in ${WORK}")
  endif()
endif()
