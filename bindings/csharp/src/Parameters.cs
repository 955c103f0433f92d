// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Buffers;
using System.Collections.Generic;

namespace IreeRt {

/// <summary>
/// The parameters (external weights) of one scope, for programs that import the io_parameters
/// module: fill a set from archive files, memory and splats, then pass it to
/// Module.IoParameters, which freezes it (a later add throws FailedPrecondition). Adding a key
/// twice throws AlreadyExists. Not thread-safe while being filled; a frozen set may be shared.
/// </summary>
public sealed class Parameters : NativeObject {
  const int FlagCopy = 0x1;  // IREE_RT_PARAMETERS_FLAG_COPY

  Parameters(IntPtr handle) : base(HandleKind.RT_KIND_PARAMETERS, handle) {}

  /// <summary>An empty set for |scope| (null or "": the unscoped scope).</summary>
  public static Parameters Create(Instance instance, string scope) {
    return new Parameters(IreeRtNative.parameters_create(instance, scope));
  }

  /// <summary>Adds every parameter of the .irpa, .safetensors or .gguf file at |path|.</summary>
  public Parameters AddFile(string path, ParameterMode mode = ParameterMode.Mmap) {
    IreeRtNative.parameters_add_file(this, path, (int)mode);
    return this;
  }

  /// <summary>Adds parameter |key| with a copy of |bytes|.</summary>
  public Parameters AddMemory(string key, byte[] bytes) {
    if (bytes == null) throw new ArgumentNullException("bytes");
    IreeRtNative.parameters_add_memory(this, key, bytes, bytes.Length, FlagCopy, IntPtr.Zero);
    return this;
  }

  /// <summary>
  /// Adds parameter |key| whose bytes are |data|, without a copy: the memory stays pinned until
  /// the runtime no longer needs it, and CPU devices read it in place when it is Tensor.Alignment
  /// aligned (AlignedMemory). Do not change it meanwhile.
  /// </summary>
  public Parameters AddMemory(string key, Memory<byte> data) {
    Lend(data, (pointer, cookie) => IreeRtNative.rt_parameters_add_memory_borrowed(
        this, key, pointer, data.Length, cookie));
    return this;
  }

  /// <summary>Adds every parameter of the archive of |format| ("irpa", "safetensors", "gguf"),
  /// copied.</summary>
  public Parameters AddArchive(string format, byte[] archive) {
    if (archive == null) throw new ArgumentNullException("archive");
    IreeRtNative.parameters_add_archive_memory(this, format, archive, archive.Length, FlagCopy,
                                               IntPtr.Zero);
    return this;
  }

  /// <summary>Adds every parameter of the archive in |archive|, pinned and used in place.</summary>
  public Parameters AddArchive(string format, Memory<byte> archive) {
    Lend(archive, (pointer, cookie) => IreeRtNative.rt_parameters_add_archive_borrowed(
        this, format, pointer, archive.Length, cookie));
    return this;
  }

  /// <summary>Adds parameter |key| of |length| bytes: |pattern| (1, 2, 4, 8 or 16 bytes)
  /// repeated.</summary>
  public Parameters AddSplat(string key, byte[] pattern, long length) {
    if (pattern == null) throw new ArgumentNullException("pattern");
    IreeRtNative.parameters_add_splat(this, key, pattern, pattern.Length, length);
    return this;
  }

  /// <summary>The scope ("" for the unscoped scope).</summary>
  public string Scope { get { return IreeRtNative.parameters_scope(this); } }

  /// <summary>Every parameter's key and length in bytes, in the order added.</summary>
  public IReadOnlyList<KeyValuePair<string, long>> Entries {
    get {
      long n = IreeRtNative.parameters_count(this);
      var entries = new List<KeyValuePair<string, long>>();
      for (long i = 0; i < n; ++i) {
        entries.Add(new KeyValuePair<string, long>(IreeRtNative.rt_parameters_entry_key(this, i),
                                                   IreeRtNative.rt_parameters_entry_length(this, i)));
      }
      return entries;
    }
  }

  public override void Dispose() {
    base.Dispose();
    PinnedMemory.Drain();
  }

  // Pins |data| for the runtime, which unpins it (PinnedMemory) when done; a failed add unpins it
  // here.
  static unsafe void Lend(Memory<byte> data, Action<IntPtr, IntPtr> add) {
    PinnedMemory.Drain();
    MemoryHandle pin = data.Pin();
    IntPtr cookie = PinnedMemory.Create(pin);
    try {
      add((IntPtr)pin.Pointer, cookie);
    } catch {
      PinnedMemory.Release(cookie);
      throw;
    }
  }
}

}  // namespace IreeRt
