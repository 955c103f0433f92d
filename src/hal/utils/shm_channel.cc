// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/shm_channel.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "hal/utils/collective_compute.h"
#include "hal/utils/rendezvous.h"

namespace iree_rt::hal::utils {

using base::Status;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t kMagic = 0x48535249;  // "IRSH"
constexpr int32_t kMaxRanks = 64;
constexpr size_t kNameBytes = 64;

struct Post {
  uint32_t op;
  uint32_t param;
  uint64_t element_count;
};

struct Mailbox {
  uint64_t bytes;
  uint64_t posted;
  uint64_t consumed;
};

uint64_t SlotBytes() {
  const char* env = std::getenv("IREE_RT_SHM_SLOT_BYTES");
  const uint64_t bytes = env && *env ? std::strtoull(env, nullptr, 10) : 0;
  return bytes ? (bytes + 7) / 8 * 8 : uint64_t{64} << 20;  // small values: tests of the cutting
}

}  // namespace

struct ShmChannel::Segment {
  uint32_t magic;
  int32_t count;
  uint64_t slot_bytes;
  pthread_mutex_t mutex;  // process-shared, robust
  pthread_cond_t cond;    // process-shared, CLOCK_MONOTONIC
  int32_t attached;
  int32_t departed;  // ranks whose channel was destroyed
  int32_t broken_code;
  char broken[512];       // set once: every wait and later operation fails with it
  uint64_t generation;
  int32_t arrived;
  int32_t finished;
  int32_t pids[kMaxRanks];
  uint8_t left[kMaxRanks];
  uint8_t posted[kMaxRanks];
  Post posts[kMaxRanks];
  Mailbox mail[kMaxRanks][kMaxRanks];  // [sender][receiver]

  static size_t HeaderBytes() { return (sizeof(Segment) + 4095) / 4096 * 4096; }

  Status Broken() const {
    return base::MakeStatus(static_cast<base::StatusCode>(broken_code), "shared-memory channel failed: ", broken);
  }
  void Break(base::StatusCode code, const std::string& reason) {
    if (!broken[0]) {
      std::snprintf(broken, sizeof(broken), "%s", reason.c_str());
      broken_code = static_cast<int32_t>(code);
    }
    pthread_cond_broadcast(&cond);
  }
};

namespace {

// Holds the segment's mutex; a peer that died holding it breaks the channel.
class Locked {
 public:
  explicit Locked(ShmChannel::Segment* segment) : segment_(segment) {
    if (pthread_mutex_lock(&segment_->mutex) == EOWNERDEAD) {
      pthread_mutex_consistent(&segment_->mutex);
      segment_->Break(base::StatusCode::kAborted, "a rank's process exited while holding the channel's lock");
    }
  }
  ~Locked() { pthread_mutex_unlock(&segment_->mutex); }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;

 private:
  ShmChannel::Segment* segment_;
};

// Waits, holding the lock, until |done| or a failure: the deadline (|on_timeout| says what was
// waited for) or a watched rank gone (its process exited or its channel was destroyed).
template <typename Done, typename OnTimeout>
Status WaitFor(ShmChannel::Segment* s, Clock::time_point deadline, Done done, OnTimeout on_timeout,
               const std::vector<int32_t>& watched, int32_t me, const std::string& what) {
  while (!done() && !s->broken[0]) {
    const Clock::time_point now = Clock::now();
    if (now > deadline) {
      s->Break(base::StatusCode::kDeadlineExceeded, on_timeout());
      break;
    }
    for (int32_t peer : watched) {
      const bool exited = s->pids[peer] > 0 && ::kill(s->pids[peer], 0) != 0 && errno == ESRCH;
      if (exited || s->left[peer]) {
        s->Break(base::StatusCode::kAborted,
                 base::StrCat("rank ", peer, exited ? base::StrCat(" (pid ", s->pids[peer], ") exited") : " left",
                              " while rank ", me, " waited at ", what));
        break;
      }
    }
    if (s->broken[0]) break;
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const auto slice = std::min<Clock::duration>(std::chrono::milliseconds(50), deadline - now);
    const long nanos = static_cast<long>(std::chrono::duration_cast<std::chrono::nanoseconds>(slice).count());
    ts.tv_nsec += nanos % 1000000000L;
    ts.tv_sec += nanos / 1000000000L + ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    if (pthread_cond_timedwait(&s->cond, &s->mutex, &ts) == EOWNERDEAD) {
      pthread_mutex_consistent(&s->mutex);
      s->Break(base::StatusCode::kAborted, "a rank's process exited while holding the channel's lock");
    }
  }
  return s->broken[0] ? s->Broken() : Status::Ok();
}

std::vector<int32_t> AllBut(int32_t count, int32_t me) {
  std::vector<int32_t> ranks;
  for (int32_t r = 0; r < count; ++r) {
    if (r != me) ranks.push_back(r);
  }
  return ranks;
}

}  // namespace

ShmChannel::ShmChannel(int32_t rank, int32_t count, Segment* segment, size_t mapped_bytes, std::string name,
                       std::chrono::milliseconds timeout)
    : Channel(rank, count), segment_(segment), mapped_bytes_(mapped_bytes), name_(std::move(name)),
      timeout_(timeout) {}

ShmChannel::~ShmChannel() {
  {
    Locked lock(segment_);
    segment_->left[rank()] = 1;
    // Ranks that never came kept the name alive: the last to leave removes it.
    if (++segment_->departed == segment_->attached && segment_->attached < segment_->count) {
      shm_unlink(name_.c_str());
    }
    pthread_cond_broadcast(&segment_->cond);
  }
  munmap(segment_, mapped_bytes_);
}

uint8_t* ShmChannel::slot(int32_t rank) const {
  return reinterpret_cast<uint8_t*>(segment_) + Segment::HeaderBytes() + rank * segment_->slot_bytes;
}

base::StatusOr<base::Ref<ShmChannel>> ShmChannel::Attach(const std::string& name, bool create, int32_t rank,
                                                         int32_t count, std::chrono::milliseconds timeout) {
  const uint64_t slot_bytes = SlotBytes();
  int fd = -1;
  const auto deadline = Clock::now() + timeout;
  while (true) {
    fd = shm_open(name.c_str(), create ? O_CREAT | O_EXCL | O_RDWR : O_RDWR, 0600);
    if (fd >= 0 || create || errno != ENOENT) break;
    if (Clock::now() > deadline) {
      return base::DeadlineExceededError("shared-memory channel '", name, "': rank ", rank, " waited ",
                                         timeout.count(), " ms for rank 0 to create it");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (fd < 0) {
    return base::UnavailableError("shared-memory channel '", name, "': shm_open: ", std::strerror(errno));
  }
  size_t size = Segment::HeaderBytes() + count * slot_bytes;
  if (create) {
    if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
      const int error = errno;
      close(fd);
      shm_unlink(name.c_str());
      return base::ResourceExhaustedError("shared-memory channel: cannot size '", name, "' to ", size,
                                          " bytes: ", std::strerror(error));
    }
  } else {
    struct stat info;
    if (fstat(fd, &info) != 0 || static_cast<size_t>(info.st_size) < Segment::HeaderBytes()) {
      close(fd);
      return base::InvalidArgumentError("shared-memory channel '", name, "' is not a channel segment");
    }
    size = static_cast<size_t>(info.st_size);
  }
  void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) {
    if (create) shm_unlink(name.c_str());
    return base::ResourceExhaustedError("shared-memory channel '", name, "': mmap of ", size, " bytes failed");
  }
  auto* segment = static_cast<Segment*>(mapped);
  if (create) {
    pthread_mutexattr_t mutex_attr;
    pthread_mutexattr_init(&mutex_attr);
    pthread_mutexattr_setpshared(&mutex_attr, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&mutex_attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&segment->mutex, &mutex_attr);
    pthread_mutexattr_destroy(&mutex_attr);
    pthread_condattr_t cond_attr;
    pthread_condattr_init(&cond_attr);
    pthread_condattr_setpshared(&cond_attr, PTHREAD_PROCESS_SHARED);
    pthread_condattr_setclock(&cond_attr, CLOCK_MONOTONIC);
    pthread_cond_init(&segment->cond, &cond_attr);
    pthread_condattr_destroy(&cond_attr);
    segment->count = count;
    segment->slot_bytes = slot_bytes;
    std::atomic_thread_fence(std::memory_order_release);
    segment->magic = kMagic;
  } else if (segment->magic != kMagic || segment->count != count ||
             size < Segment::HeaderBytes() + count * segment->slot_bytes) {
    const int32_t other = segment->magic == kMagic ? segment->count : -1;
    munmap(mapped, size);
    return base::InvalidArgumentError("shared-memory channel '", name, "': rank ", rank, " joins with ", count,
                                      " ranks, but the channel was created with ", other);
  }
  {
    Locked lock(segment);
    if (segment->pids[rank] != 0) {
      munmap(mapped, size);
      return base::AlreadyExistsError("shared-memory channel '", name, "': rank ", rank,
                                      " has already joined (each rank needs a rank of its own)");
    }
    segment->pids[rank] = getpid();
    if (++segment->attached == count) shm_unlink(name.c_str());  // everyone is in: nothing to leave behind
  }
  return base::MakeRef<ShmChannel>(rank, count, segment, size, name, timeout);
}

base::StatusOr<base::Ref<ShmChannel>> ShmChannel::Join(const std::string& rendezvous, int32_t rank, int32_t count,
                                                       std::chrono::milliseconds timeout) {
  if (count < 1 || count > kMaxRanks || rank < 0 || rank >= count) {
    return base::InvalidArgumentError("shared-memory channel: rank ", rank, " of ", count, " ranks (at most ",
                                      kMaxRanks, ")");
  }
  base::Ref<ShmChannel> created;
  auto make = [&]() -> base::StatusOr<std::vector<uint8_t>> {
    std::random_device random;
    const std::string name = base::StrCat("/iree_rt.", getpid(), ".", random(), random());
    RT_ASSIGN_OR_RETURN(created, Attach(name, /*create=*/true, rank, count, timeout));
    std::vector<uint8_t> bytes(kNameBytes, 0);
    std::memcpy(bytes.data(), name.data(), std::min(name.size(), kNameBytes - 1));
    return bytes;
  };
  RT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ShareFromRoot(rendezvous, rank, count, kNameBytes, make, timeout));
  if (rank == 0) return created;
  const std::string name(reinterpret_cast<const char*>(bytes.data()),
                         strnlen(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return Attach(name, /*create=*/false, rank, count, timeout);
}

Status ShmChannel::Run(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                       uint64_t element_count) {
  const uint64_t size = op.element_size();
  const uint64_t ranks = static_cast<uint64_t>(count());
  RT_ASSIGN_OR_RETURN(CollectiveBytes bytes, CollectiveByteCounts(op, count(), element_count));
  const uint64_t slot_bytes = segment_->slot_bytes;
  const bool point_to_point = op.kind == CollectiveKind::kSend || op.kind == CollectiveKind::kRecv ||
                              op.kind == CollectiveKind::kSendRecv;
  const uint64_t moved = point_to_point ? element_count * size : bytes.send;
  if (moved <= slot_bytes) {
    return point_to_point ? RunPointToPoint(op, param, send, recv, element_count)
                          : RunGroup(op, param, send, recv, element_count);
  }
  // More than a slot holds: the same collective over pieces that fit, in the same order on every
  // rank (all ranks know the op and count, so they cut alike).
  const bool blocked = op.kind == CollectiveKind::kReduceScatter || op.kind == CollectiveKind::kAllToAll ||
                       op.kind == CollectiveKind::kAllGather;
  const uint64_t per_piece = blocked ? slot_bytes / (size * (op.kind == CollectiveKind::kAllGather ? 1 : ranks))
                                     : slot_bytes / size;
  if (per_piece == 0) {
    return base::ResourceExhaustedError(op.ToString(), ": the shared-memory channel's ", slot_bytes,
                                        "-byte slots cannot hold one piece (IREE_RT_SHM_SLOT_BYTES)");
  }
  if (!blocked) {  // elementwise: all_reduce, reduce, broadcast, send, recv, send_recv
    for (uint64_t first = 0; first < element_count; first += per_piece) {
      const uint64_t n = std::min(per_piece, element_count - first);
      const uint8_t* piece_send = send ? send + first * size : nullptr;
      uint8_t* piece_recv = recv ? recv + first * size : nullptr;
      RT_RETURN_IF_ERROR(point_to_point ? RunPointToPoint(op, param, piece_send, piece_recv, n)
                                        : RunGroup(op, param, piece_send, piece_recv, n));
    }
    return Status::Ok();
  }
  // Block kinds: each rank's block (all_gather: its part; reduce_scatter and all_to_all: one block
  // per destination) is cut into pieces; a piece gathers the same range of every block.
  const uint64_t block = op.kind == CollectiveKind::kReduceScatter ? element_count : element_count / ranks;
  for (uint64_t first = 0; first < block; first += per_piece) {
    const uint64_t n = std::min(per_piece, block - first);
    if (op.kind == CollectiveKind::kAllGather) {
      std::vector<uint8_t> gathered(ranks * n * size);
      RT_RETURN_IF_ERROR(RunGroup(op, param, send + first * size, gathered.data(), ranks * n));
      for (uint64_t r = 0; r < ranks; ++r) {
        std::memcpy(recv + (r * block + first) * size, gathered.data() + r * n * size, n * size);
      }
      continue;
    }
    std::vector<uint8_t> piece_send(ranks * n * size);
    for (uint64_t b = 0; b < ranks; ++b) {
      std::memcpy(piece_send.data() + b * n * size, send + (b * block + first) * size, n * size);
    }
    if (op.kind == CollectiveKind::kReduceScatter) {
      RT_RETURN_IF_ERROR(RunGroup(op, param, piece_send.data(), recv + first * size, n));
    } else {  // all_to_all: piece r of the result comes from rank r
      std::vector<uint8_t> piece_recv(ranks * n * size);
      RT_RETURN_IF_ERROR(RunGroup(op, param, piece_send.data(), piece_recv.data(), ranks * n));
      for (uint64_t r = 0; r < ranks; ++r) {
        std::memcpy(recv + (r * block + first) * size, piece_recv.data() + r * n * size, n * size);
      }
    }
  }
  return Status::Ok();
}

Status ShmChannel::RunGroup(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                            uint64_t element_count) {
  Segment* s = segment_;
  const int32_t me = rank(), n_ranks = count();
  if ((op.kind == CollectiveKind::kBroadcast || op.kind == CollectiveKind::kReduce) &&
      param >= static_cast<uint32_t>(n_ranks)) {
    return base::InvalidArgumentError(op.ToString(), ": root rank ", param, " is not within ", n_ranks, " ranks");
  }
  RT_ASSIGN_OR_RETURN(CollectiveBytes bytes, CollectiveByteCounts(op, n_ranks, element_count));
  if (bytes.send) std::memcpy(slot(me), send, bytes.send);  // nobody reads it before we arrive
  const auto deadline = Clock::now() + timeout_;
  std::vector<uint8_t> scratch(bytes.recv);
  {
    Locked lock(s);
    if (s->broken[0]) return s->Broken();
    const uint64_t generation = s->generation;
    const std::string what = base::StrCat(op.ToString(), " (round ", generation, ")");
    s->posts[me] = Post{op.Pack(), param, element_count};
    s->posted[me] = 1;
    if (++s->arrived == n_ranks) pthread_cond_broadcast(&s->cond);
    auto missing = [&] {
      std::vector<int32_t> ranks;
      for (int32_t r = 0; r < n_ranks; ++r) {
        if (!s->posted[r]) ranks.push_back(r);
      }
      return ranks;
    };
    RT_RETURN_IF_ERROR(WaitFor(
        s, deadline, [&] { return s->arrived == n_ranks; },
        [&] { return base::StrCat("rank ", me, " waited ", timeout_.count(), " ms at ", what, " for ",
                                  DescribeRanks(missing()), ", which never arrived"); },
        missing(), me, what));
    for (int32_t r = 0; r < n_ranks; ++r) {
      const Post& post = s->posts[r];
      if (post.op != s->posts[0].op || post.element_count != s->posts[0].element_count ||
          post.param != s->posts[0].param) {
        s->Break(base::StatusCode::kInvalidArgument,
                 base::StrCat("ranks disagree at round ", generation, ": rank 0 posts op 0x", std::hex,
                              s->posts[0].op, std::dec, " of ", s->posts[0].element_count, " elements, rank ", r,
                              " op 0x", std::hex, post.op, std::dec, " of ", post.element_count));
        return s->Broken();
      }
    }
  }
  // Every slot stays as posted until the finish barrier below.
  std::vector<const uint8_t*> inputs(n_ranks);
  for (int32_t r = 0; r < n_ranks; ++r) inputs[r] = slot(r);
  const bool writes = WritesResult(op, param, me);
  if (writes) ComputeGroupResult(op, param, inputs, element_count, me, bytes, scratch.data());
  {
    Locked lock(s);
    const uint64_t generation = s->generation;
    s->posted[me] = 0;
    if (++s->finished == n_ranks) {
      ++s->generation;
      s->arrived = s->finished = 0;
      pthread_cond_broadcast(&s->cond);
    } else {
      Status status = WaitFor(
          s, deadline + timeout_, [&] { return s->generation != generation; },
          [&] { return base::StrCat("rank ", me, " timed out waiting for the others to finish a round"); },
          AllBut(n_ranks, me), me, "the end of a round");
      if (!status.ok() && s->generation == generation) return status;
    }
  }
  if (writes && bytes.recv) std::memcpy(recv, scratch.data(), bytes.recv);
  return Status::Ok();
}

Status ShmChannel::RunPointToPoint(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                                   uint64_t element_count) {
  Segment* s = segment_;
  const int32_t me = rank(), n_ranks = count();
  const uint64_t bytes = element_count * op.element_size();
  // Plain variables, not a structured binding: lambdas below capture them.
  const SendRecvPeers peers = PointToPointPeers(op, param);
  const int32_t to = peers.to, from = peers.from;
  if (to >= n_ranks || from >= n_ranks || (op.kind == CollectiveKind::kSend && to < 0) ||
      (op.kind == CollectiveKind::kRecv && from < 0)) {
    return base::InvalidArgumentError(op.ToString(), ": peer ", to >= n_ranks || to < -1 ? to : from,
                                      " is not within ", n_ranks, " ranks");
  }
  if (to >= 0) std::memcpy(slot(me), send, bytes);
  const auto deadline = Clock::now() + timeout_;
  Locked lock(s);
  if (s->broken[0]) return s->Broken();
  if (to >= 0) {
    Mailbox& out = s->mail[me][to];
    out.bytes = bytes;
    ++out.posted;
    pthread_cond_broadcast(&s->cond);
  }
  if (from >= 0) {
    Mailbox& in = s->mail[from][me];
    const std::string what = base::StrCat(op.ToString(), " from rank ", from);
    RT_RETURN_IF_ERROR(WaitFor(
        s, deadline, [&] { return in.posted > in.consumed; },
        [&] { return base::StrCat("rank ", me, " waited ", timeout_.count(), " ms to receive from rank ", from,
                                  ", which sent nothing (", op.ToString(), ")"); },
        {from}, me, what));
    if (in.bytes != bytes) {
      s->Break(base::StatusCode::kInvalidArgument, base::StrCat("rank ", from, " sent ", in.bytes, " bytes; rank ",
                                                                me, " expected ", bytes, " (", op.ToString(), ")"));
      return s->Broken();
    }
    std::memcpy(recv, slot(from), bytes);  // the sender waits for this copy before reusing its slot
    ++in.consumed;
    pthread_cond_broadcast(&s->cond);
  } else if (op.kind == CollectiveKind::kSendRecv && recv) {
    std::memset(recv, 0, bytes);
  }
  if (to >= 0) {
    Mailbox& out = s->mail[me][to];
    const std::string what = base::StrCat(op.ToString(), " to rank ", to);
    RT_RETURN_IF_ERROR(WaitFor(
        s, deadline, [&] { return out.consumed == out.posted; },
        [&] { return base::StrCat("rank ", me, " waited ", timeout_.count(), " ms for rank ", to,
                                  " to receive what it sent (", op.ToString(), ")"); },
        {to}, me, what));
  }
  return Status::Ok();
}

base::StatusOr<base::Ref<Channel>> ShmChannel::SplitImpl(int32_t color, int32_t key, uint64_t flags) {
  if (flags != 0) return base::InvalidArgumentError("hal.channel.split: unknown flags 0x", std::hex, flags);
  const int32_t mine[2] = {color, key};
  std::vector<int32_t> all(2 * count());
  const CollectiveOp gather{CollectiveKind::kAllGather, CollectiveReduction::kNone, CollectiveElementType::kSint32};
  RT_RETURN_IF_ERROR(Run(gather, 0, reinterpret_cast<const uint8_t*>(mine), reinterpret_cast<uint8_t*>(all.data()),
                         2 * static_cast<uint64_t>(count())));
  const uint32_t split = splits_++;
  if (color < 0) return base::Ref<Channel>();
  const SplitPlace place = PlaceInSplit(all, color, rank());
  // Named after this channel (unique to the job): the new rank 0 creates it, the others wait for it.
  const std::string name = base::StrCat(name_, ".s", split, ".c", color);
  RT_ASSIGN_OR_RETURN(base::Ref<ShmChannel> channel,
                      Attach(name, place.rank == 0, place.rank, place.count, timeout_));
  return base::Ref<Channel>(std::move(channel));
}

}  // namespace iree_rt::hal::utils
