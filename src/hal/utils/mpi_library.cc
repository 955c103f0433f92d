// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/mpi_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace iree_rt::hal::utils {

namespace {

// The calls used, with every MPI handle passed as a pointer-sized integer: Open MPI's handles are
// pointers and MPICH's are ints, and both pass in an integer register on the x86-64 and AArch64
// ABIs. Requests are read back into the same integer.
struct Mpi {
  int (*initialized)(int*) = nullptr;
  int (*init)(int*, char***) = nullptr;
  int (*finalize)() = nullptr;
  int (*ibcast)(void*, int, intptr_t, int, intptr_t, intptr_t*) = nullptr;
  int (*test)(intptr_t*, int*, intptr_t) = nullptr;
  intptr_t comm_world = 0;
  intptr_t byte = 0;
  intptr_t status_ignore = 0;
  std::string library;
};

base::StatusOr<const Mpi*> LoadMpi() {
  static const base::StatusOr<Mpi*> loaded = []() -> base::StatusOr<Mpi*> {
    const char* env = std::getenv("IREE_RT_MPI_LIBRARY");
    void* handle = nullptr;
    std::string name;
    for (const char* candidate : {env, "libmpi.so.40", "libmpi.so.12", "libmpi.so"}) {
      if (!candidate || !*candidate) continue;
      handle = dlopen(candidate, RTLD_NOW | RTLD_GLOBAL);  // global: MPI's plugins need its symbols
      if (handle) {
        name = candidate;
        break;
      }
    }
    if (!handle) {
      return base::UnavailableError("rendezvous 'mpi': no MPI library could be loaded (libmpi.so.40, "
                                    "libmpi.so.12; set IREE_RT_MPI_LIBRARY), or use rendezvous=file:<path>");
    }
    auto mpi = new Mpi();
    mpi->library = name;
    mpi->initialized = reinterpret_cast<int (*)(int*)>(dlsym(handle, "MPI_Initialized"));
    mpi->init = reinterpret_cast<int (*)(int*, char***)>(dlsym(handle, "MPI_Init"));
    mpi->finalize = reinterpret_cast<int (*)()>(dlsym(handle, "MPI_Finalize"));
    mpi->ibcast = reinterpret_cast<decltype(mpi->ibcast)>(dlsym(handle, "MPI_Ibcast"));
    mpi->test = reinterpret_cast<decltype(mpi->test)>(dlsym(handle, "MPI_Test"));
    if (!mpi->initialized || !mpi->init || !mpi->finalize || !mpi->ibcast || !mpi->test) {
      return base::UnavailableError("rendezvous 'mpi': ", name, " lacks MPI_Init/MPI_Ibcast/MPI_Test");
    }
    if (void* world = dlsym(handle, "ompi_mpi_comm_world")) {  // Open MPI: addresses of globals
      mpi->comm_world = reinterpret_cast<intptr_t>(world);
      mpi->byte = reinterpret_cast<intptr_t>(dlsym(handle, "ompi_mpi_byte"));
      mpi->status_ignore = 0;
    } else {  // MPICH and its ABI family: constants
      mpi->comm_world = 0x44000000;
      mpi->byte = 0x4c00010d;
      mpi->status_ignore = 1;
    }
    if (!mpi->byte) return base::UnavailableError("rendezvous 'mpi': ", name, " lacks ompi_mpi_byte");
    return mpi;
  }();
  if (!loaded.ok()) return loaded.status();
  return static_cast<const Mpi*>(loaded.value());
}

}  // namespace

base::Status MpiBroadcast(std::vector<uint8_t>* bytes, std::chrono::milliseconds timeout) {
  RT_ASSIGN_OR_RETURN(const Mpi* mpi, LoadMpi());
  int initialized = 0;
  mpi->initialized(&initialized);
  if (!initialized) {
    if (mpi->init(nullptr, nullptr) != 0) return base::UnavailableError("MPI_Init failed (", mpi->library, ")");
    static const Mpi* to_finalize = mpi;
    std::atexit([] { to_finalize->finalize(); });
  }
  intptr_t request = 0;
  if (mpi->ibcast(bytes->data(), static_cast<int>(bytes->size()), mpi->byte, 0, mpi->comm_world, &request) != 0) {
    return base::UnavailableError("MPI_Ibcast failed (", mpi->library, ")");
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int done = 0;
    if (mpi->test(&request, &done, mpi->status_ignore) != 0) return base::UnavailableError("MPI_Test failed");
    if (done) return base::Status::Ok();
    if (std::chrono::steady_clock::now() > deadline) {
      return base::DeadlineExceededError("rendezvous 'mpi': rank 0's broadcast did not arrive within ",
                                         timeout.count(), " ms (", mpi->library, ")");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace iree_rt::hal::utils
