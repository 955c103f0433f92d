// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/rendezvous.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

#include "hal/utils/mpi_library.h"

namespace iree_rt::hal::utils {

namespace {

struct Board {
  std::vector<uint8_t> bytes;
  bool ready = false;
  base::Status failure;  // rank 0 could not make the bytes
  int32_t readers = 0;   // ranks that still have to read
};

std::mutex board_mutex;
std::condition_variable board_cv;
std::map<std::string, Board>& Boards() {
  static auto* boards = new std::map<std::string, Board>();
  return *boards;
}

base::StatusOr<std::vector<uint8_t>> ShareInProcess(
    const std::string& name, int32_t rank, int32_t count,
    const std::function<base::StatusOr<std::vector<uint8_t>>()>& make, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(board_mutex);
  Board& board = Boards()[name];
  if (rank == 0) {
    if (board.ready) {
      return base::AlreadyExistsError("rendezvous '", name, "': rank 0 has already published (each rank ",
                                      "needs a rank of its own)");
    }
    lock.unlock();
    base::StatusOr<std::vector<uint8_t>> made = make();
    lock.lock();
    Board& fresh = Boards()[name];
    if (made.ok()) fresh.bytes = *made; else fresh.failure = made.status();
    fresh.ready = true;
    fresh.readers += count - 1;
    if (fresh.readers == 0) Boards().erase(name);
    board_cv.notify_all();
    return made;
  }
  auto ready = [&] { return Boards()[name].ready; };
  if (!board_cv.wait_for(lock, timeout, ready)) {
    return base::DeadlineExceededError("rendezvous '", name, "': rank ", rank, " of ", count, " waited ",
                                       timeout.count(), " ms for rank 0, which never published");
  }
  Board& published = Boards()[name];
  base::StatusOr<std::vector<uint8_t>> result =
      published.failure.ok() ? base::StatusOr<std::vector<uint8_t>>(published.bytes)
                             : base::StatusOr<std::vector<uint8_t>>(base::AbortedError(
                                   "rendezvous '", name, "': rank 0 failed: ", published.failure.message()));
  if (--published.readers == 0) Boards().erase(name);
  return result;
}

base::StatusOr<std::vector<uint8_t>> ShareThroughFile(
    const std::string& path, int32_t rank, int32_t count, size_t size,
    const std::function<base::StatusOr<std::vector<uint8_t>>()>& make, std::chrono::milliseconds timeout) {
  if (rank == 0) {
    RT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, make());
    const std::string temp = path + ".tmp." + std::to_string(::getpid());
    {
      std::ofstream file(temp, std::ios::binary | std::ios::trunc);
      file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!file) return base::UnavailableError("rendezvous file '", temp, "' cannot be written");
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
      return base::UnavailableError("rendezvous file '", path, "' cannot be published (rename failed)");
    }
    return bytes;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    std::ifstream file(path, std::ios::binary);
    if (file) {
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), {});
      if (bytes.size() == size) return bytes;
      return base::InvalidArgumentError("rendezvous file '", path, "' holds ", bytes.size(),
                                        " bytes, not the ", size, " rank 0 publishes");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return base::DeadlineExceededError("rendezvous file '", path, "': rank ", rank, " of ", count, " waited ",
                                         timeout.count(), " ms for rank 0 to write it");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

base::StatusOr<std::vector<uint8_t>> ShareFromRoot(
    const std::string& rendezvous, int32_t rank, int32_t count, size_t size,
    const std::function<base::StatusOr<std::vector<uint8_t>>()>& make, std::chrono::milliseconds timeout) {
  if (rendezvous.starts_with("local:")) return ShareInProcess(rendezvous, rank, count, make, timeout);
  if (rendezvous.starts_with("file:")) {
    return ShareThroughFile(rendezvous.substr(5), rank, count, size, make, timeout);
  }
  if (rendezvous == "mpi") {
    std::vector<uint8_t> bytes(size);
    if (rank == 0) {
      RT_ASSIGN_OR_RETURN(bytes, make());
    }
    if (bytes.size() != size) return base::InternalError("rendezvous 'mpi': rank 0 made ", bytes.size(), " bytes");
    RT_RETURN_IF_ERROR(MpiBroadcast(&bytes, timeout));
    return bytes;
  }
  return base::UnimplementedError("rendezvous '", rendezvous,
                                  "' is not supported: use local:<name> (ranks in this process), "
                                  "file:<path> (processes sharing a file system) or mpi");
}

}  // namespace iree_rt::hal::utils
