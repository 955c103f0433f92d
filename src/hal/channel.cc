// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/channel.h"

#include <cstdlib>
#include <string_view>

namespace iree_rt::hal {

namespace {

constexpr const char* kKindNames[] = {"all_gather", "all_reduce", "all_to_all", "broadcast", "reduce",
                                      "reduce_scatter", "send", "recv", "send_recv"};
constexpr const char* kReductionNames[] = {"none", "sum", "product", "minimum", "maximum", "average"};
constexpr const char* kTypeNames[] = {"si8", "ui8", "si16", "ui16", "si32", "ui32",
                                      "si64", "ui64", "f16", "f32", "f64", "bf16"};
constexpr uint32_t kTypeSizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 2};

// A decimal integer in [0, INT32_MAX] from the environment, or -1 when unset.
base::StatusOr<int32_t> EnvInt(const char* name) {
  const char* text = std::getenv(name);
  if (!text) return -1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0 || value > INT32_MAX) {
    return base::InvalidArgumentError("environment variable ", name, "='", text, "' is not a rank or count");
  }
  return static_cast<int32_t>(value);
}

// Rank and count from an MPI launcher: Open MPI's, then the PMI ones (MPICH, Slurm).
base::Status RankFromEnvironment(int32_t* rank, int32_t* count, std::string* source) {
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}};
  for (const auto& pair : pairs) {
    RT_ASSIGN_OR_RETURN(int32_t env_rank, EnvInt(pair[0]));
    RT_ASSIGN_OR_RETURN(int32_t env_count, EnvInt(pair[1]));
    if (env_rank < 0 && env_count < 0) continue;
    if (env_rank < 0 || env_count < 0) {
      return base::InvalidArgumentError("the environment sets only one of ", pair[0], " and ", pair[1]);
    }
    *rank = env_rank;
    *count = env_count;
    *source = base::StrCat(pair[0], "/", pair[1]);
    return base::Status::Ok();
  }
  return base::Status::Ok();
}

}  // namespace

base::StatusOr<CollectiveOp> CollectiveOp::Unpack(uint32_t packed) {
  const uint8_t kind = packed & 0xFF, reduction = (packed >> 8) & 0xFF, type = (packed >> 16) & 0xFF;
  if (kind > static_cast<uint8_t>(CollectiveKind::kSendRecv)) {
    return base::InvalidArgumentError("collective op 0x", std::hex, packed, ": unknown kind ", std::dec,
                                      int{kind});
  }
  if (reduction > static_cast<uint8_t>(CollectiveReduction::kAverage)) {
    return base::InvalidArgumentError("collective op 0x", std::hex, packed, ": unknown reduction ", std::dec,
                                      int{reduction});
  }
  if (type > static_cast<uint8_t>(CollectiveElementType::kBFloat16)) {
    return base::InvalidArgumentError("collective op 0x", std::hex, packed, ": unknown element type ",
                                      std::dec, int{type});
  }
  if (packed >> 24) {
    return base::InvalidArgumentError("collective op 0x", std::hex, packed, ": reserved byte is not zero");
  }
  CollectiveOp op{static_cast<CollectiveKind>(kind), static_cast<CollectiveReduction>(reduction),
                  static_cast<CollectiveElementType>(type)};
  if (op.is_reduction() != (op.reduction != CollectiveReduction::kNone)) {
    return base::InvalidArgumentError("collective op 0x", std::hex, packed, std::dec, " (", op.ToString(),
                                      "): ", op.is_reduction() ? "a reduction needs an operator"
                                                               : "only reductions take an operator");
  }
  return op;
}

uint32_t CollectiveOp::Pack() const {
  return uint32_t{static_cast<uint8_t>(kind)} | uint32_t{static_cast<uint8_t>(reduction)} << 8 |
         uint32_t{static_cast<uint8_t>(element_type)} << 16;
}

std::string CollectiveOp::ToString() const {
  std::string text = kKindNames[static_cast<int>(kind)];
  if (reduction != CollectiveReduction::kNone) text = text + " " + kReductionNames[static_cast<int>(reduction)];
  return text + " " + kTypeNames[static_cast<int>(element_type)];
}

uint32_t CollectiveOp::element_size() const { return kTypeSizes[static_cast<int>(element_type)]; }

bool CollectiveOp::is_reduction() const {
  return kind == CollectiveKind::kAllReduce || kind == CollectiveKind::kReduce ||
         kind == CollectiveKind::kReduceScatter;
}

base::StatusOr<CollectiveBytes> CollectiveByteCounts(const CollectiveOp& op, int32_t count,
                                                     uint64_t element_count) {
  const uint64_t size = op.element_size();
  if (count < 1) return base::InvalidArgumentError("a channel of ", count, " ranks");
  if (element_count > (UINT64_MAX / size) / static_cast<uint64_t>(count)) {
    return base::OutOfRangeError(op.ToString(), " of ", element_count, " elements overflows");
  }
  const uint64_t bytes = element_count * size;
  auto divided = [&]() -> base::StatusOr<uint64_t> {
    if (element_count % count != 0) {
      return base::InvalidArgumentError(op.ToString(), " of ", element_count, " elements does not split over ",
                                        count, " ranks");
    }
    return bytes / count;
  };
  switch (op.kind) {
    case CollectiveKind::kAllGather: {
      RT_ASSIGN_OR_RETURN(uint64_t part, divided());
      return CollectiveBytes{part, bytes};
    }
    case CollectiveKind::kReduceScatter:
      return CollectiveBytes{bytes * count, bytes};
    case CollectiveKind::kAllToAll:
      RT_RETURN_IF_ERROR(divided().status());
      return CollectiveBytes{bytes, bytes};
    case CollectiveKind::kSend:
      return CollectiveBytes{bytes, 0};
    case CollectiveKind::kRecv:
      return CollectiveBytes{0, bytes};
    default:
      return CollectiveBytes{bytes, bytes};
  }
}

base::StatusOr<ResolvedChannel> ResolveChannel(const ChannelParams& params, const ChannelConfig& config,
                                               const std::string& device_id) {
  ResolvedChannel resolved;
  resolved.id = params.id;
  int32_t rank = params.rank, count = params.count;
  std::string source = "the program";
  if (rank < 0 && count < 0) {
    rank = config.rank;
    count = config.count;
    source = base::StrCat("device '", device_id, "' parameters rank/ranks");
    if (rank < 0 && count < 0) RT_RETURN_IF_ERROR(RankFromEnvironment(&rank, &count, &source));
  }
  if (rank < 0 || count < 0) {
    return base::FailedPreconditionError(
        "hal.channel.create on device '", device_id,
        "': the program leaves rank and count to the runtime and none were given: pass the device "
        "parameters rank= and ranks= (e.g. --device=", device_id,
        "://?rank=0&ranks=2, or iree_rt_device_options_set_string), or launch under mpirun");
  }
  if (count < 1 || rank >= count) {
    return base::InvalidArgumentError("hal.channel.create on device '", device_id, "': rank ", rank,
                                      " is not within ", count, " ranks (from ", source, ")");
  }
  resolved.rank = rank;
  resolved.count = count;
  resolved.timeout = config.timeout;
  resolved.rendezvous = config.rendezvous;
  if (resolved.rendezvous.empty()) {
    const char* env = std::getenv("IREE_RT_RENDEZVOUS");
    // Ranks from an MPI launcher are processes: they meet through MPI unless told otherwise.
    const bool from_launcher = source.starts_with("OMPI_") || source.starts_with("PMI_");
    resolved.rendezvous = env && *env ? env : from_launcher ? "mpi" : "local:default";
  }
  return resolved;
}

}  // namespace iree_rt::hal
