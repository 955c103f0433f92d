# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abi_maven: what a Maven user gets from the repository that target iree_rt_maven writes
# (bindings/java/maven.cmake), checked from a scratch folder outside the source tree:
#   - the artifact's jar, pom, sources and javadoc jars are at their Maven paths, each with a
#     matching .sha1 and .md5; the pom names the artifact's coordinates and is a valid Maven
#     model (`mvn -o validate` on it);
#   - the jar carries the natives under dev/ireert/native/<platform>/, the sources jar the
#     sources, the javadoc jar the API reference;
#   - a Maven project (pom with a file:// <repository> and the dependency, samples/java's
#     ModelSample as src/main/java) is built with `mvn -o package` and runs the sample model.
#     Maven here is offline with no plugins cached (maven-compiler-plugin cannot be resolved):
#     when `mvn -o package` fails for that reason only, the project is compiled with javac
#     against the jar taken from the repository at the path the pom's coordinates give, and
#     run with java. Either way no LD_LIBRARY_PATH and no -Diree_rt.library.path: the natives
#     come out of the jar; then again with -Diree_rt.library.path=<LIB_DIR>, which must win.
# Usage: cmake -DREPO=... -DGROUP=... -DARTIFACT=... -DVERSION=... -DPLATFORM=... [-DMVN=...]
#              -DJAVAC=... -DJAVA=... -DJAR_TOOL=... -DSAMPLE=<ModelSample.java>
#              -DMODEL=<sample_mlp.vmfb> [-DLIB_DIR=<build lib>] [-DWORK_DIR=...]
#              -P maven_test.cmake
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/script_support.cmake")
rt_scratch_dir(maven_test)
unset(ENV{LD_LIBRARY_PATH})
unset(ENV{CLASSPATH})
unset(ENV{MAVEN_OPTS})

# expect_in_jar(<jar> <entry>...): every entry is in the jar's listing.
function(expect_in_jar jar)
  run("${JAR_TOOL}" tf "${jar}")
  foreach(entry IN LISTS ARGN)
    string(FIND "${last_output_all}" "${entry}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${jar} has no ${entry}")
    endif()
  endforeach()
endfunction()

# ---- The repository layout ----------------------------------------------------------------------
string(REPLACE "." "/" group_path "${GROUP}")
set(dir "${REPO}/${group_path}/${ARTIFACT}/${VERSION}")
set(base "${dir}/${ARTIFACT}-${VERSION}")
foreach(file "${base}.jar" "${base}.pom" "${base}-sources.jar" "${base}-javadoc.jar"
             "${REPO}/${group_path}/${ARTIFACT}/maven-metadata.xml")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "not in the repository: ${file}")
  endif()
  foreach(algo SHA1 MD5)
    string(TOLOWER ${algo} ext)
    file(${algo} "${file}" expected)
    file(READ "${file}.${ext}" recorded)
    string(STRIP "${recorded}" recorded)
    if(NOT recorded STREQUAL expected)
      message(FATAL_ERROR "${file}.${ext} says ${recorded}, the file's ${algo} is ${expected}")
    endif()
  endforeach()
endforeach()

# The pom's own coordinates (those outside <dependencies>, <parent>: it has neither).
file(READ "${base}.pom" pom)
foreach(field groupId artifactId version packaging)
  if(NOT pom MATCHES "<${field}>([^<]*)</${field}>")
    message(FATAL_ERROR "${base}.pom has no <${field}>")
  endif()
  set(pom_${field} "${CMAKE_MATCH_1}")
endforeach()
if(NOT pom_groupId STREQUAL GROUP OR NOT pom_artifactId STREQUAL ARTIFACT OR
   NOT pom_version STREQUAL VERSION OR NOT pom_packaging STREQUAL "jar")
  message(FATAL_ERROR "the pom says ${pom_groupId}:${pom_artifactId}:${pom_version} "
                      "(${pom_packaging}), the repository path ${GROUP}:${ARTIFACT}:${VERSION}")
endif()
# The jar a Maven client resolves for the dependency: from the pom's coordinates.
string(REPLACE "." "/" pom_group_path "${pom_groupId}")
set(resolved_jar
    "${REPO}/${pom_group_path}/${pom_artifactId}/${pom_version}/${pom_artifactId}-${pom_version}.jar")

expect_in_jar("${resolved_jar}" "dev/ireert/Function.class" "dev/ireert/FenceNotifier.class"
              "dev/ireert/native/${PLATFORM}/libiree_rt.so.1"
              "dev/ireert/native/${PLATFORM}/libiree_rt_jni.so" "META-INF/MANIFEST.MF")
expect_in_jar("${base}-sources.jar" "dev/ireert/Function.java" "dev/ireert/IreeRtJni.java")
expect_in_jar("${base}-javadoc.jar" "index.html" "dev/ireert/Function.html")

# ---- A Maven project outside the tree -----------------------------------------------------------
set(project "${WORK_DIR}/consumer")
file(MAKE_DIRECTORY "${project}/src/main/java")
file(COPY_FILE "${SAMPLE}" "${project}/src/main/java/ModelSample.java")
file(WRITE "${project}/pom.xml"
"<project xmlns=\"http://maven.apache.org/POM/4.0.0\">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>iree-rt-consumer</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <repositories>
    <repository>
      <id>iree-rt-local</id>
      <url>file://${REPO}</url>
    </repository>
  </repositories>
  <dependencies>
    <dependency>
      <groupId>${GROUP}</groupId>
      <artifactId>${ARTIFACT}</artifactId>
      <version>${VERSION}</version>
    </dependency>
  </dependencies>
</project>
")

set(classes "")
set(classpath_jar "${resolved_jar}")
if(MVN)
  set(mvn_flags -o -B "-Dmaven.repo.local=${WORK_DIR}/m2")
  # Both poms are valid Maven models (no plugin needed for the validate phase).
  run("${MVN}" ${mvn_flags} -f "${base}.pom" validate)
  run("${MVN}" ${mvn_flags} -f "${project}/pom.xml" validate)
  execute_process(COMMAND "${MVN}" ${mvn_flags} -f "${project}/pom.xml" package
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(result EQUAL 0)
    set(classes "${project}/target/classes")
    # Maven copied the dependency into its local repository from ours.
    set(classpath_jar "${WORK_DIR}/m2/${pom_group_path}/${pom_artifactId}/${pom_version}/${pom_artifactId}-${pom_version}.jar")
    message(STATUS "mvn -o package built the consumer")
  elseif("${out}${err}" MATCHES "PluginResolutionException|Plugin org\\.apache\\.maven\\.plugins:[^ ]+ or one of its dependencies could not be resolved")
    message(STATUS "Maven cannot build offline here (no plugins cached): compiling the consumer "
                   "with javac against ${resolved_jar}, the jar its pom resolves to")
  else()
    message(FATAL_ERROR "mvn -o package failed for another reason than missing plugins:\n${out}\n${err}")
  endif()
else()
  message(STATUS "no mvn: compiling the consumer with javac against ${resolved_jar}")
endif()
if(NOT classes)
  set(classes "${WORK_DIR}/classes")
  run("${JAVAC}" --release 17 -encoding UTF-8 -cp "${resolved_jar}" -d "${classes}"
      "${project}/src/main/java/ModelSample.java")
endif()

run("${JAVA}" -cp "${classpath_jar}:${classes}" ModelSample "${MODEL}" --device=local-task)
if(NOT last_output_all MATCHES "2x3xf32=\\[3 -4\\.15 -0\\.05\\]\\[0\\.4375 -0\\.15 -0\\.1125\\]")
  message(FATAL_ERROR "the sample did not print the expected result:\n${last_output_all}")
endif()
# The natives came out of the jar (NativeLibrary.loadedFrom, printed by the sample).
string(FIND "${last_output_all}" "native libraries from jar:/dev/ireert/native/${PLATFORM}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the natives were not loaded from the jar:\n${last_output_all}")
endif()
message(STATUS "${last_output_all}")
# -Diree_rt.library.path still wins over the jar's natives.
if(LIB_DIR)
  run("${JAVA}" "-Diree_rt.library.path=${LIB_DIR}" -cp "${classpath_jar}:${classes}" ModelSample
      "${MODEL}" --device=local-sync)
  string(FIND "${last_output_all}" "native libraries from -Diree_rt.library.path=${LIB_DIR}" at)
  if(at EQUAL -1 OR NOT last_output_all MATCHES "2x3xf32=\\[3 -4\\.15 -0\\.05\\]")
    message(FATAL_ERROR "-Diree_rt.library.path=${LIB_DIR} was not used:\n${last_output_all}")
  endif()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
