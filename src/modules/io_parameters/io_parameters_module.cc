// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/io_parameters/io_parameters_module.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/trace.h"
#include "hal/buffer.h"
#include "hal/device.h"
#include "hal/semaphore.h"
#include "modules/hal/args.h"
#include "modules/hal/ref_types.h"
#include "vm/buffer.h"
#include "vm/list.h"
#include "vm/native_module.h"

namespace iree_rt::modules::io_parameters {
namespace {

namespace rt = ::iree_rt::hal;
using base::Ref;
using base::Status;
using base::StatusOr;
using hal::Args;
using hal::Results;

using ProviderMap = std::map<std::string, Ref<ParameterProvider>, std::less<>>;

// One (key, span) pair of a call: bytes [parameter_offset, +length) of the key's parameter go to
// [buffer_offset, +length) of a buffer.
struct Request {
  std::string_view key;
  uint64_t parameter_offset = 0;
  uint64_t buffer_offset = 0;
  uint64_t length = 0;
};

template <typename T>
T ReadLe(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// The key table ({u32 offset, u32 length} into |key_data|) and spans ({u64 parameter offset,
// u64 buffer offset, u64 length}), checked against each other and their buffers.
StatusOr<std::vector<Request>> DecodeRequests(const vm::Arg& key_table_arg,
                                              const vm::Arg& key_data_arg,
                                              const vm::Arg& spans_arg) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> table, hal::BytesArg(key_table_arg, "key table"));
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> keys, hal::BytesArg(key_data_arg, "key data"));
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> spans, hal::BytesArg(spans_arg, "spans"));
  if (spans.size() % 24 != 0) {
    return base::InvalidArgumentError("parameter spans of ", spans.size(),
                                      " bytes are not whole 24-byte entries");
  }
  const size_t count = spans.size() / 24;
  if (table.size() / 8 < count) {
    return base::InvalidArgumentError("parameter key table of ", table.size(), " bytes holds fewer than the ",
                                      count, " keys the spans need");
  }
  std::vector<Request> requests(count);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t offset = ReadLe<uint32_t>(table.data() + 8 * i);
    const uint32_t length = ReadLe<uint32_t>(table.data() + 8 * i + 4);
    if (offset > keys.size() || length > keys.size() - offset) {
      return base::InvalidArgumentError("parameter key ", i, " [", offset, ", +", length,
                                        ") is outside the ", keys.size(), "-byte key data");
    }
    Request& r = requests[i];
    r.key = std::string_view(reinterpret_cast<const char*>(keys.data()) + offset, length);
    r.parameter_offset = ReadLe<uint64_t>(spans.data() + 24 * i);
    r.buffer_offset = ReadLe<uint64_t>(spans.data() + 24 * i + 8);
    r.length = ReadLe<uint64_t>(spans.data() + 24 * i + 16);
  }
  return requests;
}

// A request's parameter, checked to hold the span.
StatusOr<ParameterProvider::Entry> LookupSpan(const ParameterProvider& provider, const Request& r) {
  RT_ASSIGN_OR_RETURN(ParameterProvider::Entry entry, provider.Lookup(r.key));
  if (r.parameter_offset > entry.length || r.length > entry.length - r.parameter_offset) {
    return base::OutOfRangeError("parameter '", r.key, "' of scope '", provider.scope(), "' has ",
                                 entry.length, " bytes; the program reads [", r.parameter_offset,
                                 ", +", r.length, ")");
  }
  if (!entry.splat && !entry.file && entry.stored_length != 0) {
    return base::InternalError("parameter '", r.key, "' has stored bytes but no file");
  }
  return entry;
}

// Queue operations run one after another on a private timeline: the first waits on the caller's
// wait fence, the last (a barrier) signals the caller's signal fence.
class Chain {
 public:
  Chain(rt::Device* device, rt::QueueAffinity affinity, rt::PointList wait, rt::PointList signal)
      : device_(device), affinity_(affinity), wait_(std::move(wait)), signal_(std::move(signal)) {}

  // Runs |op(wait, signal)| as the next link.
  template <typename Op>
  Status Link(Op op) {
    if (!timeline_) {
      RT_ASSIGN_OR_RETURN(timeline_, device_->CreateSemaphore(0));
    }
    rt::SemaphorePoint previous{timeline_.get(), value_};
    rt::SemaphorePoint next{timeline_.get(), value_ + 1};
    rt::SemaphoreList wait = value_ == 0 ? rt::SemaphoreList(wait_)
                                         : rt::SemaphoreList(&previous, 1);
    RT_RETURN_IF_ERROR(op(wait, rt::SemaphoreList(&next, 1)));
    ++value_;
    return Status::Ok();
  }

  // Signals the caller's fence after the last link (or after its wait fence when none ran).
  Status Finish() {
    rt::SemaphorePoint last{timeline_.get(), value_};
    rt::SemaphoreList wait = value_ == 0 ? rt::SemaphoreList(wait_)
                                         : rt::SemaphoreList(&last, 1);
    return device_->QueueBarrier(affinity_, wait, rt::SemaphoreList(signal_));
  }

  // A failure found before the work was queued still reaches whoever waits on the signal fence.
  Status Fail(Status status) {
    for (const rt::SemaphorePoint& point : signal_) point.semaphore->Fail(status);
    return status;
  }

  rt::Device* device() const { return device_; }
  rt::QueueAffinity affinity() const { return affinity_; }

 private:
  rt::Device* device_;
  rt::QueueAffinity affinity_;
  rt::PointList wait_;
  rt::PointList signal_;
  Ref<rt::Semaphore> timeline_;
  uint64_t value_ = 0;
};

// The smallest period of |entry|'s pattern that QueueFill takes (1, 2 or 4 bytes), or 0.
uint32_t FillablePattern(const ParameterProvider::Entry& entry, uint32_t* pattern) {
  for (uint32_t width : {1u, 2u, 4u}) {
    if (entry.pattern_length % width != 0) continue;
    bool periodic = true;
    for (uint32_t i = width; i < entry.pattern_length && periodic; ++i) {
      periodic = entry.pattern[i] == entry.pattern[i % width];
    }
    if (periodic) {
      *pattern = 0;
      std::memcpy(pattern, entry.pattern, width);
      return width;
    }
  }
  return 0;
}

// File reads gathered into one QueueReadMany link, so the parameters of a call are read by
// several threads (and streamed to a GPU with copies in flight) rather than one after another.
class ReadBatch {
 public:
  void Add(rt::FileRead read) { reads_.push_back(std::move(read)); }

  // Links the gathered reads (if any) into |chain|; fills flush first so the chain keeps order.
  Status Flush(Chain& chain) {
    if (reads_.empty()) return Status::Ok();
    Status status = chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) {
      return chain.device()->QueueReadMany(chain.affinity(), wait, signal, reads_);
    });
    reads_.clear();
    return status;
  }

 private:
  std::vector<rt::FileRead> reads_;
};

// Queues the writes of |r|'s bytes into |target| at r.buffer_offset: file bytes into |batch|,
// splats and zero padding as fills in |chain|.
Status QueueSpan(Chain& chain, ReadBatch& batch, const ParameterProvider::Entry& entry, const Request& r,
                 const Ref<rt::Buffer>& target) {
  rt::Device* device = chain.device();
  const rt::QueueAffinity affinity = chain.affinity();
  if (r.length == 0) return Status::Ok();
  if (entry.splat) {
    RT_RETURN_IF_ERROR(batch.Flush(chain));
    uint32_t pattern = 0;
    const uint32_t width = FillablePattern(entry, &pattern);
    if (width != 0 && r.parameter_offset % width == 0) {
      return chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) {
        return device->QueueFill(affinity, wait, signal, target, r.buffer_offset, r.length, pattern,
                                 width);
      });
    }
    // An 8- or 16-byte pattern (or a span starting inside one): written out on the host.
    std::vector<uint8_t> bytes(r.length);
    for (uint64_t i = 0; i < r.length; ++i) {
      bytes[i] = entry.pattern[(r.parameter_offset + i) % entry.pattern_length];
    }
    return chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) {
      return device->QueueUpdate(affinity, wait, signal, bytes.data(), bytes.size(), target,
                                 r.buffer_offset);
    });
  }
  // Stored bytes first, then zeros for the part of the span past them.
  const uint64_t stored_end = std::min(entry.stored_length, r.parameter_offset + r.length);
  const uint64_t stored = stored_end > r.parameter_offset ? stored_end - r.parameter_offset : 0;
  if (stored) batch.Add({entry.file, entry.file_offset + r.parameter_offset, target, r.buffer_offset, stored});
  if (stored < r.length) {
    RT_RETURN_IF_ERROR(batch.Flush(chain));
    RT_RETURN_IF_ERROR(chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) {
      return device->QueueFill(affinity, wait, signal, target, r.buffer_offset + stored,
                               r.length - stored, 0, 1);
    }));
  }
  return Status::Ok();
}

// The bytes of |r| as a buffer over host memory the entry already holds, or null when they are
// not importable (not in host memory, zero-padded, misaligned, or the device refuses).
Ref<rt::Buffer> TryImport(rt::Device& device, const ParameterProvider::Entry& entry,
                          const Request& r, const rt::BufferParams& params) {
  if (entry.splat || !entry.host_data || r.length == 0) return nullptr;
  if (r.parameter_offset + r.length > entry.stored_length) return nullptr;
  const uint8_t* data = entry.host_data + r.parameter_offset;
  if (reinterpret_cast<uintptr_t>(data) % rt::kBindingAlignment != 0) return nullptr;
  rt::BufferParams read_only = params;
  read_only.access = rt::MemoryAccess::kRead;
  Ref<rt::File> keep_alive = entry.file;
  StatusOr<Ref<rt::Buffer>> buffer = device.allocator().ImportHostBuffer(
      read_only, const_cast<uint8_t*>(data), r.length,
      [keep_alive]() mutable { keep_alive = nullptr; });
  return buffer.ok() ? std::move(buffer).value() : nullptr;
}

struct CallPrefix {
  rt::Device* device = nullptr;
  rt::QueueAffinity affinity = 0;
  rt::PointList wait, signal;
};

Status DecodePrefix(Args args, CallPrefix* prefix) {
  RT_ASSIGN_OR_RETURN(prefix->device, hal::RefArg<rt::Device>(args[0], "device"));
  prefix->affinity = static_cast<rt::QueueAffinity>(args[1].i64());
  RT_RETURN_IF_ERROR(hal::FenceArg(args[2], "wait fence", &prefix->wait));
  return hal::FenceArg(args[3], "signal fence", &prefix->signal);
}

StatusOr<const ParameterProvider*> ProviderFor(const ProviderMap& providers, const vm::Arg& scope_arg) {
  std::string_view scope;
  RT_ASSIGN_OR_RETURN(vm::Buffer * scope_buffer, hal::NullableRefArg<vm::Buffer>(scope_arg, "scope"));
  if (scope_buffer) scope = hal::Text(*scope_buffer);
  auto it = providers.find(scope);
  if (it == providers.end()) {
    return base::NotFoundError("no parameters for scope '", scope,
                               "' (give them with --parameters=", scope.empty() ? "" : scope,
                               scope.empty() ? "" : "=", "FILE)");
  }
  return it->second.get();
}

// load(device, affinity, wait, signal, scope, target affinity, memory types, usage, key table,
// key data, spans) -> list<hal.buffer>: one new buffer per span, holding its bytes.
Status Load(const ProviderMap& providers, Args args, Results results) {
  base::trace::Scope trace_scope("io_parameters", "io_parameters.load");
  CallPrefix call;
  RT_RETURN_IF_ERROR(DecodePrefix(args, &call));
  Chain chain(call.device, call.affinity, call.wait, call.signal);
  auto run = [&]() -> Status {
    RT_ASSIGN_OR_RETURN(const ParameterProvider* provider, ProviderFor(providers, args[4]));
    RT_ASSIGN_OR_RETURN(std::vector<Request> requests, DecodeRequests(args[8], args[9], args[10]));
    rt::BufferParams params;
    params.type = static_cast<rt::MemoryTypeBits>(args[6].i32());
    params.usage = static_cast<rt::BufferUsageBits>(args[7].i32());
    params.access = rt::MemoryAccess::kAll;
    // Every lookup before anything is queued: a missing key queues nothing.
    std::vector<ParameterProvider::Entry> entries;
    entries.reserve(requests.size());
    for (const Request& r : requests) {
      RT_ASSIGN_OR_RETURN(ParameterProvider::Entry entry, LookupSpan(*provider, r));
      entries.push_back(std::move(entry));
    }
    RT_ASSIGN_OR_RETURN(Ref<vm::List> list,
                        vm::List::Create(vm::Type::OfRef(&hal::kBufferType), requests.size()));
    ReadBatch batch;
    for (size_t i = 0; i < requests.size(); ++i) {
      const Request& r = requests[i];
      Ref<rt::Buffer> buffer = TryImport(*call.device, entries[i], r, params);
      if (!buffer) {
        RT_RETURN_IF_ERROR(chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) -> Status {
          RT_ASSIGN_OR_RETURN(buffer, call.device->QueueAlloca(call.affinity, wait, signal, params,
                                                               r.length, 0));
          return Status::Ok();
        }));
        Request at_zero = r;
        at_zero.buffer_offset = 0;  // a new buffer per span
        RT_RETURN_IF_ERROR(QueueSpan(chain, batch, entries[i], at_zero, buffer));
      }
      RT_RETURN_IF_ERROR(list->Push(hal::RefResult(std::move(buffer))));
    }
    RT_RETURN_IF_ERROR(batch.Flush(chain));
    RT_RETURN_IF_ERROR(chain.Finish());
    results[0] = vm::Value::FromRef(vm::Ref::Make(std::move(list)));
    return Status::Ok();
  };
  Status status = run();
  return status.ok() ? status : chain.Fail(std::move(status));
}

// OUT_OF_RANGE unless |r|'s buffer range lies inside |buffer| (the |role| of gather or scatter).
Status CheckBufferRange(const Request& r, const rt::Buffer& buffer, const char* role) {
  if (r.buffer_offset > buffer.byte_length() || r.length > buffer.byte_length() - r.buffer_offset) {
    return base::OutOfRangeError("parameter '", r.key, "': ", role, " range [", r.buffer_offset, ", +", r.length,
                                 ") is outside the ", buffer.byte_length(), "-byte buffer");
  }
  return Status::Ok();
}

// gather(device, affinity, wait, signal, scope, target buffer, key table, key data, spans):
// each span's bytes into the one target buffer.
Status Gather(const ProviderMap& providers, Args args, Results) {
  base::trace::Scope trace_scope("io_parameters", "io_parameters.gather");
  CallPrefix call;
  RT_RETURN_IF_ERROR(DecodePrefix(args, &call));
  Chain chain(call.device, call.affinity, call.wait, call.signal);
  auto run = [&]() -> Status {
    RT_ASSIGN_OR_RETURN(const ParameterProvider* provider, ProviderFor(providers, args[4]));
    RT_ASSIGN_OR_RETURN(rt::Buffer * target, hal::RefArg<rt::Buffer>(args[5], "gather target"));
    RT_ASSIGN_OR_RETURN(std::vector<Request> requests, DecodeRequests(args[6], args[7], args[8]));
    std::vector<ParameterProvider::Entry> entries;
    entries.reserve(requests.size());
    for (const Request& r : requests) {
      RT_RETURN_IF_ERROR(CheckBufferRange(r, *target, "target"));
      RT_ASSIGN_OR_RETURN(ParameterProvider::Entry entry, LookupSpan(*provider, r));
      entries.push_back(std::move(entry));
    }
    Ref<rt::Buffer> target_ref = hal::RetainArg<rt::Buffer>(args[5]);
    ReadBatch batch;
    for (size_t i = 0; i < requests.size(); ++i) {
      RT_RETURN_IF_ERROR(QueueSpan(chain, batch, entries[i], requests[i], target_ref));
    }
    RT_RETURN_IF_ERROR(batch.Flush(chain));
    return chain.Finish();
  };
  Status status = run();
  return status.ok() ? status : chain.Fail(std::move(status));
}

// scatter(device, affinity, wait, signal, source buffer, scope, key table, key data, spans):
// each span's bytes of the source buffer written into its parameter (what the compiler's
// parameter encoder emits). Only stored bytes of writable parameters can be written: a splat,
// zero padding or a read-only archive refuses the whole call before anything is queued.
Status Scatter(const ProviderMap& providers, Args args, Results) {
  base::trace::Scope trace_scope("io_parameters", "io_parameters.scatter");
  CallPrefix call;
  RT_RETURN_IF_ERROR(DecodePrefix(args, &call));
  Chain chain(call.device, call.affinity, call.wait, call.signal);
  auto run = [&]() -> Status {
    RT_ASSIGN_OR_RETURN(rt::Buffer * source, hal::RefArg<rt::Buffer>(args[4], "scatter source"));
    RT_ASSIGN_OR_RETURN(const ParameterProvider* provider, ProviderFor(providers, args[5]));
    RT_ASSIGN_OR_RETURN(std::vector<Request> requests, DecodeRequests(args[6], args[7], args[8]));
    std::vector<ParameterProvider::Entry> entries;
    entries.reserve(requests.size());
    for (const Request& r : requests) {
      RT_RETURN_IF_ERROR(CheckBufferRange(r, *source, "source"));
      RT_ASSIGN_OR_RETURN(ParameterProvider::Entry entry, LookupSpan(*provider, r));
      const std::string_view why = entry.splat ? "is a splat"
                                   : r.parameter_offset + r.length > entry.stored_length
                                       ? "has fewer stored bytes than the span (the rest is zero padding)"
                                   : !entry.file || !entry.file->writable()
                                       ? "is read-only (its source was not given as writable)"
                                                             : "";
      if (!why.empty()) {
        return base::FailedPreconditionError("parameter '", r.key, "' of scope '", provider->scope(), "' ", why,
                                             ": scatter cannot write [", r.parameter_offset, ", +", r.length, ")");
      }
      entries.push_back(std::move(entry));
    }
    Ref<rt::Buffer> source_ref = hal::RetainArg<rt::Buffer>(args[4]);
    for (size_t i = 0; i < requests.size(); ++i) {
      const Request& r = requests[i];
      if (r.length == 0) continue;
      RT_RETURN_IF_ERROR(chain.Link([&](rt::SemaphoreList wait, rt::SemaphoreList signal) {
        return call.device->QueueWrite(call.affinity, wait, signal, source_ref, r.buffer_offset, entries[i].file,
                                       entries[i].file_offset + r.parameter_offset, r.length);
      }));
    }
    return chain.Finish();
  };
  Status status = run();
  return status.ok() ? status : chain.Fail(std::move(status));
}

class IoParametersModule final : public vm::NativeModule {
 public:
  IoParametersModule(std::shared_ptr<const ProviderMap> providers, std::vector<FunctionDef> defs)
      : NativeModule("io_parameters", 0, std::move(defs)), providers_(std::move(providers)) {}
  using NativeModule::Validate;

 private:
  std::shared_ptr<const ProviderMap> providers_;  // the handlers hold it too
};

}  // namespace

StatusOr<Ref<vm::Module>> CreateIoParametersModule(std::vector<Ref<ParameterProvider>> providers) {
  auto map = std::make_shared<ProviderMap>();
  for (size_t i = 0; i < providers.size(); ++i) {
    if (!providers[i]) return base::InvalidArgumentError("parameter provider ", i, " is null");
    const std::string& scope = providers[i]->scope();
    if (!map->emplace(scope, providers[i]).second) {
      return base::InvalidArgumentError("two parameter providers for scope '", scope,
                                        "' (merge their files into one)");
    }
  }
  std::shared_ptr<const ProviderMap> shared = map;
  auto bind = [shared](Status (*fn)(const ProviderMap&, Args, Results)) {
    return [shared, fn](vm::ModuleState&, Args args, Results results) {
      return fn(*shared, args, results);
    };
  };
  // Sorted by name; cconvs as iree-compile 3.13.0 declares the imports.
  std::vector<vm::NativeModule::FunctionDef> defs;
  defs.push_back({"gather", "0rIrrrrrrr_v", bind(Gather), {}});
  defs.push_back({"load", "0rIrrrIiirrr_r", bind(Load), {}});
  defs.push_back({"scatter", "0rIrrrrrrr_v", bind(Scatter), {}});
  auto module = base::MakeRef<IoParametersModule>(shared, std::move(defs));
  RT_RETURN_IF_ERROR(module->Validate());
  return Ref<vm::Module>(std::move(module));
}

}  // namespace iree_rt::modules::io_parameters
