// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/collective_compute.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "hal/utils/float_convert.h"

namespace iree_rt::hal::utils {

namespace {

// Elementwise reduction of |count| ranks' |n| elements, in rank order, into |out|.
template <typename T, typename Acc, typename Load, typename Store>
void ReduceAs(CollectiveReduction reduction, std::span<const uint8_t* const> inputs, uint64_t n,
              uint8_t* out, Load load, Store store) {
  for (uint64_t i = 0; i < n; ++i) {
    T value;
    std::memcpy(&value, inputs[0] + i * sizeof(T), sizeof(T));
    Acc acc = load(value);
    for (size_t k = 1; k < inputs.size(); ++k) {
      std::memcpy(&value, inputs[k] + i * sizeof(T), sizeof(T));
      const Acc next = load(value);
      switch (reduction) {
        case CollectiveReduction::kSum:
        case CollectiveReduction::kAverage: acc = static_cast<Acc>(acc + next); break;
        case CollectiveReduction::kProduct: acc = static_cast<Acc>(acc * next); break;
        case CollectiveReduction::kMinimum: acc = std::min(acc, next); break;
        case CollectiveReduction::kMaximum: acc = std::max(acc, next); break;
        case CollectiveReduction::kNone: break;
      }
    }
    if (reduction == CollectiveReduction::kAverage) acc = static_cast<Acc>(acc / static_cast<Acc>(inputs.size()));
    const T result = store(acc);
    std::memcpy(out + i * sizeof(T), &result, sizeof(T));
  }
}

template <typename T>
void ReducePlain(CollectiveReduction reduction, std::span<const uint8_t* const> inputs, uint64_t n,
                 uint8_t* out) {
  ReduceAs<T, T>(reduction, inputs, n, out, [](T v) { return v; }, [](T v) { return v; });
}

void Reduce(const CollectiveOp& op, std::span<const uint8_t* const> inputs, uint64_t n, uint8_t* out) {
  const CollectiveReduction r = op.reduction;
  switch (op.element_type) {
    case CollectiveElementType::kSint8: return ReducePlain<int8_t>(r, inputs, n, out);
    case CollectiveElementType::kUint8: return ReducePlain<uint8_t>(r, inputs, n, out);
    case CollectiveElementType::kSint16: return ReducePlain<int16_t>(r, inputs, n, out);
    case CollectiveElementType::kUint16: return ReducePlain<uint16_t>(r, inputs, n, out);
    case CollectiveElementType::kSint32: return ReducePlain<int32_t>(r, inputs, n, out);
    case CollectiveElementType::kUint32: return ReducePlain<uint32_t>(r, inputs, n, out);
    case CollectiveElementType::kSint64: return ReducePlain<int64_t>(r, inputs, n, out);
    case CollectiveElementType::kUint64: return ReducePlain<uint64_t>(r, inputs, n, out);
    case CollectiveElementType::kFloat32: return ReducePlain<float>(r, inputs, n, out);
    case CollectiveElementType::kFloat64: return ReducePlain<double>(r, inputs, n, out);
    case CollectiveElementType::kFloat16:  // accumulated in f32, rounded once
      return ReduceAs<uint16_t, float>(r, inputs, n, out, HalfToFloat, FloatToHalf);
    case CollectiveElementType::kBFloat16:
      return ReduceAs<uint16_t, float>(r, inputs, n, out, BFloat16ToFloat, FloatToBFloat16);
  }
}

}  // namespace

std::string DescribeRanks(const std::vector<int32_t>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size(); ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
  return text;
}

SendRecvPeers DecodeSendRecvPeers(uint32_t param) {
  auto peer = [](uint32_t half) { return half == 0xFFFF ? -1 : static_cast<int32_t>(half); };
  return {peer(param & 0xFFFF), peer(param >> 16)};
}

SendRecvPeers PointToPointPeers(const CollectiveOp& op, uint32_t param) {
  switch (op.kind) {
    case CollectiveKind::kSend: return {static_cast<int32_t>(param), -1};
    case CollectiveKind::kRecv: return {-1, static_cast<int32_t>(param)};
    case CollectiveKind::kSendRecv: return DecodeSendRecvPeers(param);
    default: return {-1, -1};
  }
}

SplitPlace PlaceInSplit(std::span<const int32_t> colors_keys, int32_t color, int32_t rank) {
  std::vector<std::pair<int32_t, int32_t>> members;  // (key, old rank) of this color
  for (size_t r = 0; 2 * r + 1 < colors_keys.size(); ++r) {
    if (colors_keys[2 * r] == color) members.push_back({colors_keys[2 * r + 1], static_cast<int32_t>(r)});
  }
  std::sort(members.begin(), members.end());
  int32_t place = 0;
  while (members[place].second != rank) ++place;
  return {place, static_cast<int32_t>(members.size())};
}

bool WritesResult(const CollectiveOp& op, uint32_t param, int32_t rank) {
  return !(op.kind == CollectiveKind::kReduce && static_cast<int32_t>(param) != rank);
}

void ComputeGroupResult(const CollectiveOp& op, uint32_t param, std::span<const uint8_t* const> inputs,
                        uint64_t element_count, int32_t rank, const CollectiveBytes& bytes, uint8_t* out) {
  const size_t ranks = inputs.size();
  switch (op.kind) {
    case CollectiveKind::kAllReduce:
    case CollectiveKind::kReduce:
      Reduce(op, inputs, element_count, out);
      break;
    case CollectiveKind::kBroadcast:
      std::memcpy(out, inputs[param], bytes.recv);
      break;
    case CollectiveKind::kAllGather:
      for (size_t r = 0; r < ranks; ++r) std::memcpy(out + r * bytes.send, inputs[r], bytes.send);
      break;
    case CollectiveKind::kReduceScatter: {
      std::vector<const uint8_t*> blocks(ranks);
      for (size_t r = 0; r < ranks; ++r) blocks[r] = inputs[r] + rank * bytes.recv;
      Reduce(op, blocks, element_count, out);
      break;
    }
    case CollectiveKind::kAllToAll: {
      const uint64_t part = bytes.recv / ranks;
      for (size_t r = 0; r < ranks; ++r) std::memcpy(out + r * part, inputs[r] + rank * part, part);
      break;
    }
    default:
      break;
  }
}

}  // namespace iree_rt::hal::utils
