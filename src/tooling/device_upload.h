// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// tooling::UploadToDevice: moves a parsed tool input into device-local memory; DownloadToHost
// brings a result back where the host can read it.
//
// The parsers (buffer_view_text.h, npy.h) fill host-visible buffers; a GPU reading those would
// fetch every element over the bus on every call. Like IREE's tools, inputs are copied once into
// DEVICE_LOCAL memory before the call, with a queue copy that this waits for. A CPU device
// computes on host memory: there the parsed buffer is used as it is.
#ifndef IREE_RT_TOOLING_DEVICE_UPLOAD_H_
#define IREE_RT_TOOLING_DEVICE_UPLOAD_H_

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer_view.h"
#include "hal/device.h"

namespace iree_rt::tooling {

// A view of the same shape and type whose buffer is device-local memory of |device| holding
// |view|'s bytes; |view| itself when its buffer already is device-local, or when |device|
// computes on host memory and the buffer is mappable and device-visible.
base::StatusOr<base::Ref<hal::BufferView>> UploadToDevice(const base::Ref<hal::BufferView>& view,
                                                          hal::Device& device);

// The reverse, for printing and writing results: a view whose buffer the host can map holding
// |view|'s bytes (copied by the queue into host-local memory); |view| itself when its buffer is
// already mappable.
base::StatusOr<base::Ref<hal::BufferView>> DownloadToHost(const base::Ref<hal::BufferView>& view,
                                                          hal::Device& device);

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_DEVICE_UPLOAD_H_
