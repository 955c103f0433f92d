// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/executable.h"

#include <cstring>
#include <string>

#include "drivers/cuda/cupti_tracer.h"
#include "drivers/cuda/schema/executable_def_generated.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::StatusOr;

namespace {

constexpr size_t kHeaderSize = 64;
constexpr size_t kJitLogSize = 8192;

struct Header {
  char magic[4];
  uint32_t version;
  uint64_t content_size;
};

StatusOr<const cuda_fb::Executable*> VerifyExecutable(std::span<const uint8_t> data) {
  if (data.size() < kHeaderSize) {
    return base::InvalidArgumentError("CUDA executable is ", data.size(),
                                      " bytes, smaller than its 64-byte header");
  }
  Header header;
  std::memcpy(&header, data.data(), sizeof(header));
  if (std::memcmp(header.magic, "CDA1", 4) != 0) {
    return base::InvalidArgumentError("CUDA executable header magic is not 'CDA1'");
  }
  if (header.version != 0) {
    return base::IncompatibleError("CUDA executable header version ", header.version,
                                   " is not supported (expected 0)");
  }
  if (header.content_size == 0 || header.content_size > data.size() - kHeaderSize) {
    return base::InvalidArgumentError("CUDA executable payload of ", header.content_size,
                                      " bytes does not fit the ", data.size() - kHeaderSize,
                                      " bytes after the header");
  }
  const uint8_t* payload = data.data() + kHeaderSize;
  const size_t size = static_cast<size_t>(header.content_size);
  if (!flatbuffers::BufferHasIdentifier(payload, cuda_fb::ExecutableIdentifier())) {
    return base::InvalidArgumentError("CUDA executable payload lacks the 'CDA1' FlatBuffer identifier");
  }
  flatbuffers::Verifier verifier(payload, size);
  if (!cuda_fb::VerifyExecutableBuffer(verifier)) {
    return base::InvalidArgumentError("CUDA executable FlatBuffer failed verification");
  }
  return cuda_fb::GetExecutable(payload);
}

// Checks every export against |limits| and describes it. An export's name is its symbol name as
// the program spells it (the name field), which executable.lookup.function matches; the PTX
// kernel name (entry_name) is that name with the characters PTX forbids replaced ('$' -> '_'),
// so it stands in only where a compiler wrote no name.
StatusOr<std::vector<hal::ExportInfo>> DescribeEntries(const cuda_fb::Executable* def,
                                                       const KernelLimits& limits) {
  const auto* modules = def->modules();
  const auto* entries = def->entries();
  if (!modules || modules->size() == 0) return base::InvalidArgumentError("CUDA executable has no modules");
  if (!entries || entries->size() == 0) return base::InvalidArgumentError("CUDA executable has no exports");

  std::vector<hal::ExportInfo> exports;
  for (uint32_t i = 0; i < entries->size(); ++i) {
    const cuda_fb::KernelEntry* entry = entries->Get(i);
    if (!entry->entry_name() || entry->entry_name()->size() == 0) {
      return base::InvalidArgumentError("export ", i, " has no kernel name");
    }
    const std::string name = entry->name() && entry->name()->size() > 0 ? entry->name()->str()
                                                                        : entry->entry_name()->str();
    if (entry->module_index() >= modules->size()) {
      return base::InvalidArgumentError("export '", name, "' names module ", entry->module_index(),
                                        " of ", modules->size());
    }
    const cuda_fb::ThreadBlockSize* block = entry->block_size();
    if (!block) return base::InvalidArgumentError("export '", name, "' has no block size");
    const uint32_t dims[3] = {block->x(), block->y(), block->z()};
    uint64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 0 || dims[d] > limits.max_block_dims[d]) {
        return base::InvalidArgumentError("export '", name, "' block size ", dims[0], "x", dims[1], "x",
                                          dims[2], " exceeds the device limits");
      }
      threads *= dims[d];
    }
    if (threads > limits.max_threads_per_block) {
      return base::InvalidArgumentError("export '", name, "' uses ", threads,
                                        " threads per block; the device allows ",
                                        limits.max_threads_per_block);
    }
    if (entry->dynamic_shared_bytes() > limits.max_dynamic_shared_bytes) {
      return base::InvalidArgumentError("export '", name, "' needs ", entry->dynamic_shared_bytes(),
                                        " bytes of shared memory; the device allows ",
                                        limits.max_dynamic_shared_bytes);
    }
    const uint32_t bindings = entry->binding_flags() ? entry->binding_flags()->size() : 0;
    if (entry->push_constant_count() > hal::kMaxDispatchConstants || bindings > hal::kMaxDispatchBindings) {
      return base::InvalidArgumentError("export '", name, "' has ", entry->push_constant_count(),
                                        " constants and ", bindings, " bindings; limits are ",
                                        hal::kMaxDispatchConstants, " and ", hal::kMaxDispatchBindings);
    }
    hal::ExportInfo info;
    info.name = name;
    info.constant_count = entry->push_constant_count();
    info.binding_count = bindings;
    for (int d = 0; d < 3; ++d) info.workgroup_size[d] = dims[d];
    exports.push_back(std::move(info));
  }
  for (uint32_t i = 0; i < modules->size(); ++i) {
    if (!modules->Get(i)->image() || modules->Get(i)->image()->size() == 0) {
      return base::InvalidArgumentError("module ", i, " has an empty PTX image");
    }
  }
  return exports;
}

}  // namespace

StatusOr<std::vector<hal::ExportInfo>> Executable::DescribeExports(std::span<const uint8_t> data,
                                                                   const KernelLimits& limits) {
  RT_ASSIGN_OR_RETURN(const cuda_fb::Executable* def, VerifyExecutable(data));
  return DescribeEntries(def, limits);
}

StatusOr<Ref<Executable>> Executable::Load(Ref<Context> context, std::span<const uint8_t> data,
                                           const KernelLimits& limits) {
  RT_ASSIGN_OR_RETURN(const cuda_fb::Executable* def, VerifyExecutable(data));
  RT_ASSIGN_OR_RETURN(std::vector<hal::ExportInfo> exports, DescribeEntries(def, limits));
  const auto* modules = def->modules();
  const auto* entries = def->entries();

  // Everything is verified; only now does the data reach the CUDA JIT.
  const DynamicSymbols& syms = context->syms();
  RT_RETURN_IF_ERROR(context->Activate());
  Ref<Executable> executable = base::MakeRef<Executable>(context, std::move(exports));
  for (uint32_t i = 0; i < modules->size(); ++i) {
    // FlatBuffer strings are NUL-terminated, as cuModuleLoadDataEx needs for PTX text.
    const char* image = modules->Get(i)->image()->c_str();
    std::string log(kJitLogSize, '\0');
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size()))};
    CUmodule module = nullptr;
    CUresult result = syms.cuModuleLoadDataEx(&module, image, 2, options, values);
    if (result != CUDA_SUCCESS) {
      base::Status status = ToStatus(syms, result, "cuModuleLoadDataEx");
      return status.Annotate(base::StrCat("loading module ", i, " (JIT log: ", log.c_str(), ")"));
    }
    executable->modules_.push_back(module);
  }
  for (uint32_t i = 0; i < entries->size(); ++i) {
    const cuda_fb::KernelEntry* entry = entries->Get(i);
    Kernel kernel;
    RT_CUDA_RETURN_IF_ERROR(syms,
                            cuModuleGetFunction(&kernel.function, executable->modules_[entry->module_index()],
                                                entry->entry_name()->c_str()),
                            "cuModuleGetFunction");
    // Traces name a kernel CUPTI reports by its export (a map lookup per load).
    CuptiTracer::RegisterKernel(entry->entry_name()->string_view(),
                                entry->name() && entry->name()->size() > 0 ? entry->name()->string_view()
                                                                         : entry->entry_name()->string_view());
    kernel.block_dims[0] = entry->block_size()->x();
    kernel.block_dims[1] = entry->block_size()->y();
    kernel.block_dims[2] = entry->block_size()->z();
    kernel.shared_memory_bytes = entry->dynamic_shared_bytes();
    if (kernel.shared_memory_bytes) {
      RT_CUDA_RETURN_IF_ERROR(
          syms, cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(kernel.shared_memory_bytes)),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
    }
    executable->kernels_.push_back(kernel);
  }
  return executable;
}

Executable::~Executable() {
  if (modules_.empty()) return;
  context_->Activate().IgnoreError();
  for (CUmodule module : modules_) context_->syms().cuModuleUnload(module);
}

}  // namespace iree_rt::drivers::cuda
