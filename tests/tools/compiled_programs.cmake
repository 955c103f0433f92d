# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# iree-rt-run vs iree-run-module on programs compiled at build time, and iree-rt-check on check
# programs. Included from CMakeLists.txt when iree-compile is installed.
set(_progdir ${CMAKE_CURRENT_SOURCE_DIR}/programs)
set(_compiled)
foreach(program add matmul multi_result elementwise scalars_tensors stateful checks_mixed
                checks_pass)
  iree_rt_compile_module(tools_program_${program} SRC ${_progdir}/${program}.mlir)
  list(APPEND _compiled tools_program_${program})
endforeach()
iree_rt_compile_module(tools_program_add_async SRC ${_progdir}/add.mlir
                       FLAGS --iree-execution-model=async-external)
list(APPEND _compiled tools_program_add_async)
# Built with everything so that ctest finds the modules.
add_custom_target(tools_test_programs ALL DEPENDS ${_compiled})
set(_bin ${CMAKE_CURRENT_BINARY_DIR})

set(_add --module=${_bin}/tools_program_add.vmfb --function=add "--input=4xf32=[1 2 3 4]"
         "--input=4xf32=[2 2 2 2]")
iree_rt_compare_run(compiled_add FLAGS --device=local-task ${_add})
iree_rt_compare_run(compiled_add_local_sync FLAGS --device=local-sync ${_add})
iree_rt_compare_run(compiled_add_default_device FLAGS ${_add})
iree_rt_compare_run(compiled_add_expected_match SAME_STDOUT FLAGS ${_add}
                    "--expected_output=4xf32=3 4 5 6")
iree_rt_compare_run(compiled_add_expected_within_tolerance SAME_STDOUT FLAGS ${_add}
                    "--expected_output=4xf32=3 4.0001 5 6.00014")
iree_rt_compare_run(compiled_add_expected_ignored SAME_STDOUT FLAGS ${_add}
                    "--expected_output=(ignored)")
iree_rt_compare_run(compiled_add_expected_mismatch EXPECT_FAIL SAME_STDOUT FLAGS ${_add}
                    "--expected_output=4xf32=3 4 5 7")
iree_rt_compare_run(compiled_add_expected_outside_tolerance EXPECT_FAIL SAME_STDOUT FLAGS
                    ${_add} "--expected_output=4xf32=3 4 5 6.00016")
iree_rt_compare_run(compiled_add_expected_wrong_type EXPECT_FAIL SAME_STDOUT FLAGS ${_add}
                    "--expected_output=4xi32=3 4 5 6")
iree_rt_compare_run(compiled_add_expected_wrong_shape EXPECT_FAIL SAME_STDOUT FLAGS ${_add}
                    "--expected_output=2x2xf32=3 4 5 6")
iree_rt_compare_run(compiled_add_expected_too_many EXPECT_FAIL FLAGS ${_add}
                    "--expected_output=4xf32=3 4 5 6" "--expected_output=4xf32=3 4 5 6")
iree_rt_compare_run(compiled_add_expected_not_a_tensor EXPECT_FAIL FLAGS ${_add}
                    "--expected_output=5")
iree_rt_compare_run(compiled_add_wrong_input_shape EXPECT_FAIL FLAGS
                    --module=${_bin}/tools_program_add.vmfb "--input=3xf32=1 2 3"
                    "--input=4xf32=2")
iree_rt_compare_run(compiled_add_wrong_input_type EXPECT_FAIL FLAGS
                    --module=${_bin}/tools_program_add.vmfb "--input=4xi32=1 2 3 4"
                    "--input=4xf32=2")
iree_rt_compare_run(compiled_add_scalar_for_tensor EXPECT_FAIL FLAGS
                    --module=${_bin}/tools_program_add.vmfb --input=1 "--input=4xf32=2")
iree_rt_compare_run(compiled_add_bad_device EXPECT_FAIL FLAGS --device=no-such-driver ${_add})
iree_rt_compare_run(compiled_add_output_dash FLAGS ${_add} --output=-)

set(_async --module=${_bin}/tools_program_add_async.vmfb "--input=4xf32=[1 2 3 4]"
           "--input=4xf32=[2 2 2 2]")
iree_rt_compare_run(compiled_async_local_task FLAGS --device=local-task ${_async})
iree_rt_compare_run(compiled_async_local_sync FLAGS --device=local-sync ${_async})
iree_rt_compare_run(compiled_async_expected SAME_STDOUT FLAGS ${_async}
                    "--expected_output=4xf32=3 4 5 6")
iree_rt_compare_run(compiled_async_too_many_inputs EXPECT_FAIL FLAGS ${_async}
                    "--input=4xf32=1")

set(_matmul --module=${_bin}/tools_program_matmul.vmfb)
foreach(device local-task local-sync)
  iree_rt_compare_run(compiled_matmul_${device} FLAGS --device=${device} ${_matmul}
                      --function=matmul "--input=2x3xf32=[1 2 3][4 5 6]"
                      "--input=3x2xf32=[1 0][0 1][1 1]")
endforeach()
iree_rt_compare_run(compiled_matmul_npy_input NPY ${_bin}/matmul_inputs.npy FLAGS ${_matmul}
                    --function=matmul --input=@${_bin}/matmul_inputs.npy
                    "--input=3x2xf32=[1 0][0 1][1 1]")
iree_rt_compare_run(compiled_transpose_expected_npy SAME_STDOUT NPY ${_bin}/transpose_expected.npy
                    FLAGS ${_matmul} --function=transpose "--input=3x2xf32=[0 3][1 4][2 5]"
                    --expected_output=@${_bin}/transpose_expected.npy)
iree_rt_compare_run(compiled_transpose_expected_npy_mismatch EXPECT_FAIL SAME_STDOUT NPY
                    ${_bin}/transpose_mismatch.npy FLAGS ${_matmul} --function=transpose
                    "--input=3x2xf32=[0 3][1 4][2 6]"
                    --expected_output=@${_bin}/transpose_mismatch.npy)
iree_rt_compare_run(compiled_matmul_no_function EXPECT_FAIL FLAGS ${_matmul}
                    "--input=2x3xf32=1")

set(_multi --module=${_bin}/tools_program_multi_result.vmfb "--input=3xf32=1 2 3"
           "--input=3xf32=0.5 0.5 4")
iree_rt_compare_run(compiled_multi_result FLAGS ${_multi})
iree_rt_compare_run(compiled_multi_result_outputs FLAGS ${_multi} --output=- --output=
                    --output=-)
iree_rt_compare_run(compiled_multi_result_expected_fewer EXPECT_FAIL SAME_STDOUT FLAGS ${_multi}
                    "--expected_output=3xf32=1.5 2.5 7")
# Two tensor mismatches reported, the ignored scalar skipped (iree-run-module reports that scalar
# as a type mismatch too, so this runs iree-rt-run alone).
add_test(NAME tools.run_expected_two_mismatches_ignored_scalar
         COMMAND iree-rt-run ${_multi} "--expected_output=3xf32=1.5 2.5 8"
                 "--expected_output=3xf32=0 1.5 -1" "--expected_output=(ignored)")
set_tests_properties(tools.run_expected_two_mismatches_ignored_scalar PROPERTIES LABELS "tools"
                     PASS_REGULAR_EXPRESSION "result\\[1\\]: element at index 0 \\(0.5\\)"
                     FAIL_REGULAR_EXPRESSION "result\\[2\\]|SUCCESS")

set(_elementwise --module=${_bin}/tools_program_elementwise.vmfb)
foreach(device local-task local-sync)
  iree_rt_compare_run(compiled_add_i32_${device} FLAGS --device=${device} ${_elementwise}
                      --function=add_i32 "--input=2x2xi32=[1 -2][2147483647 4]"
                      "--input=2x2xi32=[10 20][1 -4]")
  iree_rt_compare_run(compiled_mul_i8_${device} FLAGS --device=${device} ${_elementwise}
                      --function=mul_i8 "--input=4xi8=1 -2 100 -128" "--input=4xi8=3 3 2 1")
  iree_rt_compare_run(compiled_add_f16_${device} FLAGS --device=${device} ${_elementwise}
                      --function=add_f16 "--input=4xf16=1.5 -2 0.25 1000"
                      "--input=4xf16=0.5 0.5 0.125 24")
endforeach()
iree_rt_compare_run(compiled_mul_i8_expected_mismatch EXPECT_FAIL SAME_STDOUT FLAGS
                    ${_elementwise} --function=mul_i8 "--input=4xi8=1 -2 100 -128"
                    "--input=4xi8=3 3 2 1" "--expected_output=4xi8=3 -6 -56 -127")
iree_rt_compare_run(compiled_add_f16_expected_mismatch EXPECT_FAIL SAME_STDOUT FLAGS
                    ${_elementwise} --function=add_f16 "--input=4xf16=1.5 -2 0.25 1000"
                    "--input=4xf16=0.5 0.5 0.125 24" "--expected_output=4xf16=2 -1.5 0.5 1024")
iree_rt_compare_run(compiled_add_f16_expected_match SAME_STDOUT FLAGS
                    ${_elementwise} --function=add_f16 "--input=4xf16=1.5 -2 0.25 1000"
                    "--input=4xf16=0.5 0.5 0.125 24" "--expected_output=4xf16=2 -1.5 0.375 1024")
# A mismatching element is spelled as the result text spells it: i1 as hex digits, a negative f16
# NaN as NAN (docs/facts_corrections.md, "Element type names").
iree_rt_compare_run(compiled_and_i1_expected_mismatch EXPECT_FAIL SAME_STDOUT FLAGS
                    ${_elementwise} --function=and_i1 "--input=4xi1=01 01 00 01"
                    "--input=4xi1=01 00 01 01" "--expected_output=4xi1=01 01 00 01")
iree_rt_compare_run(compiled_add_f16_nan_expected_mismatch EXPECT_FAIL SAME_STDOUT FLAGS
                    ${_elementwise} --function=add_f16 "--input=4xf16=-nan 1 1 1"
                    "--input=4xf16=0" "--expected_output=4xf16=1 1 1 1")
iree_rt_compare_run(compiled_add_i32_wrong_type EXPECT_FAIL FLAGS ${_elementwise}
                    --function=add_i32 "--input=2x2xf32=1" "--input=2x2xi32=1")

set(_scalars --module=${_bin}/tools_program_scalars_tensors.vmfb "--input=4xf32=1 2 3 4"
             --input=2.5 --input=7)
iree_rt_compare_run(compiled_scalars_tensors FLAGS ${_scalars})
iree_rt_compare_run(compiled_scalars_tensors_local_sync FLAGS --device=local-sync ${_scalars})
# Expected scalars compare by value. iree-run-module 3.13.0 reports every expected scalar as a
# type mismatch (an inverted type test), so these run iree-rt-run alone.
add_test(NAME tools.run_expected_scalar_matches
         COMMAND iree-rt-run ${_scalars} "--expected_output=4xf32=2.5 5 7.5 10" --expected_output=8)
set_tests_properties(tools.run_expected_scalar_matches PROPERTIES LABELS "tools"
                     PASS_REGULAR_EXPRESSION "\\[SUCCESS\\]")
add_test(NAME tools.run_expected_scalar_mismatch
         COMMAND iree-rt-run ${_scalars} "--expected_output=4xf32=2.5 5 7.5 10" --expected_output=9)
set_tests_properties(tools.run_expected_scalar_mismatch PROPERTIES LABELS "tools" WILL_FAIL TRUE)
iree_rt_compare_run(compiled_scalars_tensors_tensor_for_scalar EXPECT_FAIL FLAGS
                    --module=${_bin}/tools_program_scalars_tensors.vmfb "--input=4xf32=1"
                    "--input=f32=2.5" --input=7)

set(_stateful --module=${_bin}/tools_program_stateful.vmfb "--input=4xi32=1 2 3 4")
iree_rt_compare_run(compiled_stateful FLAGS ${_stateful})
iree_rt_compare_run(compiled_stateful_local_sync FLAGS --device=local-sync ${_stateful})

# iree-rt-check: exit code and report lines.
set(_check ${_python} ${CMAKE_CURRENT_SOURCE_DIR}/check_tool_test.py $<TARGET_FILE:iree-rt-check>)
function(iree_rt_check_tool_test name)
  add_test(NAME check_tool.${name} COMMAND ${_check} ${ARGN})
  set_tests_properties(check_tool.${name} PROPERTIES LABELS "tools")
endfunction()
if(TARGET iree-rt-check)
  iree_rt_check_tool_test(mixed --rc=1 --lines
      "[==========] Running 3 test cases from module 'module'."
      "[ RUN      ] module.passes_eq" "[       OK ] module.passes_eq"
      "[ RUN      ] module.fails_eq"
      "FAILED_PRECONDITION: Expected near equality*lhs value 4 differs from the rhs value 5*"
      "[  FAILED  ] module.fails_eq"
      "[ RUN      ] module.passes_true" "[       OK ] module.passes_true"
      "[==========] 3 test cases ran." "[  PASSED  ] 2 test cases."
      "[  FAILED  ] 1 test case, listed below:" "[  FAILED  ] module.fails_eq"
      -- --module=${_bin}/tools_program_checks_mixed.vmfb)
  foreach(device local-task local-sync)
    iree_rt_check_tool_test(all_pass_${device} --rc=0 --lines
        "[ RUN      ] module.counter_starts_at_zero" "[       OK ] module.counter_starts_at_zero"
        "[ RUN      ] module.counter_still_zero" "[       OK ] module.counter_still_zero"
        "[ RUN      ] module.matmul_ok" "[       OK ] module.matmul_ok"
        "[  PASSED  ] 3 test cases."
        -- --device=${device} --module=${_bin}/tools_program_checks_pass.vmfb)
  endforeach()
  iree_rt_check_tool_test(no_cases --rc=1 --stderr "*has no test cases*"
                          -- --module=${_bin}/tools_program_add.vmfb)
  iree_rt_check_tool_test(help --rc=0 --lines "usage: iree-rt-check*" -- --help)
  iree_rt_check_tool_test(unknown_flag --rc=1 --stderr "*unknown argument `--bogus=1`*"
                          -- --bogus=1 --module=${_bin}/tools_program_checks_pass.vmfb)
  # --limit: the caps programs run under (README.md "Limits").
  iree_rt_check_tool_test(limit_generous --rc=0 --lines "[  PASSED  ] 3 test cases."
      -- --limit=max_call_depth=64 --limit=max_call_steps=unlimited
         --module=${_bin}/tools_program_checks_pass.vmfb)
  iree_rt_check_tool_test(limit_allocation --rc=1
      --lines "*RESOURCE_EXHAUSTED*exceeds the limit of 8 (IREE_RT_LIMIT_MAX_ALLOCATION_SIZE)*"
      -- --limit=max_allocation_size=8 --module=${_bin}/tools_program_checks_pass.vmfb)
  iree_rt_check_tool_test(limit_unknown --rc=1 --stderr "*unknown limit 'bogus'*"
      -- --limit=bogus=1 --module=${_bin}/tools_program_checks_pass.vmfb)
  iree_rt_check_tool_test(limit_zero --rc=1 --stderr "*max_call_depth must be at least 1*"
      -- --limit=max_call_depth=0 --module=${_bin}/tools_program_checks_pass.vmfb)
  iree_rt_check_tool_test(no_module --rc=1 --stderr "*no --module=*" --)
  iree_rt_check_tool_test(missing_module --rc=1 --stderr "*/nonexistent/m.vmfb*"
                          -- --module=/nonexistent/m.vmfb)
  iree_rt_check_tool_test(corrupt_module --rc=1 --stderr "*check_tool_test.py*"
                          -- --module=${CMAKE_CURRENT_SOURCE_DIR}/check_tool_test.py)
  iree_rt_check_tool_test(bad_device --rc=1 --stderr "*no-such-driver*"
                          -- --device=no-such-driver
                          --module=${_bin}/tools_program_checks_pass.vmfb)
endif()

# --flagfile: the same file read by both tools.
file(WRITE ${_bin}/add_flags.txt "# flags for @add\n--module=${_bin}/tools_program_add.vmfb\n"
     "--function=add\n--input=4xf32=[1 2 3 4]\n--input=4xf32=[2 2 2 2]\n")
iree_rt_compare_run(compiled_add_flagfile FLAGS --flagfile=${_bin}/add_flags.txt)
iree_rt_compare_run(compiled_add_flagfile_expected SAME_STDOUT FLAGS
                    --flagfile=${_bin}/add_flags.txt "--expected_output=4xf32=3 4 5 6")

# A program with external weights (tests/unit/modules/programs/parameters.mlir) over archives the
# formats' own writers make at test time (parameters/gen_archives.py: IREE's ParameterIndex for
# .irpa, the safetensors and gguf packages), ours against iree-run-module where IREE reads them.
iree_rt_compile_module(tools_program_parameters
                       SRC ${PROJECT_SOURCE_DIR}/tests/unit/modules/programs/parameters.mlir)
add_dependencies(tools_test_programs tools_program_parameters)
set(_archives ${_bin}/parameters)
add_test(NAME tools.parameters.archives
         COMMAND ${_python} ${CMAKE_CURRENT_SOURCE_DIR}/parameters/gen_archives.py ${_archives})
set_tests_properties(tools.parameters.archives PROPERTIES LABELS "tools" FIXTURES_SETUP parameter_archives)
set(_params --module=${_bin}/tools_program_parameters.vmfb --parameters=${_archives}/unscoped.irpa)
set(_main --function=main "--input=1x2xf32=1 1")
set(_padded --function=padded --input=4xi32=0)
function(parameters_compare name)
  iree_rt_compare_run(parameters_${name} ${ARGN})
  set_tests_properties(run_compare.parameters_${name} PROPERTIES FIXTURES_REQUIRED parameter_archives)
endfunction()
# Tracing a program with external weights: the loads are host spans (trace_test.py).
add_test(NAME tools.trace_parameters
         COMMAND ${_python} ${CMAKE_CURRENT_SOURCE_DIR}/trace_test.py $<TARGET_FILE:iree-rt-run>
                 --dispatches=1 --host_span=io_parameters.load -- ${_params}
                 --parameters=model=${_archives}/model.irpa --parameter_mode=file ${_main})
set_tests_properties(tools.trace_parameters PROPERTIES LABELS "tools"
                     FIXTURES_REQUIRED parameter_archives)
parameters_compare(irpa_file FLAGS ${_params} --parameters=model=${_archives}/model.irpa
                   --parameter_mode=file ${_main})
parameters_compare(irpa_preload FLAGS ${_params} --parameters=model=${_archives}/model.irpa
                   --parameter_mode=preload ${_padded})
parameters_compare(irpa_two_files_one_scope FLAGS ${_params}
                   --parameters=model=${_archives}/model_w.irpa
                   --parameters=model=${_archives}/model_rest.irpa ${_main})
parameters_compare(safetensors FLAGS ${_params} --parameters=model=${_archives}/model.safetensors
                   ${_main})
parameters_compare(splats FLAGS ${_params} --parameters=model=${_archives}/model.irpa
                   --function=splat64 --input=3xi64=0)
parameters_compare(scope_without_file EXPECT_FAIL FLAGS
                   --module=${_bin}/tools_program_parameters.vmfb
                   --parameters=model=${_archives}/model.irpa ${_main})
# Ours only: IREE has no mmap mode, and its gguf reader refuses I32 tensors (ggml type 26).
function(parameters_output name regex)
  add_test(NAME tools.parameters_${name} COMMAND $<TARGET_FILE:iree-rt-run> ${ARGN})
  set_tests_properties(tools.parameters_${name} PROPERTIES LABELS "tools" PASS_REGULAR_EXPRESSION "${regex}"
                       FIXTURES_REQUIRED parameter_archives)
endfunction()
parameters_output(mmap "1x2xf32=\\[4.5 5.5\\]" ${_params} --parameters=model=${_archives}/model.irpa
                  --parameter_mode=mmap ${_main})
parameters_output(gguf "4xi32=1 2 3 4" ${_params} --parameters=model=${_archives}/model.gguf ${_padded})
parameters_output(missing_scope "no parameters for scope 'model'"
                  --module=${_bin}/tools_program_parameters.vmfb
                  --parameters=${_archives}/unscoped.irpa ${_main})
parameters_output(bad_mode "bad --parameter_mode=disk \\(mmap, preload or file\\)"
                  ${_params} --parameter_mode=disk ${_main})
parameters_output(missing_file "cannot open|No such file|NOT_FOUND.*nothere.irpa"
                  ${_params} --parameters=model=${_archives}/nothere.irpa ${_main})

# Issue 21: programs over archives other tools write, every run of ours (both CPU devices, each
# --parameter_mode) and of iree-run-module giving the same bytes (parameters/program_checks.py):
# gguf files of the gguf package with quantized, BF16 and IQ tensors; the archives iree-compile
# writes with --iree-parameter-export and --iree-parameter-splat; iree-import-onnx
# --externalize-params.
foreach(program gguf_types gguf_ext_types)
  iree_rt_compile_module(tools_program_${program}
                         SRC ${CMAKE_CURRENT_SOURCE_DIR}/parameters/${program}.mlir)
  add_dependencies(tools_test_programs tools_program_${program})
endforeach()
get_filename_component(_venv_bin "${IREE_RT_COMPILER}" DIRECTORY)
set(_checks ${_python} ${CMAKE_CURRENT_SOURCE_DIR}/parameters/program_checks.py
            --ours=$<TARGET_FILE:iree-rt-run> --theirs=${_theirs} --out=${_bin}/program_checks)
add_test(NAME tools.parameters_gguf_types
         COMMAND ${_checks} --module=${_bin}/tools_program_gguf_types.vmfb
                 --ext-module=${_bin}/tools_program_gguf_ext_types.vmfb gguf)
set(_compile --compiler=${IREE_RT_COMPILER})
foreach(flag ${IREE_RT_CPU_TARGET_FLAGS})
  list(APPEND _compile --target-flag=${flag})
endforeach()
add_test(NAME tools.parameters_compiler_export COMMAND ${_checks} ${_compile} export)
add_test(NAME tools.parameters_onnx_import
         COMMAND ${_checks} ${_compile} --importer=${_venv_bin}/iree-import-onnx onnx)
set_tests_properties(tools.parameters_gguf_types tools.parameters_compiler_export
                     tools.parameters_onnx_import
                     PROPERTIES LABELS "tools" SKIP_REGULAR_EXPRESSION "SKIPPED:")

# The trace test (trace_test.py) on work that local-task hands to its workers: each dispatch
# timed on a worker thread, inside its command buffer span, entered by the submit flow.
iree_rt_compile_module(tools_program_trace_matmuls SRC ${_progdir}/trace_matmuls.mlir)
add_dependencies(tools_test_programs tools_program_trace_matmuls)
add_test(NAME tools.trace_workers
         COMMAND ${_python} ${CMAKE_CURRENT_SOURCE_DIR}/trace_test.py $<TARGET_FILE:iree-rt-run>
                 --dispatches=2 -- --device=local-task
                 --module=${_bin}/tools_program_trace_matmuls.vmfb --input=384x384xf32=1
                 --input=384x384xf32=1 --output=- --output_max_element_count=4)
set_tests_properties(tools.trace_workers PROPERTIES LABELS "tools")
