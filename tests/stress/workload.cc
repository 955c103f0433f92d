// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "workload.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RT_STRESS_SANITIZER_HEAP 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RT_STRESS_SANITIZER_HEAP 1
#endif
#if defined(RT_STRESS_SANITIZER_HEAP)
// From the sanitizer runtime (GCC installs no <sanitizer/allocator_interface.h>).
extern "C" size_t __sanitizer_get_current_allocated_bytes(void);
#endif

namespace iree_rt_stress {

std::string Describe(iree_rt_status_t status) {
  if (!status) return "";
  std::string text = std::string(iree_rt_status_code_name(iree_rt_status_code(status))) + ": " +
                     iree_rt_status_message(status);
  iree_rt_status_free(status);
  return text;
}

// Returns from the enclosing function with the description of a failed |expr|.
#define RT_STRESS_RETURN_IF_ERROR(expr)                                \
  do {                                                                 \
    std::string rt_stress_error = Describe(expr);                      \
    if (!rt_stress_error.empty()) return #expr ": " + rt_stress_error; \
  } while (0)

namespace {

std::string MakeView(iree_rt_device_t device, const std::vector<float>& values,
                     std::vector<int64_t> shape, BufferView* out_view) {
  Buffer buffer;
  RT_STRESS_RETURN_IF_ERROR(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                                    IREE_RT_BUFFER_USAGE_DEFAULT,
                                                    values.size() * sizeof(float), buffer.out()));
  RT_STRESS_RETURN_IF_ERROR(
      iree_rt_buffer_write(buffer.get(), 0, values.data(), values.size() * sizeof(float)));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_buffer_view_create(
      buffer.get(), shape.data(), shape.size(), IREE_RT_ELEMENT_TYPE_FLOAT_32,
      IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, out_view->out()));
  return "";
}

std::string ReadResult(iree_rt_value_list_t results, size_t count, std::vector<float>* out) {
  BufferView view;
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_get_buffer_view(results, 0, view.out()));
  iree_rt_buffer_t buffer = nullptr;  // borrowed from |view|
  RT_STRESS_RETURN_IF_ERROR(iree_rt_buffer_view_buffer(view.get(), &buffer));
  out->resize(count);
  RT_STRESS_RETURN_IF_ERROR(iree_rt_buffer_read(buffer, 0, out->data(), count * sizeof(float)));
  return "";
}

std::string Lookup(iree_rt_context_t context, const char* name, Function* out) {
  RT_STRESS_RETURN_IF_ERROR(iree_rt_context_lookup_function(context, name, out->out()));
  return "";
}

}  // namespace

std::string MatmulCase::Make(iree_rt_device_t device, int seed) {
  constexpr int n = kMatmulSize;
  std::vector<float> av(n * n), bv(n * n), cv(n * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      av[i * n + j] = static_cast<float>((seed + i + 2 * j) % 5 - 2);
      bv[i * n + j] = static_cast<float>((3 * seed + i * j) % 3 - 1);
      cv[i * n + j] = static_cast<float>(seed % 7);
    }
  }
  expected.assign(n * n, 0.0f);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = cv[i * n + j];
      for (int k = 0; k < n; ++k) sum += av[i * n + k] * bv[k * n + j];
      expected[i * n + j] = sum;
    }
  }
  std::string error = MakeView(device, av, {n, n}, &a);
  if (error.empty()) error = MakeView(device, bv, {n, n}, &b);
  if (error.empty()) error = MakeView(device, cv, {n, n}, &c);
  return error;
}

std::string MatmulCase::Check(iree_rt_value_list_t results) const {
  std::vector<float> actual;
  std::string error = ReadResult(results, expected.size(), &actual);
  if (!error.empty()) return error;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual[i] != expected[i]) {
      return "matmul_add element " + std::to_string(i) + " is " + std::to_string(actual[i]) +
             ", expected " + std::to_string(expected[i]);
    }
  }
  return "";
}

std::string WorkloadContext::Create(iree_rt_instance_t instance, iree_rt_module_t hal,
                                    iree_rt_module_t program) {
  iree_rt_module_t modules[] = {hal, program};
  RT_STRESS_RETURN_IF_ERROR(iree_rt_context_create(instance, modules, 2, context_.out()));
  std::string error = Lookup(context_.get(), "matmul_add", &matmul_add_);
  if (error.empty()) error = Lookup(context_.get(), "increment", &increment_);
  if (error.empty()) error = Lookup(context_.get(), "accumulate", &accumulate_);
  return error;
}

std::string WorkloadContext::MatmulAdd(iree_rt_device_t device, int seed) {
  MatmulCase inputs;
  std::string error = inputs.Make(device, seed);
  if (!error.empty()) return error;
  ValueList args, results;
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_create(3, args.out()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_create(1, results.out()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_push_buffer_view(args.get(), inputs.a.get()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_push_buffer_view(args.get(), inputs.b.get()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_push_buffer_view(args.get(), inputs.c.get()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_function_call(matmul_add_.get(), args.get(), results.get()));
  return inputs.Check(results.get());
}

std::string WorkloadContext::Increment(int32_t* out_count) {
  ValueList results;
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_create(1, results.out()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_function_call(increment_.get(), nullptr, results.get()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_get_i32(results.get(), 0, out_count));
  return "";
}

std::string WorkloadContext::Accumulate(iree_rt_device_t device, float delta, float* out_sum) {
  BufferView input;
  std::string error = MakeView(device, std::vector<float>(kAccumSize, delta), {kAccumSize}, &input);
  if (!error.empty()) return error;
  ValueList args, results;
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_create(1, args.out()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_create(1, results.out()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_value_list_push_buffer_view(args.get(), input.get()));
  RT_STRESS_RETURN_IF_ERROR(iree_rt_function_call(accumulate_.get(), args.get(), results.get()));
  std::vector<float> sum;
  error = ReadResult(results.get(), kAccumSize, &sum);
  if (!error.empty()) return error;
  for (float value : sum) {
    if (value != sum[0]) return "accumulate returned unequal elements";
  }
  *out_sum = sum[0];
  return "";
}

int64_t HeapBytesInUse() {
#if defined(RT_STRESS_SANITIZER_HEAP)
  return static_cast<int64_t>(__sanitizer_get_current_allocated_bytes());
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}

int64_t ResidentBytes() {
  FILE* file = std::fopen("/proc/self/statm", "r");
  if (!file) return -1;
  long pages = 0, resident = 0;
  int read = std::fscanf(file, "%ld %ld", &pages, &resident);
  std::fclose(file);
  return read == 2 ? static_cast<int64_t>(resident) * sysconf(_SC_PAGESIZE) : -1;
}

}  // namespace iree_rt_stress
