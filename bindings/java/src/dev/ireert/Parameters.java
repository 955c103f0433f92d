// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters (external weights) of one scope, for programs that import the io_parameters
 * module: fill a set from archive files, memory and splats, then pass it to {@link
 * Module#ioParameters}, which freezes it (a later add throws IreeRtException
 * FAILED_PRECONDITION). Adding a key twice throws ALREADY_EXISTS. Not thread-safe while being
 * filled; a frozen set may be shared.
 */
public final class Parameters extends NativeObject {
  private Parameters(long handle) {
    super(HandleKind.RT_KIND_PARAMETERS, handle);
  }

  /** An empty set for |scope| (null or "": the unscoped scope). */
  public static Parameters create(Instance instance, String scope) {
    return new Parameters(IreeRtNative.parameters_create(instance, scope));
  }

  /** Adds every parameter of the .irpa, .safetensors or .gguf file at |path|. */
  public Parameters addFile(String path, ParameterMode mode) {
    IreeRtNative.parameters_add_file(this, path, mode.value());
    return this;
  }

  /** Adds every parameter of the archive file at |path|, mapped. */
  public Parameters addFile(String path) {
    return addFile(path, ParameterMode.MMAP);
  }

  /** Adds parameter |key| with a copy of |bytes|. */
  public Parameters addMemory(String key, byte[] bytes) {
    IreeRtNative.parameters_add_memory(this, key, bytes);
    return this;
  }

  /**
   * Adds parameter |key| whose bytes are |data|'s remaining bytes (a direct buffer), used
   * without a copy: CPU devices read 64-byte aligned memory ({@link Tensor#allocateDirect}) in
   * place. The runtime keeps |data| reachable until it no longer needs it; do not change it
   * meanwhile.
   */
  public Parameters addMemory(String key, ByteBuffer data) {
    IreeRtNative.rt_parameters_add_memory_borrowed(this, key, Buffer.exactSlice(data, data.remaining()));
    return this;
  }

  /** Adds every parameter of the archive of |format| ("irpa", "safetensors", "gguf"), copied. */
  public Parameters addArchive(String format, byte[] archive) {
    IreeRtNative.parameters_add_archive_memory(this, format, archive);
    return this;
  }

  /** Adds every parameter of the archive in |archive|'s remaining bytes, used without a copy. */
  public Parameters addArchive(String format, ByteBuffer archive) {
    IreeRtNative.rt_parameters_add_archive_borrowed(
        this, format, Buffer.exactSlice(archive, archive.remaining()));
    return this;
  }

  /** Adds parameter |key| of |length| bytes: |pattern| (1, 2, 4, 8 or 16 bytes) repeated. */
  public Parameters addSplat(String key, byte[] pattern, long length) {
    IreeRtNative.parameters_add_splat(this, key, pattern, length);
    return this;
  }

  /** The scope ("" for the unscoped scope). */
  public String scope() {
    return IreeRtNative.parameters_scope(this);
  }

  /** Every parameter's key and length in bytes, in the order added. */
  public Map<String, Long> entries() {
    long n = IreeRtNative.parameters_count(this);
    Map<String, Long> entries = new LinkedHashMap<>();
    for (long i = 0; i < n; ++i) {
      entries.put(IreeRtNative.rt_parameters_entry_key(this, i),
          IreeRtNative.rt_parameters_entry_length(this, i));
    }
    return entries;
  }
}
