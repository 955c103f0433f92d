// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/host_channel.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "hal/utils/collective_compute.h"

namespace iree_rt::hal::utils {

using base::Status;
using Clock = std::chrono::steady_clock;

namespace {

// One rank's operands of a group round.
struct Post {
  uint32_t op = 0;
  uint32_t param = 0;
  uint64_t element_count = 0;
  const uint8_t* send = nullptr;
};

// A send waiting for its receiver, in the sender's memory until consumed.
struct Message {
  const uint8_t* data = nullptr;
  uint64_t bytes = 0;
  bool consumed = false;
};

}  // namespace

struct HostChannel::Communicator {
  std::string name;
  int32_t count = 0;
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<bool> joined;
  std::vector<bool> left;
  std::string broken;  // set once: every wait and later operation fails with it
  base::StatusCode broken_code = base::StatusCode::kAborted;

  // Group rounds: arrivals, then finishes; the last finisher opens the next generation.
  uint64_t generation = 0;
  int32_t arrived = 0;
  int32_t finished = 0;
  std::vector<Post> posts;
  std::vector<bool> posted;

  // Point to point: messages from (sender, receiver), oldest first.
  std::map<std::pair<int32_t, int32_t>, std::deque<Message*>> mail;

  // DEADLINE_EXCEEDED for a peer that never came, ABORTED for one that left, INVALID_ARGUMENT
  // for ranks that disagree: every rank gets the same status.
  Status Broken() const { return base::MakeStatus(broken_code, "channel '", name, "' failed: ", broken); }
  void Break(base::StatusCode code, std::string reason) {
    if (broken.empty()) {
      broken = std::move(reason);
      broken_code = code;
    }
    cv.notify_all();
  }
  // The ranks of this round that have not posted; those of them that left.
  std::vector<int32_t> Missing(bool left_only) const {
    std::vector<int32_t> ranks;
    for (int32_t r = 0; r < count; ++r) {
      if (!posted[r] && (!left_only || left[r])) ranks.push_back(r);
    }
    return ranks;
  }
};

namespace {

std::mutex registry_mutex;
std::map<std::string, std::weak_ptr<HostChannel::Communicator>>& Registry() {
  static auto* registry = new std::map<std::string, std::weak_ptr<HostChannel::Communicator>>();
  return *registry;
}

}  // namespace

base::StatusOr<base::Ref<HostChannel>> HostChannel::Join(const std::string& name, int32_t rank, int32_t count,
                                                         std::chrono::milliseconds timeout) {
  if (count < 1 || rank < 0 || rank >= count) {
    return base::InvalidArgumentError("channel '", name, "': rank ", rank, " of ", count, " ranks");
  }
  std::shared_ptr<Communicator> communicator;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    std::erase_if(Registry(), [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<Communicator>& slot = Registry()[name];
    communicator = slot.lock();
    if (!communicator) {
      communicator = std::make_shared<Communicator>();
      communicator->name = name;
      communicator->count = count;
      communicator->joined.assign(count, false);
      communicator->left.assign(count, false);
      communicator->posts.resize(count);
      communicator->posted.assign(count, false);
      slot = communicator;
    }
  }
  std::lock_guard<std::mutex> lock(communicator->mutex);
  if (communicator->count != count) {
    return base::InvalidArgumentError("channel '", name, "': rank ", rank, " joins with ", count,
                                      " ranks, but the channel was created with ", communicator->count);
  }
  if (communicator->joined[rank]) {
    return base::AlreadyExistsError("channel '", name, "': rank ", rank, " of ", count,
                                    " has already joined (each rank needs a rank of its own)");
  }
  communicator->joined[rank] = true;
  return base::MakeRef<HostChannel>(std::move(communicator), rank, count, timeout);
}

HostChannel::HostChannel(std::shared_ptr<Communicator> communicator, int32_t rank, int32_t count,
                         std::chrono::milliseconds timeout)
    : Channel(rank, count), communicator_(std::move(communicator)), timeout_(timeout) {}

HostChannel::~HostChannel() {
  std::lock_guard<std::mutex> lock(communicator_->mutex);
  communicator_->left[rank()] = true;
  communicator_->cv.notify_all();  // waiters for this rank fail rather than time out
}

Status HostChannel::Run(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                        uint64_t element_count) {
  switch (op.kind) {
    case CollectiveKind::kSend:
    case CollectiveKind::kRecv:
    case CollectiveKind::kSendRecv:
      return RunPointToPoint(op, param, send, recv, element_count);
    default:
      return RunGroup(op, param, send, recv, element_count);
  }
}

Status HostChannel::RunGroup(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                             uint64_t element_count) {
  Communicator& c = *communicator_;
  const int32_t me = rank(), n_ranks = count();
  if ((op.kind == CollectiveKind::kBroadcast || op.kind == CollectiveKind::kReduce) &&
      param >= static_cast<uint32_t>(n_ranks)) {
    return base::InvalidArgumentError(op.ToString(), ": root rank ", param, " is not within ", n_ranks, " ranks");
  }
  RT_ASSIGN_OR_RETURN(CollectiveBytes bytes, CollectiveByteCounts(op, n_ranks, element_count));
  const auto deadline = Clock::now() + timeout_;
  std::unique_lock<std::mutex> lock(c.mutex);
  if (!c.broken.empty()) return c.Broken();
  const uint64_t generation = c.generation;
  const std::string what = base::StrCat(op.ToString(), " (round ", generation, ")");
  c.posts[me] = Post{op.Pack(), param, element_count, send};
  c.posted[me] = true;
  if (++c.arrived == n_ranks) c.cv.notify_all();
  auto all_arrived = [&] { return c.arrived == n_ranks || !c.broken.empty() || !c.Missing(true).empty(); };
  if (!c.cv.wait_until(lock, deadline, all_arrived)) {
    c.Break(base::StatusCode::kDeadlineExceeded, base::StrCat("rank ", me, " waited ", timeout_.count(), " ms at ", what, " for ",
                         DescribeRanks(c.Missing(false)), ", which never arrived"));
  } else if (c.broken.empty() && c.arrived != n_ranks) {
    c.Break(base::StatusCode::kAborted, base::StrCat(DescribeRanks(c.Missing(true)), " left the channel while rank ", me,
                         " waited for them at ", what));
  }
  if (!c.broken.empty()) return c.Broken();
  for (int32_t r = 0; r < n_ranks; ++r) {
    const Post& post = c.posts[r];
    if (post.op != c.posts[0].op || post.element_count != c.posts[0].element_count ||
        post.param != c.posts[0].param) {
      auto describe = [](const Post& p) {
        base::StatusOr<CollectiveOp> decoded = CollectiveOp::Unpack(p.op);
        return base::StrCat(decoded.ok() ? decoded->ToString() : "?", " of ", p.element_count,
                            " elements, param ", p.param);
      };
      c.Break(base::StatusCode::kInvalidArgument, base::StrCat("ranks disagree at round ", generation, ": rank 0 runs ", describe(c.posts[0]),
                           ", rank ", r, " runs ", describe(post)));
      return c.Broken();
    }
  }
  std::vector<const uint8_t*> inputs(n_ranks);
  for (int32_t r = 0; r < n_ranks; ++r) inputs[r] = c.posts[r].send;
  lock.unlock();

  // Every peer's send memory stays valid until the finish barrier below.
  std::vector<uint8_t> scratch(bytes.recv);
  const bool writes = WritesResult(op, param, me);
  if (writes) ComputeGroupResult(op, param, inputs, element_count, me, bytes, scratch.data());

  lock.lock();
  c.posted[me] = false;
  if (++c.finished == n_ranks) {
    ++c.generation;
    c.arrived = c.finished = 0;
    c.cv.notify_all();
  } else {
    auto all_finished = [&] { return c.generation != generation || !c.broken.empty(); };
    if (!c.cv.wait_until(lock, deadline + timeout_, all_finished)) {
      c.Break(base::StatusCode::kDeadlineExceeded, base::StrCat("rank ", me, " timed out waiting for the others to finish ", what));
    }
    if (c.generation == generation && !c.broken.empty()) return c.Broken();
  }
  lock.unlock();
  if (writes && bytes.recv) std::memcpy(recv, scratch.data(), bytes.recv);
  return Status::Ok();
}

Status HostChannel::RunPointToPoint(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                                    uint64_t element_count) {
  Communicator& c = *communicator_;
  const int32_t me = rank(), n_ranks = count();
  const uint64_t bytes = element_count * op.element_size();
  // Plain variables, not a structured binding: lambdas below capture them.
  const SendRecvPeers peers = PointToPointPeers(op, param);
  const int32_t to = peers.to, from = peers.from;
  if (to >= n_ranks || from >= n_ranks || (op.kind != CollectiveKind::kSendRecv && (to < -1 || from < -1))) {
    return base::InvalidArgumentError(op.ToString(), ": peer ", to >= n_ranks ? to : from, " is not within ",
                                      n_ranks, " ranks");
  }
  const auto deadline = Clock::now() + timeout_;
  std::unique_lock<std::mutex> lock(c.mutex);
  if (!c.broken.empty()) return c.Broken();
  Message outgoing{send, bytes, false};
  if (to >= 0) {
    c.mail[{me, to}].push_back(&outgoing);
    c.cv.notify_all();
  }
  // Drops |outgoing| from the mailbox if it is still there (a failure before it was taken).
  auto withdraw = [&] {
    if (to < 0) return;
    std::deque<Message*>& box = c.mail[{me, to}];
    box.erase(std::remove(box.begin(), box.end(), &outgoing), box.end());
  };
  if (from >= 0) {
    std::deque<Message*>& box = c.mail[{from, me}];
    auto ready = [&] { return !box.empty() || !c.broken.empty() || c.left[from]; };
    if (!c.cv.wait_until(lock, deadline, ready)) {
      c.Break(base::StatusCode::kDeadlineExceeded, base::StrCat("rank ", me, " waited ", timeout_.count(), " ms to receive from rank ", from,
                           ", which sent nothing (", op.ToString(), ")"));
    } else if (c.broken.empty() && box.empty()) {
      c.Break(base::StatusCode::kAborted, base::StrCat("rank ", from, " left the channel while rank ", me, " waited to receive from it"));
    }
    if (!c.broken.empty()) {
      withdraw();
      return c.Broken();
    }
    Message* incoming = box.front();
    box.pop_front();
    if (incoming->bytes != bytes) {
      c.Break(base::StatusCode::kInvalidArgument, base::StrCat("rank ", from, " sent ", incoming->bytes, " bytes; rank ", me, " expected ", bytes,
                           " (", op.ToString(), ")"));
      withdraw();
      return c.Broken();
    }
    lock.unlock();
    std::memcpy(recv, incoming->data, bytes);
    lock.lock();
    incoming->consumed = true;
    c.cv.notify_all();
  } else if (op.kind == CollectiveKind::kSendRecv && recv) {
    std::memset(recv, 0, bytes);  // a rank nobody sends to receives zeros
  }
  if (to >= 0) {
    auto taken = [&] { return outgoing.consumed || !c.broken.empty() || c.left[to]; };
    if (!c.cv.wait_until(lock, deadline, taken)) {
      c.Break(base::StatusCode::kDeadlineExceeded, base::StrCat("rank ", me, " waited ", timeout_.count(), " ms for rank ", to,
                           " to receive what it sent (", op.ToString(), ")"));
    } else if (!outgoing.consumed && c.broken.empty()) {
      c.Break(base::StatusCode::kAborted, base::StrCat("rank ", to, " left the channel before receiving from rank ", me));
    }
    if (!outgoing.consumed) {
      withdraw();
      return c.Broken();
    }
  }
  return Status::Ok();
}

base::StatusOr<base::Ref<Channel>> HostChannel::SplitImpl(int32_t color, int32_t key, uint64_t flags) {
  if (flags != 0) return base::InvalidArgumentError("hal.channel.split: unknown flags 0x", std::hex, flags);
  // Every rank shares (color, key) through an all_gather of two si32 values.
  const int32_t mine[2] = {color, key};
  std::vector<int32_t> all(2 * count());
  CollectiveOp gather{CollectiveKind::kAllGather, CollectiveReduction::kNone, CollectiveElementType::kSint32};
  RT_RETURN_IF_ERROR(Run(gather, 0, reinterpret_cast<const uint8_t*>(mine), reinterpret_cast<uint8_t*>(all.data()),
                         2 * static_cast<uint64_t>(count())));
  const uint32_t split = splits_++;
  if (color < 0) return base::Ref<Channel>();
  const SplitPlace place = PlaceInSplit(all, color, rank());
  RT_ASSIGN_OR_RETURN(base::Ref<HostChannel> channel,
                      Join(base::StrCat(communicator_->name, "/split", split, "/color", color), place.rank,
                           place.count, timeout_));
  return base::Ref<Channel>(std::move(channel));
}

}  // namespace iree_rt::hal::utils
