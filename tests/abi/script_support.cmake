# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What the abi_* scripts (cmake -P) share: a scratch folder outside the source tree and a way to
# run a command in it that fails the script, with the command's output, when it fails.

# rt_scratch_dir(<name>): WORK_DIR as given (-DWORK_DIR=...) or a new folder under $TMPDIR (or
# /tmp) named iree_rt_<name>.<random>, emptied. Outside the source tree: the build tree usually
# lives inside it.
macro(rt_scratch_dir name)
  if(NOT WORK_DIR)
    set(_rt_tmp "$ENV{TMPDIR}")
    if(NOT _rt_tmp)
      set(_rt_tmp /tmp)
    endif()
    string(RANDOM LENGTH 8 _rt_suffix)
    set(WORK_DIR "${_rt_tmp}/iree_rt_${name}.${_rt_suffix}")
  endif()
  file(REMOVE_RECURSE "${WORK_DIR}")
  file(MAKE_DIRECTORY "${WORK_DIR}")
endmacro()

# run(<command>...): runs in RUN_DIR (default WORK_DIR); on a non-zero exit the script fails with
# the command and its output. last_output gets its standard output, last_output_all both streams.
function(run)
  set(dir "${RUN_DIR}")
  if(NOT dir)
    set(dir "${WORK_DIR}")
  endif()
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY "${dir}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "command failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
  set(last_output_all "${out}${err}" PARENT_SCOPE)
endfunction()
