# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abi_nuget: what a NuGet user gets from IreeRt.<version>.nupkg in the feed folder that target
# iree_rt_nuget writes (bindings/csharp/nuget.cmake). There is no NuGet client here, so this
# does by hand, in a scratch folder outside the source tree, what `nuget restore` and MSBuild do:
#   - "restore": unpack the package from the feed into the global-packages layout
#     (<packages>/ireert/<version>/), and check its parts: IreeRt.nuspec naming id IreeRt and the
#     version, [Content_Types].xml, _rels/.rels, lib/net45/IreeRt.dll and IreeRt.xml, the natives
#     in runtimes/linux-x64/native, build/IreeRt.targets copying them to the output;
#   - "build": compile samples/csharp's ModelSample and a version probe with mcs against
#     lib/net45/IreeRt.dll, into an output folder that receives the reference (copy-local) and
#     what IreeRt.targets copies (runtimes/linux-x64/native/*);
#   - run both with mono from another folder, with no MONO_PATH and no LD_LIBRARY_PATH: the model
#     gives the expected result, the version is the package's, the glue is the output folder's.
# Usage: cmake -DFEED=... -DVERSION=... -DMCS=... -DMONO=... -DSAMPLE=<ModelSample.cs>
#              -DMODEL=<sample_mlp.vmfb> [-DWORK_DIR=...] -P nuget_test.cmake
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/script_support.cmake")
rt_scratch_dir(nuget_test)
file(MAKE_DIRECTORY "${WORK_DIR}/elsewhere")
set(RUN_DIR "${WORK_DIR}/elsewhere")  # commands run from another folder
unset(ENV{MONO_PATH})
unset(ENV{LD_LIBRARY_PATH})

# ---- Restore ------------------------------------------------------------------------------------
set(nupkg "${FEED}/IreeRt.${VERSION}.nupkg")
if(NOT EXISTS "${nupkg}")
  message(FATAL_ERROR "not in the feed: ${nupkg}")
endif()
set(package "${WORK_DIR}/packages/ireert/${VERSION}")
file(MAKE_DIRECTORY "${package}")
run("${CMAKE_COMMAND}" -E chdir "${package}" "${CMAKE_COMMAND}" -E tar xf "${nupkg}")
file(COPY_FILE "${nupkg}" "${package}/ireert.${VERSION}.nupkg")
set(native "runtimes/linux-x64/native")
foreach(part IreeRt.nuspec "[Content_Types].xml" _rels/.rels LICENSE lib/net45/IreeRt.dll
             lib/net45/IreeRt.xml ${native}/libiree_rt_csharp.so ${native}/libiree_rt.so.1
             build/IreeRt.targets)
  if(NOT EXISTS "${package}/${part}")
    message(FATAL_ERROR "${nupkg} has no ${part}")
  endif()
endforeach()
file(READ "${package}/IreeRt.nuspec" nuspec)
if(NOT nuspec MATCHES "<id>IreeRt</id>" OR NOT nuspec MATCHES "<version>([^<]*)</version>")
  message(FATAL_ERROR "IreeRt.nuspec does not name id IreeRt and a version:\n${nuspec}")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "IreeRt.nuspec says version ${CMAKE_MATCH_1}, the package is ${VERSION}")
endif()
file(READ "${package}/_rels/.rels" rels)
if(NOT rels MATCHES "Target=\"/IreeRt.nuspec\"")
  message(FATAL_ERROR "_rels/.rels does not point at /IreeRt.nuspec:\n${rels}")
endif()
file(READ "${package}/lib/net45/IreeRt.xml" docs)
if(NOT docs MATCHES "M:IreeRt.Function.CallAsync")
  message(FATAL_ERROR "lib/net45/IreeRt.xml does not document IreeRt.Function.CallAsync")
endif()
# The targets file is what puts the natives next to a program: it must copy the runtimes folder.
file(READ "${package}/build/IreeRt.targets" targets)
if(NOT targets MATCHES "\\$\\(MSBuildThisFileDirectory\\)\\.\\./${native}/\\*" OR
   NOT targets MATCHES "CopyToOutputDirectory")
  message(FATAL_ERROR "build/IreeRt.targets does not copy ${native}/* to the output:\n${targets}")
endif()

# ---- Build (what MSBuild does with the reference and IreeRt.targets) ---------------------------
set(out "${WORK_DIR}/bin")
file(MAKE_DIRECTORY "${out}")
file(GLOB natives "${package}/${native}/*")
file(COPY "${package}/lib/net45/IreeRt.dll" ${natives} DESTINATION "${out}")
file(WRITE "${WORK_DIR}/Probe.cs" "
public static class Probe {
  public static int Main() {
    System.Console.WriteLine(\"iree_rt \" + IreeRt.Instance.Version);
    System.Console.WriteLine(\"glue: \" + IreeRt.NativeDiagnostics.NativeLibraryPath);
    return 0;
  }
}
")
run("${MCS}" -nologo -target:exe "-out:${out}/Probe.exe"
    "-r:${package}/lib/net45/IreeRt.dll" "${WORK_DIR}/Probe.cs")
run("${MCS}" -nologo -langversion:7.2 -target:exe "-out:${out}/ModelSample.exe"
    "-r:${package}/lib/net45/IreeRt.dll" "${SAMPLE}")

# ---- Run ----------------------------------------------------------------------------------------
run("${MONO}" "${out}/Probe.exe")
if(NOT last_output_all MATCHES "iree_rt ${VERSION} \\(ABI" OR
   NOT last_output_all MATCHES "glue: ${out}/libiree_rt_csharp.so")
  message(FATAL_ERROR "the program built against the package printed:\n${last_output_all}")
endif()
message(STATUS "${last_output_all}")
run("${MONO}" "${out}/ModelSample.exe" "${MODEL}" --device=local-task)
if(NOT last_output_all MATCHES "2x3xf32=\\[3 -4\\.15 -0\\.05\\]\\[0\\.4375 -0\\.15 -0\\.1125\\]")
  message(FATAL_ERROR "the sample built against the package printed:\n${last_output_all}")
endif()
message(STATUS "${last_output_all}")
file(REMOVE_RECURSE "${WORK_DIR}")
