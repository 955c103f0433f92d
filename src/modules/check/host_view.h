// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host access to a buffer view's contents, for the check module's comparisons and messages.
#ifndef IREE_RT_MODULES_CHECK_HOST_VIEW_H_
#define IREE_RT_MODULES_CHECK_HOST_VIEW_H_

#include <cstdint>
#include <span>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/device.h"

namespace iree_rt::modules::check {

// A view whose buffer the host can map, with its bytes mapped.
struct HostView {
  // The view given, or a copy of it over host staging memory.
  base::Ref<iree_rt::hal::BufferView> view;
  // view->byte_length() bytes, valid while |view| lives.
  std::span<const uint8_t> data;
};

// Whether |buffer| can be mapped for reading: HOST_VISIBLE memory, a mapping usage bit and read
// access.
bool IsHostReadable(const iree_rt::hal::Buffer& buffer);

// Maps |view| when its buffer IsHostReadable; otherwise copies its bytes through |device|'s queue
// into a new host buffer, waits for the copy and returns a view of the same shape and type over
// it. INVALID_ARGUMENT when a copy is needed and |device| is null; otherwise the errors of the
// mapping, allocation, copy or wait.
base::StatusOr<HostView> MapViewOnHost(iree_rt::hal::Device* device,
                                       const base::Ref<iree_rt::hal::BufferView>& view);

}  // namespace iree_rt::modules::check

#endif  // IREE_RT_MODULES_CHECK_HOST_VIEW_H_
