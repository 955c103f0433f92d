# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Packs IreeRt.<version>.nupkg (a zip in the Open Packaging layout NuGet reads) without a NuGet
# client, which this build does not need:
#   IreeRt.nuspec  [Content_Types].xml  _rels/.rels  LICENSE
#   lib/net45/IreeRt.dll, IreeRt.xml         the assembly and its XML documentation
#   runtimes/linux-x64/native/               libiree_rt_csharp.so, libiree_rt.so.1 and its check
#                                            module companion libiree_rt_tooling.so.1 (stripped)
#   build/IreeRt.targets                     copies the natives next to the program
# Run by bindings/csharp/nuget.cmake.
# Usage: cmake -DSTAGE=... -DOUT=<.nupkg> -DNUSPEC=... -DDLL=... -DXML=... -DGLUE=... -DRUNTIME=...
#              -DTOOLING=... -DTARGETS=... -DLICENSE=... [-DOBJCOPY=...] -P pack.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${STAGE}")
set(native "${STAGE}/runtimes/linux-x64/native")
file(MAKE_DIRECTORY "${STAGE}/lib/net45" "${native}" "${STAGE}/build" "${STAGE}/_rels")
file(COPY_FILE "${NUSPEC}" "${STAGE}/IreeRt.nuspec")
file(COPY_FILE "${DLL}" "${STAGE}/lib/net45/IreeRt.dll")
file(COPY_FILE "${XML}" "${STAGE}/lib/net45/IreeRt.xml")
file(COPY_FILE "${TARGETS}" "${STAGE}/build/IreeRt.targets")
file(COPY_FILE "${LICENSE}" "${STAGE}/LICENSE")
foreach(pair "${GLUE}|libiree_rt_csharp.so" "${RUNTIME}|libiree_rt.so.1" "${TOOLING}|libiree_rt_tooling.so.1")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  if(OBJCOPY)
    execute_process(COMMAND "${OBJCOPY}" --strip-debug "${from}" "${native}/${to}"
                    RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "objcopy --strip-debug ${from} failed")
    endif()
  else()
    file(COPY_FILE "${from}" "${native}/${to}")
  endif()
endforeach()
file(WRITE "${STAGE}/[Content_Types].xml" "<?xml version=\"1.0\" encoding=\"utf-8\"?>
<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">
  <Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\" />
  <Default Extension=\"nuspec\" ContentType=\"application/octet\" />
  <Default Extension=\"dll\" ContentType=\"application/octet\" />
  <Default Extension=\"xml\" ContentType=\"application/octet\" />
  <Default Extension=\"so\" ContentType=\"application/octet\" />
  <Default Extension=\"1\" ContentType=\"application/octet\" />
  <Default Extension=\"targets\" ContentType=\"application/octet\" />
  <Override PartName=\"/LICENSE\" ContentType=\"application/octet\" />
</Types>
")
file(WRITE "${STAGE}/_rels/.rels" "<?xml version=\"1.0\" encoding=\"utf-8\"?>
<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">
  <Relationship Type=\"http://schemas.microsoft.com/packaging/2010/07/manifest\" Target=\"/IreeRt.nuspec\" Id=\"R0\" />
</Relationships>
")
get_filename_component(out_dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${out_dir}")
file(REMOVE "${OUT}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar cf "${OUT}" --format=zip --
                        "IreeRt.nuspec" "[Content_Types].xml" "_rels" "LICENSE" "lib" "runtimes" "build"
                WORKING_DIRECTORY "${STAGE}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "zipping ${OUT} failed")
endif()
