// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Device::QueueRead and QueueReadMany: file bytes into buffers, in parallel on the host and, for
// memory the host cannot map, streamed through staging slots with copies in flight.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "hal/device.h"
#include "hal/staging_pool.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;

// Host reads are cut into pieces of this size so several threads share a large read.
constexpr uint64_t kHostPiece = 4ull << 20;
// At most this many staged chunks per call (a larger total gets larger chunks).
constexpr uint64_t kMaxChunks = 4096;

// Threads worth using for |total| bytes: one per two pieces, at most |cap| and the cores.
unsigned ThreadsFor(uint64_t total, uint64_t piece, unsigned cap) {
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::clamp<uint64_t>(total / (2 * piece), 1, std::min<uint64_t>(cap, cores)));
}

// Runs work(i) for every i in [0, count) on up to |threads| threads (the caller's among them).
// The first failure is returned and stops the others from taking more work. Threads that cannot
// be started leave their share to the rest.
template <typename Work>
Status ParallelFor(size_t count, unsigned threads, Work work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  Status first;
  auto run = [&]() {
    for (size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < count;) {
      Status status = work(i);
      if (!status.ok()) {
        std::lock_guard<std::mutex> lock(mutex);
        if (first.ok()) first = std::move(status);
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(threads, count); ++t) {
    try {
      pool.emplace_back(run);
    } catch (const std::system_error&) {
      break;
    }
  }
  run();
  for (std::thread& thread : pool) thread.join();
  return first;
}

// The reads cut at every multiple of |piece| bytes of each read.
std::vector<FileRead> CutReads(const std::vector<FileRead>& reads, uint64_t piece) {
  std::vector<FileRead> pieces;
  for (const FileRead& read : reads) {
    for (uint64_t done = 0; done < read.length; done += piece) {
      pieces.push_back({read.source, read.source_offset + done, read.target, read.target_offset + done,
                        std::min(piece, read.length - done)});
    }
  }
  return pieces;
}

// A staged chunk: up to one slot's worth of consecutive read bytes (pieces of several reads).
struct Chunk {
  std::vector<FileRead> pieces;  // target_offset as in the read; staged back to back from 0
  uint64_t bytes = 0;
  size_t slot = 0;
  uint64_t use = 0;  // this chunk is the use-th (from 1) of its slot
};

}  // namespace

Status Device::QueueRead(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const Ref<File>& source, uint64_t source_offset, const Ref<Buffer>& target,
                         uint64_t target_offset, uint64_t length) {
  const FileRead read{source, source_offset, target, target_offset, length};
  return QueueReadMany(affinity, wait, signal, std::span<const FileRead>(&read, 1));
}

Status Device::QueueReadMany(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             std::span<const FileRead> reads) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  std::vector<FileRead> host, staged;
  for (const FileRead& read : reads) {
    if (!read.source || !read.target) return base::InvalidArgumentError("queue read with a null file or buffer");
    const uint64_t file_length = read.source->length();
    if (read.source_offset > file_length || read.length > file_length - read.source_offset) {
      return base::OutOfRangeError("read of [", read.source_offset, ", +", read.length,
                                   ") past the end of a ", file_length, "-byte file");
    }
    RT_RETURN_IF_ERROR(read.target->ResolveRange(read.target_offset, read.length).status());
    if (read.length == 0) continue;
    (read.target->memory_type() & MemoryType::kHostVisible ? host : staged).push_back(read);
  }
  if (staged.empty()) return QueueHostReads(wait, signal, std::move(host));
  if (host.empty()) return QueueStagedReads(affinity, wait, signal, std::move(staged));
  // Both kinds: the host reads first, then the staged ones.
  RT_ASSIGN_OR_RETURN(Ref<Semaphore> host_done, CreateSemaphore(0));
  const SemaphorePoint point{host_done.get(), 1};
  RT_RETURN_IF_ERROR(QueueHostReads(wait, SemaphoreList(&point, 1), std::move(host)));
  return QueueStagedReads(affinity, SemaphoreList(&point, 1), signal, std::move(staged));
}

Status Device::QueueHostReads(SemaphoreList wait, SemaphoreList signal, std::vector<FileRead> reads) {
  return QueueHostCallImpl(wait, signal, [reads = std::move(reads)]() -> Status {
    uint64_t total = 0;
    for (const FileRead& read : reads) total += read.length;
    const std::vector<FileRead> pieces = CutReads(reads, kHostPiece);
    return ParallelFor(pieces.size(), ThreadsFor(total, kHostPiece, 8), [&](size_t i) -> Status {
      const FileRead& piece = pieces[i];
      RT_ASSIGN_OR_RETURN(uint8_t* ptr, piece.target->Map(MemoryAccess::kWrite, piece.target_offset, piece.length));
      return piece.source->Read(piece.source_offset, ptr, piece.length);
    });
  });
}

// Slot s of the ring has two timelines: |filled| reaches k when a host thread has put the slot's
// k-th chunk in it, |freed| when the device has copied that chunk out. Every copy is queued up
// front (waiting on |filled|); one host call then fills slots, each thread waiting for its slot's
// previous copy before reusing it; a last host call, after every copy, returns the slots.
Status Device::QueueStagedReads(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                                std::vector<FileRead> reads) {
  uint64_t total = 0;
  for (const FileRead& read : reads) total += read.length;
  uint64_t chunk_size = StagingPool::kSlotSize;
  if (total / chunk_size >= kMaxChunks) chunk_size = (total / kMaxChunks + 4095) / 4096 * 4096;
  chunk_size = std::min(chunk_size, (total + 63) / 64 * 64);

  // Reads packed back to back into chunks.
  std::vector<Chunk> chunks(1);
  for (const FileRead& read : reads) {
    for (uint64_t done = 0; done < read.length;) {
      if (chunks.back().bytes == chunk_size) chunks.emplace_back();
      Chunk& chunk = chunks.back();
      const uint64_t n = std::min(read.length - done, chunk_size - chunk.bytes);
      chunk.pieces.push_back({read.source, read.source_offset + done, read.target, read.target_offset + done, n});
      chunk.bytes += n;
      done += n;
    }
  }
  // Thread t fills chunks t, t+T, ... alternating between its two slots.
  const unsigned threads = ThreadsFor(total, chunk_size, 8);
  const size_t slot_count = std::min<size_t>(2 * threads, chunks.size());
  std::vector<uint64_t> uses(slot_count, 0);
  for (size_t c = 0; c < chunks.size(); ++c) {
    const size_t thread = c % threads, round = c / threads;
    chunks[c].slot = std::min(slot_count - 1, 2 * thread + round % 2);
    chunks[c].use = ++uses[chunks[c].slot];
  }

  struct Slot {
    Ref<Buffer> staging;
    Ref<Semaphore> filled, freed;
  };
  std::vector<Slot> slots(slot_count);
  for (Slot& slot : slots) {
    RT_ASSIGN_OR_RETURN(slot.staging, staging_pool_->Take(allocator(), chunk_size));
    RT_ASSIGN_OR_RETURN(slot.filled, CreateSemaphore(0));
    RT_ASSIGN_OR_RETURN(slot.freed, CreateSemaphore(0));
  }
  auto fail_slots = [](const std::vector<Slot>& slots, const Status& status) {
    for (const Slot& slot : slots) {
      slot.filled->Fail(status);
      slot.freed->Fail(status);
    }
  };
  auto fail_all = [&](Status status) {
    fail_slots(slots, status);
    for (const SemaphorePoint& point : signal) point.semaphore->Fail(status);
    return status;
  };

  for (const Chunk& chunk : chunks) {
    const Slot& slot = slots[chunk.slot];
    const SemaphorePoint filled{slot.filled.get(), chunk.use}, freed{slot.freed.get(), chunk.use};
    Status queued = QueueTransferImpl(SemaphoreList(&filled, 1), SemaphoreList(&freed, 1), [&](CommandBuffer& cb) {
      uint64_t staged = 0;
      for (const FileRead& piece : chunk.pieces) {
        RT_RETURN_IF_ERROR(cb.Copy(BufferRef{slot.staging, 0, staged, piece.length},
                                   BufferRef{piece.target, 0, piece.target_offset, piece.length}, piece.length));
        staged += piece.length;
      }
      return Status::Ok();
    });
    if (!queued.ok()) return fail_all(std::move(queued));
  }

  RT_ASSIGN_OR_RETURN(Ref<Semaphore> filled_all, CreateSemaphore(0));
  const SemaphorePoint filled_point{filled_all.get(), 1};
  // Whatever stops the fills (a failed wait fence, a read error, the device going away) fails the
  // slots, so no copy stays parked on a fill that will never come.
  filled_all->NotifyAt(1, [slots, fail_slots](Status status) {
    if (!status.ok()) fail_slots(slots, status);
  });
  Status queued = QueueHostCallImpl(wait, SemaphoreList(&filled_point, 1),
                                    [chunks = std::move(chunks), slots, threads, fail_slots]() -> Status {
    return ParallelFor(threads, threads, [&](size_t thread) -> Status {
      for (size_t c = thread; c < chunks.size(); c += threads) {
        const Chunk& chunk = chunks[c];
        const Slot& slot = slots[chunk.slot];
        Status status = [&]() -> Status {
          if (chunk.use > 1) RT_RETURN_IF_ERROR(slot.freed->Wait(chunk.use - 1, kInfiniteTimeout));
          RT_ASSIGN_OR_RETURN(uint8_t* ptr, slot.staging->Map(MemoryAccess::kWrite, 0, chunk.bytes));
          for (const FileRead& piece : chunk.pieces) {
            RT_RETURN_IF_ERROR(piece.source->Read(piece.source_offset, ptr, piece.length));
            ptr += piece.length;
          }
          return slot.filled->Signal(chunk.use);
        }();
        if (!status.ok()) {
          fail_slots(slots, status);  // the other threads stop at their next wait
          return status;
        }
      }
      return Status::Ok();
    });
  });
  if (!queued.ok()) return fail_all(std::move(queued));

  // The caller's signal once every slot's last copy is done; the slots then go back to the pool.
  std::vector<SemaphorePoint> done{filled_point};
  for (size_t s = 0; s < slot_count; ++s) done.push_back({slots[s].freed.get(), uses[s]});
  queued = QueueHostCallImpl(done, signal, [pool = staging_pool_, slots]() mutable {
    for (Slot& slot : slots) pool->Give(std::move(slot.staging));
    return Status::Ok();
  });
  if (!queued.ok()) return fail_all(std::move(queued));
  return Status::Ok();
}

}  // namespace iree_rt::hal
