// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::HostChannel directly, for what compiled programs do not reach from StableHLO: every
// kind (broadcast, reduce, send, recv included), every reduction and every element type, in place
// and with ranks as threads. Expected values are computed here.
#include "hal/utils/host_channel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "hal/utils/float_convert.h"
#include "test_util.h"

namespace iree_rt::hal {
namespace {

using testing::IsOk;
using utils::HostChannel;

constexpr std::chrono::milliseconds kTimeout{10000};

// Runs |body(rank, channel)| on |ranks| threads joined to a fresh communicator.
void OnRanks(int ranks, const std::function<void(int, HostChannel&)>& body) {
  static std::atomic<int> runs{0};
  const std::string name = "local:host_channel_test/" + std::to_string(runs++);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank) {
    threads.emplace_back([&, rank] {
      base::StatusOr<base::Ref<HostChannel>> channel = HostChannel::Join(name, rank, ranks, kTimeout);
      ASSERT_TRUE(IsOk(channel.status()));
      body(rank, **channel);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

CollectiveOp Op(CollectiveKind kind, CollectiveReduction reduction, CollectiveElementType type) {
  return CollectiveOp{kind, reduction, type};
}

// Element i of rank r's input: small enough that every type holds the sum and the product of 3
// ranks exactly (at most 3 * 4 * 5 = 60).
double Value(int rank, int i) { return (rank + 1) + i % 3; }

template <typename T>
std::vector<uint8_t> Encode(const std::vector<double>& values, CollectiveElementType type) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    T v;
    if (type == CollectiveElementType::kFloat16) {
      uint16_t h = utils::FloatToHalf(static_cast<float>(values[i]));
      std::memcpy(&v, &h, 2);
    } else if (type == CollectiveElementType::kBFloat16) {
      uint16_t h = utils::FloatToBFloat16(static_cast<float>(values[i]));
      std::memcpy(&v, &h, 2);
    } else {
      v = static_cast<T>(values[i]);
    }
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

std::vector<uint8_t> EncodeAs(const std::vector<double>& values, CollectiveElementType type) {
  switch (type) {
    case CollectiveElementType::kSint8: return Encode<int8_t>(values, type);
    case CollectiveElementType::kUint8: return Encode<uint8_t>(values, type);
    case CollectiveElementType::kSint16: return Encode<int16_t>(values, type);
    case CollectiveElementType::kUint16: return Encode<uint16_t>(values, type);
    case CollectiveElementType::kSint32: return Encode<int32_t>(values, type);
    case CollectiveElementType::kUint32: return Encode<uint32_t>(values, type);
    case CollectiveElementType::kSint64: return Encode<int64_t>(values, type);
    case CollectiveElementType::kUint64: return Encode<uint64_t>(values, type);
    case CollectiveElementType::kFloat16: return Encode<uint16_t>(values, type);
    case CollectiveElementType::kFloat32: return Encode<float>(values, type);
    case CollectiveElementType::kFloat64: return Encode<double>(values, type);
    case CollectiveElementType::kBFloat16: return Encode<uint16_t>(values, type);
  }
  return {};
}

double Reduce(CollectiveReduction reduction, const std::vector<double>& values, bool integer) {
  double acc = values[0];
  for (size_t k = 1; k < values.size(); ++k) {
    switch (reduction) {
      case CollectiveReduction::kSum: case CollectiveReduction::kAverage: acc += values[k]; break;
      case CollectiveReduction::kProduct: acc *= values[k]; break;
      case CollectiveReduction::kMinimum: acc = std::min(acc, values[k]); break;
      case CollectiveReduction::kMaximum: acc = std::max(acc, values[k]); break;
      default: break;
    }
  }
  if (reduction == CollectiveReduction::kAverage) {
    acc = integer ? static_cast<double>(static_cast<int64_t>(acc) / static_cast<int64_t>(values.size()))
                  : acc / values.size();
  }
  return acc;
}

class AllReduceTypesTest
    : public ::testing::TestWithParam<std::tuple<CollectiveElementType, CollectiveReduction>> {};

// All-reduce of every element type with every reduction, 3 ranks, in place (send == recv).
TEST_P(AllReduceTypesTest, EveryRankGetsTheReduction) {
  // Plain variables: structured bindings cannot be captured by the rank lambdas under clang.
  const CollectiveElementType type = std::get<0>(GetParam());
  const CollectiveReduction reduction = std::get<1>(GetParam());
  constexpr int kRanks = 3, kCount = 5;
  const bool integer = type <= CollectiveElementType::kUint64;
  std::vector<double> expected(kCount);
  for (int i = 0; i < kCount; ++i) {
    std::vector<double> column;
    for (int r = 0; r < kRanks; ++r) column.push_back(Value(r, i));
    expected[i] = Reduce(reduction, column, integer);
  }
  const std::vector<uint8_t> want = EncodeAs(expected, type);
  OnRanks(kRanks, [&](int rank, HostChannel& channel) {
    std::vector<double> mine(kCount);
    for (int i = 0; i < kCount; ++i) mine[i] = Value(rank, i);
    std::vector<uint8_t> buffer = EncodeAs(mine, type);
    ASSERT_TRUE(IsOk(channel.Run(Op(CollectiveKind::kAllReduce, reduction, type), 0, buffer.data(), buffer.data(),
                                 kCount)));
    EXPECT_EQ(buffer, want) << "rank " << rank;
  });
}

INSTANTIATE_TEST_SUITE_P(
    Types, AllReduceTypesTest,
    ::testing::Combine(::testing::Values(CollectiveElementType::kSint8, CollectiveElementType::kUint8,
                                         CollectiveElementType::kSint16, CollectiveElementType::kUint16,
                                         CollectiveElementType::kSint32, CollectiveElementType::kUint32,
                                         CollectiveElementType::kSint64, CollectiveElementType::kUint64,
                                         CollectiveElementType::kFloat16, CollectiveElementType::kFloat32,
                                         CollectiveElementType::kFloat64, CollectiveElementType::kBFloat16),
                       ::testing::Values(CollectiveReduction::kSum, CollectiveReduction::kProduct,
                                         CollectiveReduction::kMinimum, CollectiveReduction::kMaximum,
                                         CollectiveReduction::kAverage)));

TEST(HostChannelTest, BroadcastAndReduceUseTheRoot) {
  constexpr int kRanks = 4;
  const CollectiveElementType f32 = CollectiveElementType::kFloat32;
  OnRanks(kRanks, [&](int rank, HostChannel& channel) {
    float send[3] = {float(rank), float(rank * 10), float(rank * 100)};
    float recv[3] = {-1, -1, -1};
    ASSERT_TRUE(IsOk(channel.Run(Op(CollectiveKind::kBroadcast, CollectiveReduction::kNone, f32), 2,
                                 reinterpret_cast<uint8_t*>(send), reinterpret_cast<uint8_t*>(recv), 3)));
    EXPECT_EQ(std::vector<float>(recv, recv + 3), (std::vector<float>{2, 20, 200}));
    float reduced[3] = {-1, -1, -1};
    ASSERT_TRUE(IsOk(channel.Run(Op(CollectiveKind::kReduce, CollectiveReduction::kSum, f32), 1,
                                 reinterpret_cast<uint8_t*>(send), reinterpret_cast<uint8_t*>(reduced), 3)));
    if (rank == 1) {
      EXPECT_EQ(std::vector<float>(reduced, reduced + 3), (std::vector<float>{6, 60, 600}));
    } else {
      EXPECT_EQ(std::vector<float>(reduced, reduced + 3), (std::vector<float>{-1, -1, -1})) << "not the root";
    }
  });
}

TEST(HostChannelTest, SendAndRecvPairTwoRanksWithoutTheOthers) {
  OnRanks(3, [&](int rank, HostChannel& channel) {
    const CollectiveElementType i32 = CollectiveElementType::kSint32;
    int32_t data[4] = {rank, rank + 1, rank + 2, rank + 3};
    if (rank == 0) {
      ASSERT_TRUE(IsOk(channel.Run(Op(CollectiveKind::kSend, CollectiveReduction::kNone, i32), 2,
                                   reinterpret_cast<uint8_t*>(data), nullptr, 4)));
    } else if (rank == 2) {
      int32_t got[4] = {};
      ASSERT_TRUE(IsOk(channel.Run(Op(CollectiveKind::kRecv, CollectiveReduction::kNone, i32), 0, nullptr,
                                   reinterpret_cast<uint8_t*>(got), 4)));
      EXPECT_EQ(std::vector<int32_t>(got, got + 4), (std::vector<int32_t>{0, 1, 2, 3}));
    }
    // Rank 1 takes no part and is not waited for.
  });
}

TEST(HostChannelTest, SplitGroupsRanksByColorOrderedByKey) {
  OnRanks(4, [&](int rank, HostChannel& channel) {
    // Colors: even ranks 0, odd ranks 1; keys reverse the order within each color.
    base::StatusOr<base::Ref<Channel>> split = channel.Split(rank % 2, -rank, 0);
    ASSERT_TRUE(IsOk(split.status()));
    ASSERT_TRUE(*split);
    EXPECT_EQ((*split)->count(), 2);
    EXPECT_EQ((*split)->rank(), rank < 2 ? 1 : 0) << "rank " << rank;
    // The new channel works: an all-reduce within each color.
    int32_t value = rank;
    HostChannel* host = HostChannel::Cast(split->get());
    ASSERT_NE(host, nullptr);
    ASSERT_TRUE(IsOk(host->Run(Op(CollectiveKind::kAllReduce, CollectiveReduction::kSum, CollectiveElementType::kSint32),
                               0, reinterpret_cast<uint8_t*>(&value), reinterpret_cast<uint8_t*>(&value), 1)));
    EXPECT_EQ(value, rank % 2 == 0 ? 0 + 2 : 1 + 3);
  });
}

TEST(HostChannelTest, JoinRefusesADuplicateRankAndAnotherCount) {
  base::StatusOr<base::Ref<HostChannel>> first = HostChannel::Join("local:join_test", 0, 2, kTimeout);
  ASSERT_TRUE(IsOk(first.status()));
  EXPECT_EQ(HostChannel::Join("local:join_test", 0, 2, kTimeout).status().code(), base::StatusCode::kAlreadyExists);
  EXPECT_EQ(HostChannel::Join("local:join_test", 1, 3, kTimeout).status().code(),
            base::StatusCode::kInvalidArgument);
  EXPECT_EQ(HostChannel::Join("local:join_test", 2, 2, kTimeout).status().code(),
            base::StatusCode::kInvalidArgument);
}

TEST(HostChannelTest, OpEncodingRoundTripsAndNamesBadFields) {
  for (uint32_t kind = 0; kind <= 8; ++kind) {
    for (uint32_t type = 0; type <= 11; ++type) {
      const bool reducing = kind == 1 || kind == 4 || kind == 5;
      const uint32_t packed = kind | (reducing ? 1u : 0u) << 8 | type << 16;
      base::StatusOr<CollectiveOp> op = CollectiveOp::Unpack(packed);
      ASSERT_TRUE(IsOk(op.status())) << packed;
      EXPECT_EQ(op->Pack(), packed);
    }
  }
  EXPECT_EQ(CollectiveOp::Unpack(0x00090109).status().code(), base::StatusCode::kInvalidArgument);  // kind 9
  EXPECT_EQ(CollectiveOp::Unpack(0x00090601).status().code(), base::StatusCode::kInvalidArgument);  // reduction 6
  EXPECT_EQ(CollectiveOp::Unpack(0x00090102).status().code(), base::StatusCode::kInvalidArgument);  // all_to_all sum
}

}  // namespace
}  // namespace iree_rt::hal
