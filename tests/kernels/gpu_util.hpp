// Device-side helpers for the GPU tests: a checked buffer, and the skip for machines without a GPU.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/test_util.hpp"
#include "kernels/launch.hpp"
#include "trimm/cuda.hpp"

#define TEST_CUDA(call)                                                              \
  do {                                                                               \
    const cudaError_t e_ = (call);                                                   \
    ASSERT_EQ(e_, cudaSuccess) << #call << ": " << cudaGetErrorString(e_);           \
  } while (0)

// Every GPU test starts with this: on a machine without a usable GPU it skips, visibly. Where
// TRIMM_REQUIRE_GPU is set (scripts/device.sh sets it), no usable GPU is a failure instead: a
// broken driver must not pass for a machine without a GPU.
#define SKIP_WITHOUT_GPU()                                               \
  do {                                                                   \
    if (!::trimm::cuda_available()) {                                    \
      if (std::getenv("TRIMM_REQUIRE_GPU") != nullptr)                   \
        FAIL() << "no usable CUDA device, and TRIMM_REQUIRE_GPU is set"; \
      GTEST_SKIP() << "no CUDA device: GPU test skipped";                \
    }                                                                    \
  } while (0)

// Skips a test whose order n is past TRIMM_TEST_MAX_N (the sanitizer runs cap it: see max_n).
#define SKIP_ABOVE_MAX_N(n)                                                                       \
  do {                                                                                            \
    if ((n) > ::trimm::test::max_n()) GTEST_SKIP() << "n = " << (n) << " above TRIMM_TEST_MAX_N"; \
  } while (0)

namespace trimm::test {

// The current device's compute capability, 10·major + minor.
inline int device_cc() {
  int dev = 0, major = 0, minor = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), cudaSuccess);
  return 10 * major + minor;
}

// This device as the kernels' launchers take it (for tests that call a launcher directly).
inline kernels::DeviceInfo device_info() {
  int dev = 0, sms = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), cudaSuccess);
  return {dev, device_cc(), sms};
}

// Whether the kernel named `kernel` in a dispatch table ([begin, end)) runs on this device, by
// the table's compute capabilities (an sm_90a kernel elsewhere does not: printed as a skip). A
// test must not infer it from a refused call: a kernel the table says runs here and that is
// refused is a failure, never a skip.
template <class Entry>
bool table_kernel_runs_here(const Entry* begin, const Entry* end, const std::string& kernel) {
  for (const Entry* e = begin; e != end; ++e) {
    if (kernel != e->name) continue;
    const int cc = device_cc();
    if (cc >= e->min_cc && cc <= e->max_cc) return true;
    std::printf("[ SKIPPED  ] %s runs on sm_%d to sm_%d; this device is sm_%d\n", e->name,
                e->min_cc, e->max_cc, cc);
    return false;
  }
  ADD_FAILURE() << "no kernel named '" << kernel << "' in the table";
  return false;
}

// TRIMM_TEST_MAX_N caps the sizes (compute-sanitizer runs are ~100x slower).
inline int64_t max_n() {
  const char* env = std::getenv("TRIMM_TEST_MAX_N");
  return env ? std::strtoll(env, nullptr, 10) : INT64_MAX;
}

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count_ > 0 && cudaMalloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T)) != cudaSuccess) ptr_ = nullptr;
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  // Complete on return: a copy from pageable memory may return before its last DMA lands, and
  // work on a non-blocking stream does not wait for it (session 55: the capture check's call on
  // its own stream found its C's poison rewritten after the call had stored zeros).
  void upload(const std::vector<T>& host) {
    EXPECT_EQ(cudaMemcpy(ptr_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return host;
  }

 private:
  size_t count_;
  T* ptr_ = nullptr;
};

// No device allocation, copy or synchronization in a call's path: call(n, stream), captured in
// global mode (where cudaMalloc, a synchronous copy or a sync anywhere fails the capture) at an n
// the process has not called before (the host builds its launch order inside the capture), after
// call(warm_n, stream) has loaded the same kernels outside it. The capture must succeed and the
// graph's C be the uncaptured call's, bit for bit (C reset to C0 before each). On a stream of its
// own.
template <typename U, typename Call>
void expect_captures_in_global_mode(Call&& call, int64_t warm_n, int64_t n, DeviceBuffer<U>& dC,
                                    const std::vector<U>& C0) {
  struct OwnStream {
    cudaStream_t s = nullptr;
    ~OwnStream() {
      if (s != nullptr) cudaStreamDestroy(s);
    }
  } own;
  TEST_CUDA(cudaStreamCreateWithFlags(&own.s, cudaStreamNonBlocking));
  const cudaStream_t stream = own.s;
  call(warm_n, stream);
  TEST_CUDA(cudaStreamSynchronize(stream));
  dC.upload(C0);
  cudaGraph_t graph = nullptr;
  TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  call(n, stream);
  const cudaError_t captured = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(captured, cudaSuccess) << "the capture: " << cudaGetErrorString(captured);
  cudaGraphExec_t exec = nullptr;
  TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  TEST_CUDA(cudaGraphLaunch(exec, stream));
  TEST_CUDA(cudaStreamSynchronize(stream));
  const std::vector<U> from_graph = dC.download();
  dC.upload(C0);
  call(n, stream);
  TEST_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(same_bits(dC.download(), from_graph)) << "the graph's C against the call's";
  TEST_CUDA(cudaGraphExecDestroy(exec));
  TEST_CUDA(cudaGraphDestroy(graph));
}

// options.workspace for a call, as trtrmm_workspace_bytes sizes it for these options (none where
// the call needs none): construct it after setting the options' kernel and structure.
class Workspace {
 public:
  Workspace(Options& o, int64_t n, int64_t batch = 1) : buf_(trtrmm_workspace_bytes(n, batch, o)) {
    if (buf_.size() == 0) return;
    EXPECT_NE(buf_.get(), nullptr) << "cudaMalloc of a " << buf_.size() << "-byte workspace";
    o.workspace = buf_.get();
    o.workspace_bytes = buf_.size();
  }

  // The workspace's first word: Structure::Detect's flags after a call.
  uint32_t first_word() const {
    uint32_t w = 0;
    EXPECT_EQ(cudaMemcpy(&w, buf_.get(), sizeof w, cudaMemcpyDeviceToHost), cudaSuccess);
    return w;
  }

 private:
  DeviceBuffer<unsigned char> buf_;
};

// `call` must throw trimm::InvalidArgument whose message names `name`, and write nothing: each
// of `outputs` (device buffers filled with `poisoned` before) still holds it, bit for bit.
template <typename T, typename Call>
void expect_invalid_argument(const char* name, Call&& call, const std::vector<T>& poisoned,
                             std::initializer_list<const DeviceBuffer<T>*> outputs) {
  try {
    call();
    ADD_FAILURE() << "no error for bad " << name;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
  for (const DeviceBuffer<T>* out : outputs)
    EXPECT_TRUE(same_bits(poisoned, out->download())) << "an output written on a bad " << name;
}

}  // namespace trimm::test
