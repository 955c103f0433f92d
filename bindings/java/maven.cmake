# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The Maven artifact dev.ireert:iree-rt:<PROJECT_VERSION>, included by bindings/java/CMakeLists.txt.
#
#   build-dir/bindings/java/javadoc/            API reference (target iree_rt_javadoc)
#   build-dir/maven-repo/dev/ireert/iree-rt/<version>/
#       iree-rt-<version>.jar          = iree_rt.jar: classes + the natives (stripped) under
#                                        dev/ireert/native/<os>-<arch>/, loaded at first use
#       iree-rt-<version>.pom          no dependencies; Java 17
#       iree-rt-<version>-sources.jar  the hand-written and SWIG-generated sources
#       iree-rt-<version>-javadoc.jar
#   each with .sha1 and .md5, and maven-metadata.xml            (target iree_rt_maven)
#
# A project uses it with <repository><url>file://<build-dir>/maven-repo</url></repository>, or
# after copying the tree into ~/.m2/repository (README, docs/getting_started.md). IREE_RT_MAVEN_REPO
# moves the repository (e.g. straight into ~/.m2/repository).
set(IREE_RT_MAVEN_GROUP dev.ireert)
set(IREE_RT_MAVEN_ARTIFACT iree-rt)
set(IREE_RT_MAVEN_PLATFORM linux-x86_64)
set(IREE_RT_MAVEN_REPO "${CMAKE_BINARY_DIR}/maven-repo" CACHE PATH
    "Maven repository (layout) that the iree_rt_maven target writes dev.ireert:iree-rt into")

set(_mvn ${CMAKE_CURRENT_BINARY_DIR}/maven)
set(_pom ${_mvn}/${IREE_RT_MAVEN_ARTIFACT}-${PROJECT_VERSION}.pom)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/maven/iree-rt.pom.in ${_pom} @ONLY)

# ---- Javadoc: the public API of dev.ireert (package-private SWIG classes are left out) ---------
set(IREE_RT_JAVADOC_DIR ${CMAKE_CURRENT_BINARY_DIR}/javadoc)
set(_javadoc_jar ${_mvn}/${IREE_RT_MAVEN_ARTIFACT}-${PROJECT_VERSION}-javadoc.jar)
add_custom_command(
  OUTPUT ${_javadoc_jar}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${IREE_RT_JAVADOC_DIR}
  COMMAND ${Java_JAVADOC_EXECUTABLE} -quiet --release 17 -encoding UTF-8 -charset UTF-8
          -Xdoclint:all,-missing -Werror
          -doctitle "iree_rt ${PROJECT_VERSION} Java API" -windowtitle "iree_rt ${PROJECT_VERSION}"
          -d ${IREE_RT_JAVADOC_DIR} ${_api_sources} ${_gen_sources}
  COMMAND ${Java_JAR_EXECUTABLE} cf ${_javadoc_jar} -C ${IREE_RT_JAVADOC_DIR} .
  DEPENDS ${_api_sources} ${_gen_sources}
  COMMENT "javadoc dev.ireert" VERBATIM)
add_custom_target(iree_rt_javadoc DEPENDS ${_javadoc_jar})

# ---- Sources jar: what the classes were compiled from -----------------------------------------
set(_sources_jar ${_mvn}/${IREE_RT_MAVEN_ARTIFACT}-${PROJECT_VERSION}-sources.jar)
add_custom_command(
  OUTPUT ${_sources_jar}
  COMMAND ${Java_JAR_EXECUTABLE} cf ${_sources_jar} -C ${CMAKE_CURRENT_SOURCE_DIR}/src dev
          -C ${_gen} dev
  DEPENDS ${_api_sources} ${_gen_sources}
  COMMENT "jar iree-rt sources" VERBATIM)

# ---- The repository ----------------------------------------------------------------------------
string(REPLACE "." "/" _group_path ${IREE_RT_MAVEN_GROUP})
set(IREE_RT_MAVEN_JAR
    ${IREE_RT_MAVEN_REPO}/${_group_path}/${IREE_RT_MAVEN_ARTIFACT}/${PROJECT_VERSION}/${IREE_RT_MAVEN_ARTIFACT}-${PROJECT_VERSION}.jar)
add_custom_command(
  OUTPUT ${IREE_RT_MAVEN_JAR}
  COMMAND ${CMAKE_COMMAND} -DREPO=${IREE_RT_MAVEN_REPO} -DGROUP=${IREE_RT_MAVEN_GROUP}
          -DARTIFACT=${IREE_RT_MAVEN_ARTIFACT} -DVERSION=${PROJECT_VERSION} -DJAR=${IREE_RT_JAR}
          -DPOM=${_pom} -DSOURCES_JAR=${_sources_jar} -DJAVADOC_JAR=${_javadoc_jar}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/maven/write_repository.cmake
  DEPENDS ${IREE_RT_JAR} ${_pom} ${_sources_jar} ${_javadoc_jar}
          ${CMAKE_CURRENT_SOURCE_DIR}/maven/write_repository.cmake
  COMMENT "Maven repository: ${IREE_RT_MAVEN_GROUP}:${IREE_RT_MAVEN_ARTIFACT}:${PROJECT_VERSION}"
  VERBATIM)
add_custom_target(iree_rt_maven ALL DEPENDS ${IREE_RT_MAVEN_JAR})

# ---- abi_maven: a Maven project outside the tree against that repository ----------------------
find_program(IREE_RT_MVN NAMES mvn)
if(IREE_RT_BUILD_TESTS AND IREE_RT_BINDINGS_MLP_VMFB)
  add_test(NAME abi_maven
           COMMAND ${CMAKE_COMMAND} -DREPO=${IREE_RT_MAVEN_REPO} -DGROUP=${IREE_RT_MAVEN_GROUP}
                   -DARTIFACT=${IREE_RT_MAVEN_ARTIFACT} -DVERSION=${PROJECT_VERSION}
                   -DPLATFORM=${IREE_RT_MAVEN_PLATFORM} -DMVN=${IREE_RT_MVN}
                   -DJAVAC=${Java_JAVAC_EXECUTABLE} -DJAVA=${Java_JAVA_EXECUTABLE}
                   -DJAR_TOOL=${Java_JAR_EXECUTABLE}
                   -DSAMPLE=${PROJECT_SOURCE_DIR}/samples/java/ModelSample.java
                   -DMODEL=${IREE_RT_BINDINGS_MLP_VMFB} -DLIB_DIR=${_rt_lib_dir}
                   -P ${PROJECT_SOURCE_DIR}/tests/abi/maven_test.cmake)
  set_tests_properties(abi_maven PROPERTIES LABELS "abi;bindings" TIMEOUT 180)
endif()
