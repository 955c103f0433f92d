// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * Loads libiree_rt and its JNI glue (libiree_rt_jni), once, from the first place that has them:
 *
 * <ol>
 *   <li>the directory named by the system property {@code iree_rt.library.path};
 *   <li>the jar, under {@code /dev/ireert/native/<os>-<arch>/}, copied to a temporary directory
 *       that is deleted when the JVM exits;
 *   <li>{@code System.loadLibrary("iree_rt_jni")} (java.library.path / the loader's path).
 * </ol>
 *
 * A failure names every place tried, so that a missing or stale library is diagnosed from the
 * message alone.
 */
public final class NativeLibrary {
  /** The system property naming a directory with libiree_rt and libiree_rt_jni. */
  public static final String PATH_PROPERTY = "iree_rt.library.path";

  private static final String RUNTIME = "libiree_rt.so.1";
  private static final String JNI = "libiree_rt_jni.so";
  /** The check module's companion library, which libiree_rt dlopens from its own directory. */
  private static final String TOOLING = "libiree_rt_tooling.so.1";
  private static boolean loaded;
  private static String loadedFrom;

  private NativeLibrary() {}

  /** Where the libraries were loaded from (after {@link #load()}). */
  public static synchronized String loadedFrom() {
    return loadedFrom;
  }

  /** Loads the libraries if not loaded yet; UnsatisfiedLinkError if no place has them. */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    StringBuilder tried = new StringBuilder();
    String dir = System.getProperty(PATH_PROPERTY);
    if (dir != null && !dir.isEmpty()) {
      Path d = Paths.get(dir).toAbsolutePath();
      try {
        System.load(d.resolve(RUNTIME).toString());
        System.load(d.resolve(JNI).toString());
        finish("-D" + PATH_PROPERTY + "=" + d);
        return;
      } catch (UnsatisfiedLinkError e) {
        tried.append("\n  -D").append(PATH_PROPERTY).append('=').append(d).append(": ")
            .append(e.getMessage());
      }
    }
    String resourceDir = "/dev/ireert/native/" + platform() + "/";
    if (NativeLibrary.class.getResource(resourceDir + JNI) != null) {
      try {
        Path tmp = Files.createTempDirectory("iree_rt");
        tmp.toFile().deleteOnExit();
        Path runtime = extract(resourceDir + RUNTIME, tmp.resolve(RUNTIME));
        Path jni = extract(resourceDir + JNI, tmp.resolve(JNI));
        // Optional: libiree_rt loads it from its own directory for Module.check().
        if (NativeLibrary.class.getResource(resourceDir + TOOLING) != null) {
          extract(resourceDir + TOOLING, tmp.resolve(TOOLING));
        }
        System.load(runtime.toString());
        System.load(jni.toString());
        finish("jar:" + resourceDir);
        return;
      } catch (IOException | UnsatisfiedLinkError e) {
        tried.append("\n  jar ").append(resourceDir).append(": ").append(e.getMessage());
      }
    } else {
      tried.append("\n  jar ").append(resourceDir).append(": not present");
    }
    try {
      System.loadLibrary("iree_rt_jni");
      finish("System.loadLibrary(iree_rt_jni)");
    } catch (UnsatisfiedLinkError e) {
      tried.append("\n  System.loadLibrary(\"iree_rt_jni\"): ").append(e.getMessage());
      throw new UnsatisfiedLinkError("cannot load the iree_rt native libraries; tried:" + tried);
    }
  }

  /**
   * Diagnostics: the bytes the process's C heap has handed out and not taken back (glibc
   * mallinfo2), or -1 where that is unknown. Comparing it before and after many create/close
   * cycles shows native leaks that the resident set size would hide.
   */
  public static long nativeHeapInUse() {
    return IreeRtNative.rt_native_heap_in_use();
  }

  private static void finish(String from) {
    loaded = true;
    loadedFrom = from;
  }

  private static Path extract(String resource, Path target) throws IOException {
    try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException(resource + " missing from the jar");
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    target.toFile().deleteOnExit();
    return target;
  }

  static String platform() {
    String os = System.getProperty("os.name").toLowerCase().replaceAll("[^a-z]", "");
    if (os.startsWith("linux")) {
      os = "linux";
    } else if (os.startsWith("mac")) {
      os = "macos";
    } else if (os.startsWith("windows")) {
      os = "windows";
    }
    String arch = System.getProperty("os.arch");
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      arch = "x86_64";
    } else if (arch.equals("aarch64") || arch.equals("arm64")) {
      arch = "aarch64";
    }
    return os + "-" + arch;
  }
}
