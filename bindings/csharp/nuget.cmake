# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The NuGet package IreeRt.<PROJECT_VERSION>.nupkg, included by bindings/csharp/CMakeLists.txt.
# There is no NuGet client here (nor needed): nuget/pack.cmake writes the package's zip layout
# itself (lib/net45, runtimes/linux-x64/native, build/IreeRt.targets, IreeRt.nuspec).
#
#   build-dir/nuget-feed/IreeRt.<version>.nupkg   a local feed folder (target iree_rt_nuget)
#
# A project uses it with `<add key="iree_rt" value="<build-dir>/nuget-feed" />` in nuget.config
# and <PackageReference Include="IreeRt" Version="<version>" /> (docs/getting_started.md).
set(IREE_RT_NUGET_FEED "${CMAKE_BINARY_DIR}/nuget-feed" CACHE PATH
    "Local NuGet feed folder that the iree_rt_nuget target writes IreeRt.<version>.nupkg into")
set(IREE_RT_NUPKG ${IREE_RT_NUGET_FEED}/IreeRt.${PROJECT_VERSION}.nupkg)
set(_nuspec ${CMAKE_CURRENT_BINARY_DIR}/nuget/IreeRt.nuspec)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/nuget/IreeRt.nuspec.in ${_nuspec} @ONLY)
set(_pack ${CMAKE_CURRENT_SOURCE_DIR}/nuget/pack.cmake)
add_custom_command(
  OUTPUT ${IREE_RT_NUPKG}
  COMMAND ${CMAKE_COMMAND} -DSTAGE=${CMAKE_CURRENT_BINARY_DIR}/nuget/stage -DOUT=${IREE_RT_NUPKG}
          -DNUSPEC=${_nuspec} -DDLL=${IREE_RT_CSHARP_DLL} -DXML=${IREE_RT_CSHARP_XML}
          -DGLUE=$<TARGET_FILE:iree_rt_csharp> -DRUNTIME=$<TARGET_FILE:iree_rt>
          -DTOOLING=$<TARGET_FILE:iree_rt_tooling_library>
          -DTARGETS=${CMAKE_CURRENT_SOURCE_DIR}/nuget/IreeRt.targets
          -DLICENSE=${PROJECT_SOURCE_DIR}/LICENSE -DOBJCOPY=${IREE_RT_OBJCOPY} -P ${_pack}
  DEPENDS ${IREE_RT_CSHARP_DLL} ${_nuspec} ${_pack} iree_rt iree_rt_csharp
          iree_rt_tooling_library
          ${CMAKE_CURRENT_SOURCE_DIR}/nuget/IreeRt.targets
  COMMENT "IreeRt.${PROJECT_VERSION}.nupkg" VERBATIM)
add_custom_target(iree_rt_nuget ALL DEPENDS ${IREE_RT_NUPKG})

# ---- abi_nuget: restore from the feed folder, build and run a program against the package -------
if(IREE_RT_BUILD_TESTS AND IREE_RT_BINDINGS_MLP_VMFB)
  add_test(NAME abi_nuget
           COMMAND ${CMAKE_COMMAND} -DFEED=${IREE_RT_NUGET_FEED} -DVERSION=${PROJECT_VERSION}
                   -DMCS=${IREE_RT_MCS} -DMONO=${IREE_RT_MONO}
                   -DSAMPLE=${PROJECT_SOURCE_DIR}/samples/csharp/ModelSample.cs
                   -DMODEL=${IREE_RT_BINDINGS_MLP_VMFB}
                   -P ${PROJECT_SOURCE_DIR}/tests/abi/nuget_test.cmake)
  set_tests_properties(abi_nuget PROPERTIES LABELS "abi;bindings" TIMEOUT 180)
endif()
