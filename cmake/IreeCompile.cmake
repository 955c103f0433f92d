# Functions that run the pinned upstream compiler at build time.
#
# iree_rt_compile_executable(<target> SRC <file.mlir> [FLAGS ...])
#   Compiles one hal.executable.source (--compile-mode=hal-executable) for llvm-cpu
#   and produces ${CMAKE_CURRENT_BINARY_DIR}/<target>.so. The custom target <target>
#   builds it; the variable <target>_PATH names the file.
# iree_rt_compile_module(<target> SRC <file.mlir> [FLAGS ...])
#   Compiles a whole program to <target>.vmfb for llvm-cpu.

if(NOT EXISTS "${IREE_RT_COMPILER}")
  message(WARNING "iree-compile not found at ${IREE_RT_COMPILER}: tests that need compiled "
                  "executables are not built (run the README's commands to install it).")
endif()

set(IREE_RT_CPU_TARGET_FLAGS
    --iree-hal-target-device=local
    --iree-hal-local-target-device-backends=llvm-cpu
    --iree-llvmcpu-target-cpu=generic)

function(iree_rt_compile_executable target)
  cmake_parse_arguments(ARG "" "SRC" "FLAGS" ${ARGN})
  get_filename_component(src "${ARG_SRC}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.so")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${IREE_RT_COMPILER}" --compile-mode=hal-executable ${IREE_RT_CPU_TARGET_FLAGS}
            ${ARG_FLAGS} "${src}" -o "${out}"
    DEPENDS "${src}" VERBATIM
    COMMENT "iree-compile (hal-executable) ${target}")
  add_custom_target(${target} DEPENDS "${out}")
  set(${target}_PATH "${out}" PARENT_SCOPE)
endfunction()

function(iree_rt_compile_module target)
  cmake_parse_arguments(ARG "" "SRC" "FLAGS" ${ARGN})
  get_filename_component(src "${ARG_SRC}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.vmfb")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${IREE_RT_COMPILER}" ${IREE_RT_CPU_TARGET_FLAGS} ${ARG_FLAGS} "${src}" -o "${out}"
    DEPENDS "${src}" VERBATIM
    COMMENT "iree-compile ${target}")
  add_custom_target(${target} DEPENDS "${out}")
  set(${target}_PATH "${out}" PARENT_SCOPE)
endfunction()
