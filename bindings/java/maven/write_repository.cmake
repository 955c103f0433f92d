# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes one artifact (jar, pom, sources and javadoc jars) into a Maven repository layout,
# <REPO>/<group as path>/<ARTIFACT>/<VERSION>/<ARTIFACT>-<VERSION>[-classifier].<ext>, each file
# with its .sha1 and .md5 (what Maven checks when it reads a remote repository), plus the
# artifact's maven-metadata.xml. Run by bindings/java/maven.cmake.
# Usage: cmake -DREPO=... -DGROUP=... -DARTIFACT=... -DVERSION=... -DJAR=... -DPOM=...
#              -DSOURCES_JAR=... -DJAVADOC_JAR=... -P write_repository.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "." "/" group_path "${GROUP}")
set(artifact_dir "${REPO}/${group_path}/${ARTIFACT}")
set(dir "${artifact_dir}/${VERSION}")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
set(base "${dir}/${ARTIFACT}-${VERSION}")

function(put source target)
  file(COPY_FILE "${source}" "${target}")
  foreach(algo SHA1 MD5)
    file(${algo} "${target}" sum)
    string(TOLOWER "${algo}" ext)
    file(WRITE "${target}.${ext}" "${sum}")
  endforeach()
endfunction()

put("${JAR}" "${base}.jar")
put("${POM}" "${base}.pom")
put("${SOURCES_JAR}" "${base}-sources.jar")
put("${JAVADOC_JAR}" "${base}-javadoc.jar")

string(TIMESTAMP now "%Y%m%d%H%M%S" UTC)
file(WRITE "${artifact_dir}/maven-metadata.xml.tmp"
"<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<metadata>
  <groupId>${GROUP}</groupId>
  <artifactId>${ARTIFACT}</artifactId>
  <versioning>
    <latest>${VERSION}</latest>
    <release>${VERSION}</release>
    <versions>
      <version>${VERSION}</version>
    </versions>
    <lastUpdated>${now}</lastUpdated>
  </versioning>
</metadata>
")
put("${artifact_dir}/maven-metadata.xml.tmp" "${artifact_dir}/maven-metadata.xml")
file(REMOVE "${artifact_dir}/maven-metadata.xml.tmp")
