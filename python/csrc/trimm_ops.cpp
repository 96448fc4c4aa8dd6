// trimm's PyTorch operators: trimm::triu_matmul(A, B) == torch.triu(torch.matmul(A, B)) and
// trimm::tril_matmul, for square matrices with batch dimensions that broadcast as matmul's do.
// They run Structure::Detect: the dense product's semantics on any input (noise in the other
// triangle, NaN and Inf), fast where the inputs are triangular.
//
// CPU tensors go through trimm's CPU backend: float32 and float64 directly, float16 and bfloat16
// computed in float32 and rounded once. CUDA tensors (when built with CUDA) go through
// trimm::trtrmm_strided_batched with Structure::Detect on the current stream: float32 with rows
// copied to 16-byte-aligned padded buffers where they are not so already (the TMA kernels need
// it); float16/bfloat16 through the 16-bit overloads and float64 through the fp64 one (with
// Detect's flag word: the band alone where the inputs are triangular and finite), both on the
// operands' own strides.
//
// The backward (dA = M(grad)·Bᵀ, dB = Aᵀ·M(grad)) runs trimm::cpu::trtrmm_backward on CPU tensors
// and trimm::trtrmm_backward_strided_batched (trimm's own tiled CUDA kernel) on CUDA tensors:
// float32 and float64 directly, float16 and bfloat16 in float32, rounded once.
#include <ATen/ATen.h>
#include <Python.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "trimm/cpu.hpp"
#ifdef TRIMM_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include "trimm/cuda.hpp"
#endif

namespace {

const char* op_name(trimm::Fill fill) {
  return fill == trimm::Fill::Upper ? "trimm.triu_matmul" : "trimm.tril_matmul";
}

// Error messages are built with std::string and handed to c10 as a C string, never formatted
// through std::ostream here (c10::str, i.e. TORCH_CHECK with several arguments): on the GPU
// machine's toolchain, inserting a value into a stream inside this extension segfaulted, in any
// load_inline extension too, while c10's own formatting works
// (scripts/diag_extension_exceptions.py, bench/NOTES.md). `message` runs only on failure, so a
// passing check costs no string.
template <typename Message>
void check(bool ok, const Message& message) {
  if (!ok) TORCH_CHECK(false, message().c_str());
}
std::string str(at::IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}
std::string str(const at::Device& d) { return d.str(); }
// As Python prints a dtype (torch.int64, not c10's Long): the fake implementation's words.
std::string str(at::ScalarType t) { return "torch." + std::string(c10::getDtypeNames(t).first); }

void check_dtype(at::ScalarType dtype, trimm::Fill fill) {
  check(dtype == at::kFloat || dtype == at::kDouble || dtype == at::kHalf || dtype == at::kBFloat16,
        [&] {
          return op_name(fill) +
                 std::string(": expected float32, float64, float16 or bfloat16, got ") + str(dtype);
        });
}
// The backward operators' grad: a tensor of the output's shape and A's dtype (autograd always
// gives that; a direct call with another dtype is refused, not converted).
void check_grad(const at::Tensor& grad, const at::Tensor& A, const std::vector<int64_t>& shape,
                trimm::Fill fill) {
  check(grad.defined(),
        [&] { return op_name(fill) + std::string(" backward: expected a tensor grad, got None"); });
  check(grad.scalar_type() == A.scalar_type(), [&] {
    return op_name(fill) + std::string(" backward: expected grad of A's dtype ") +
           str(A.scalar_type()) + ", got " + str(grad.scalar_type());
  });
  check(grad.sizes() == at::IntArrayRef(shape), [&] {
    return op_name(fill) + std::string(" backward: expected grad of shape ") +
           str(at::IntArrayRef(shape)) + ", got " + str(grad.sizes());
  });
}

// The output's shape: broadcast batch dimensions, then n × n. Checks what torch.matmul checks,
// plus the square matrices trimm computes.
std::vector<int64_t> output_shape(const at::Tensor& A, const at::Tensor& B, trimm::Fill fill) {
  const char* op = op_name(fill);
  check(A.defined() && B.defined(), [&] {
    return op + std::string(": expected tensors A and B, got None for ") +
           (A.defined() ? "B" : "A");
  });
  check(A.dim() >= 2 && B.dim() >= 2, [&] {
    return op + std::string(": expected A and B with at least 2 dimensions, got A of shape ") +
           str(A.sizes()) + " and B of shape " + str(B.sizes());
  });
  check(A.device() == B.device(), [&] {
    return op + std::string(": expected A and B on the same device, got ") + str(A.device()) +
           " and " + str(B.device());
  });
  check(A.scalar_type() == B.scalar_type(), [&] {
    return op + std::string(": expected A and B of the same dtype, got ") +
           str(A.scalar_type()) + " and " + str(B.scalar_type());
  });
  check_dtype(A.scalar_type(), fill);
  const int64_t n = A.size(-1);
  check(A.size(-2) == n && B.size(-2) == n && B.size(-1) == n, [&] {
    return op + std::string(": expected square n x n matrices of one n, got A of shape ") +
           str(A.sizes()) + " and B of shape " + str(B.sizes());
  });
  const at::IntArrayRef a = A.sizes().slice(0, A.dim() - 2), b = B.sizes().slice(0, B.dim() - 2);
  for (size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const int64_t x = a[a.size() - i], y = b[b.size() - i];
    check(x == y || x == 1 || y == 1, [&] {
      return op + std::string(": the size of A's batch dimensions ") + str(a) +
             " must broadcast with B's " + str(b) + ", as in torch.matmul";
    });
  }
  std::vector<int64_t> shape = at::infer_size(a, b);
  shape.push_back(n);
  shape.push_back(n);
  return shape;
}

// x broadcast to (batch, n, n) with unit column stride: a view where the layout allows (a
// broadcast batch gets stride 0), a copy otherwise. Never modifies x.
at::Tensor as_batched_rows(const at::Tensor& x, const std::vector<int64_t>& shape) {
  const int64_t n = shape.back();
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < shape.size(); ++d) batch *= shape[d];
  at::Tensor v = x.expand(shape).reshape({batch, n, n});
  if (n > 1 && (v.stride(2) != 1 || v.stride(1) < n)) v = v.contiguous();
  return v;
}

template <typename T>
void run_cpu(trimm::Fill fill, const at::Tensor& A, const at::Tensor& B, at::Tensor& C) {
  const int64_t batch = A.size(0), n = A.size(2);
  const int64_t lda = n > 1 ? A.stride(1) : 1, ldb = n > 1 ? B.stride(1) : 1;
  const T* a = A.data_ptr<T>();
  const T* b = B.data_ptr<T>();
  trimm::Options o;
  o.structure = trimm::Structure::Detect;
  trimm::cpu::trtrmm_strided_batched(fill, n, a, lda, A.stride(0), b, ldb, B.stride(0),
                                     C.data_ptr<T>(), n, n * n, batch, o);
}

at::Tensor product_cpu(const at::Tensor& A, const at::Tensor& B, trimm::Fill fill) {
  const std::vector<int64_t> shape = output_shape(A, B, fill);
  const at::ScalarType dtype = A.scalar_type();
  const int64_t n = shape.back();
  at::Tensor out = at::empty(shape, A.options());
  if (out.numel() == 0) return out;
  // float16 and bfloat16: computed in float32, rounded once at the end.
  const at::ScalarType work = dtype == at::kDouble ? at::kDouble : at::kFloat;
  const at::Tensor a = as_batched_rows(A.to(work), shape), b = as_batched_rows(B.to(work), shape);
  at::Tensor c = at::empty({a.size(0), n, n}, A.options().dtype(work));
  if (work == at::kFloat) run_cpu<float>(fill, a, b, c);
  else run_cpu<double>(fill, a, b, c);
  out.copy_(c.view(shape));
  return out;
}

at::Tensor triu_cpu(const at::Tensor& A, const at::Tensor& B) {
  return product_cpu(A, B, trimm::Fill::Upper);
}
at::Tensor tril_cpu(const at::Tensor& A, const at::Tensor& B) {
  return product_cpu(A, B, trimm::Fill::Lower);
}

// A (batch, n, n) tensor's leading dimension (any value >= 1 will do for n = 1).
int64_t row_stride(const at::Tensor& t) { return t.size(2) > 1 ? t.stride(1) : int64_t(1); }

// The gradients: dA = M(grad)·Bᵀ and dB = Aᵀ·M(grad) per batch entry, at the output's batch
// shape (the Python side sums them down to A's and B's shapes).
std::tuple<at::Tensor, at::Tensor> backward_cpu(const at::Tensor& grad, const at::Tensor& A,
                                                const at::Tensor& B, trimm::Fill fill) {
  const std::vector<int64_t> shape = output_shape(A, B, fill);
  check_grad(grad, A, shape, fill);
  const int64_t n = shape.back();
  at::Tensor dA = at::empty(shape, A.options()), dB = at::empty(shape, B.options());
  if (dA.numel() == 0) return {dA, dB};
  const at::ScalarType work = A.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  const at::Tensor g = as_batched_rows(grad.to(work), shape);
  const at::Tensor a = as_batched_rows(A.to(work), shape), b = as_batched_rows(B.to(work), shape);
  at::Tensor da = at::empty({a.size(0), n, n}, A.options().dtype(work)), db = at::empty_like(da);
  const int64_t ldg = row_stride(g), lda = row_stride(a), ldb = row_stride(b);
  for (int64_t i = 0; i < a.size(0); ++i) {
    if (work == at::kFloat)
      trimm::cpu::trtrmm_backward(fill, n, g[i].data_ptr<float>(), ldg, a[i].data_ptr<float>(),
                                  lda, b[i].data_ptr<float>(), ldb, da[i].data_ptr<float>(), n,
                                  db[i].data_ptr<float>(), n);
    else
      trimm::cpu::trtrmm_backward(fill, n, g[i].data_ptr<double>(), ldg, a[i].data_ptr<double>(),
                                  lda, b[i].data_ptr<double>(), ldb, da[i].data_ptr<double>(), n,
                                  db[i].data_ptr<double>(), n);
  }
  dA.copy_(da.view(shape));
  dB.copy_(db.view(shape));
  return {dA, dB};
}

std::tuple<at::Tensor, at::Tensor> triu_backward_cpu(const at::Tensor& grad, const at::Tensor& A,
                                                     const at::Tensor& B) {
  return backward_cpu(grad, A, B, trimm::Fill::Upper);
}
std::tuple<at::Tensor, at::Tensor> tril_backward_cpu(const at::Tensor& grad, const at::Tensor& A,
                                                     const at::Tensor& B) {
  return backward_cpu(grad, A, B, trimm::Fill::Lower);
}

[[noreturn]] void refuse_cuda(trimm::Fill fill, const char* what) {
  TORCH_CHECK_NOT_IMPLEMENTED(false,
                              (op_name(fill) + std::string(": ") + what + " is not implemented yet")
                                  .c_str());
}

#ifdef TRIMM_WITH_CUDA
// x as (batch, n, ld) float32 with ld % 4 == 0, a 16-byte-aligned base and a batch stride that is
// a multiple of 4 (or 0): a view where x already is, a padded copy otherwise.
at::Tensor tma_rows(const at::Tensor& x) {
  const int64_t n = x.size(2);
  // (n = 1 always copies: its row stride is no leading dimension TMA could use.)
  const auto aligned = [](const at::Tensor& t) {
    return reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0 && t.stride(2) == 1 &&
           t.size(1) > 1 && t.stride(1) % 4 == 0 && t.stride(0) % 4 == 0 &&
           (t.stride(0) == 0 || t.stride(0) >= t.stride(1) * t.size(1));  // batches apart
  };
  if (aligned(x)) return x;
  const int64_t ld = (n + 3) / 4 * 4;
  at::Tensor padded = at::empty({x.size(0), n, ld}, x.options());
  padded.narrow(2, 0, n).copy_(x);
  return padded;
}

trimm::Stream current_stream() {
  return reinterpret_cast<trimm::Stream>(at::cuda::getCurrentCUDAStream().stream());
}

// float64, float16, bfloat16: trimm's kernels on the operands' own strides (any alignment), C
// straight into `out` (16-bit: rounded once from fp32 sums), with Detect's flag word: the band
// alone where A and B are triangular and finite, else every k.
template <typename T>
at::Tensor product_cuda_strided(const at::Tensor& A, const at::Tensor& B,
                                const std::vector<int64_t>& shape, trimm::Fill fill) {
  const int64_t n = shape.back();
  at::Tensor out = at::empty(shape, A.options());
  if (out.numel() == 0) return out;
  const at::Tensor a = as_batched_rows(A, shape), b = as_batched_rows(B, shape);
  at::Tensor work = at::empty({1}, A.options().dtype(at::kInt));
  trimm::Options o;
  o.structure = trimm::Structure::Detect;
  o.workspace = work.data_ptr();
  o.workspace_bytes = sizeof(int32_t);
  trimm::trtrmm_strided_batched(fill, n, static_cast<const T*>(a.data_ptr()), row_stride(a),
                                a.stride(0), static_cast<const T*>(b.data_ptr()), row_stride(b),
                                b.stride(0), static_cast<T*>(out.data_ptr()), n, n * n, a.size(0),
                                current_stream(), o);
  return out;
}

at::Tensor product_cuda(const at::Tensor& A, const at::Tensor& B, trimm::Fill fill) {
  const std::vector<int64_t> shape = output_shape(A, B, fill);
  const c10::cuda::CUDAGuard device(A.device());  // trimm works on the current device
  const at::ScalarType dtype = A.scalar_type();
  if (dtype == at::kDouble) return product_cuda_strided<double>(A, B, shape, fill);
  if (dtype == at::kHalf) return product_cuda_strided<trimm::half_t>(A, B, shape, fill);
  if (dtype == at::kBFloat16) return product_cuda_strided<trimm::bfloat16_t>(A, B, shape, fill);
  const int64_t n = shape.back();
  at::Tensor out = at::empty(shape, A.options());
  if (out.numel() == 0) return out;
  const at::Tensor a = tma_rows(as_batched_rows(A.to(at::kFloat), shape));
  const at::Tensor b = tma_rows(as_batched_rows(B.to(at::kFloat), shape));
  const int64_t batch = a.size(0), ldc = (n + 3) / 4 * 4;
  // C goes straight into `out` where its rows are already 16-byte multiples (n % 4 == 0: a fresh
  // contiguous tensor); otherwise into a padded buffer, then copied (a 64 MB copy at n = 4096
  // would cost ~30 µs, an eighth of the product).
  const bool direct = ldc == n;
  at::Tensor c = direct ? out.view({batch, n, n})
                        : at::empty({batch, n, ldc}, A.options().dtype(at::kFloat));
  auto ld = [](const at::Tensor& t) { return t.stride(1); };
  // Structure::Detect's flag word, and sm90_fp16x3's planes after it where dispatch takes that
  // kernel (one problem, sm_90, n >= 3072): ~8·n² bytes, 134 MB at n = 4096, from torch's caching
  // allocator (no cudaMalloc after a shape's first call). Where they do not fit, the flag word
  // alone: dispatch then runs sm90_tf32x3, which needs no planes.
  trimm::Options o;
  o.structure = trimm::Structure::Detect;
  trimm::Options planes = o;
  planes.kernel = "sm90_fp16x3";
  o.workspace_bytes = trimm::trtrmm_workspace_bytes(n, batch, planes);
  if (batch != 1 || std::strcmp(trimm::selected_kernel(fill, n, a.data_ptr<float>(), ld(a),
                                                       b.data_ptr<float>(), ld(b),
                                                       c.data_ptr<float>(), ldc, o),
                                "sm90_fp16x3") != 0)
    o.workspace_bytes = sizeof(int32_t);
  at::Tensor work;
  try {
    work = at::empty({int64_t(o.workspace_bytes)}, A.options().dtype(at::kByte));
  } catch (const c10::OutOfMemoryError&) {
    o.workspace_bytes = sizeof(int32_t);
    work = at::empty({int64_t(o.workspace_bytes)}, A.options().dtype(at::kByte));
  }
  o.workspace = work.data_ptr();
  trimm::trtrmm_strided_batched(fill, n, a.data_ptr<float>(), ld(a), a.stride(0),
                                b.data_ptr<float>(), ld(b), b.stride(0), c.data_ptr<float>(), ldc,
                                n * ldc, batch, current_stream(), o);
  if (!direct) out.copy_(c.narrow(2, 0, n).view(shape));
  return out;
}

at::Tensor triu_cuda(const at::Tensor& A, const at::Tensor& B) {
  return product_cuda(A, B, trimm::Fill::Upper);
}
at::Tensor tril_cuda(const at::Tensor& A, const at::Tensor& B) {
  return product_cuda(A, B, trimm::Fill::Lower);
}

// The gradients on the GPU, as backward_cpu: one launch for the whole batch (broadcast operands
// keep their stride-0 batch), on the current stream.
std::tuple<at::Tensor, at::Tensor> backward_cuda(const at::Tensor& grad, const at::Tensor& A,
                                                 const at::Tensor& B, trimm::Fill fill) {
  const std::vector<int64_t> shape = output_shape(A, B, fill);
  check_grad(grad, A, shape, fill);  // first: an undefined grad has no device to compare
  check(grad.device() == A.device(), [&] {
    return op_name(fill) + std::string(" backward: expected grad on A's device, got ") +
           str(grad.device()) + " and " + str(A.device());
  });
  const c10::cuda::CUDAGuard device(A.device());
  const at::ScalarType dtype = A.scalar_type();
  const int64_t n = shape.back();
  int64_t numel = 1;
  for (const int64_t d : shape) numel *= d;
  if (numel == 0) return {at::empty(shape, A.options()), at::empty(shape, B.options())};
  // float16 and bfloat16: computed in float32, rounded once at the end.
  const at::ScalarType work = dtype == at::kDouble ? at::kDouble : at::kFloat;
  const at::Tensor g = as_batched_rows(grad.to(work), shape);
  const at::Tensor a = as_batched_rows(A.to(work), shape), b = as_batched_rows(B.to(work), shape);
  const int64_t batch = a.size(0);
  at::Tensor da = at::empty({batch, n, n}, A.options().dtype(work)), db = at::empty_like(da);
  if (work == at::kFloat)
    trimm::trtrmm_backward_strided_batched(
        fill, n, g.data_ptr<float>(), row_stride(g), g.stride(0), a.data_ptr<float>(),
        row_stride(a), a.stride(0), b.data_ptr<float>(), row_stride(b), b.stride(0),
        da.data_ptr<float>(), n, n * n, db.data_ptr<float>(), n, n * n, batch, current_stream());
  else
    trimm::trtrmm_backward_strided_batched(
        fill, n, g.data_ptr<double>(), row_stride(g), g.stride(0), a.data_ptr<double>(),
        row_stride(a), a.stride(0), b.data_ptr<double>(), row_stride(b), b.stride(0),
        da.data_ptr<double>(), n, n * n, db.data_ptr<double>(), n, n * n, batch,
        current_stream());
  return {da.view(shape).to(A.scalar_type()), db.view(shape).to(B.scalar_type())};
}

std::tuple<at::Tensor, at::Tensor> triu_backward_cuda(const at::Tensor& grad, const at::Tensor& A,
                                                      const at::Tensor& B) {
  return backward_cuda(grad, A, B, trimm::Fill::Upper);
}
std::tuple<at::Tensor, at::Tensor> tril_backward_cuda(const at::Tensor& grad, const at::Tensor& A,
                                                      const at::Tensor& B) {
  return backward_cuda(grad, A, B, trimm::Fill::Lower);
}
#else
at::Tensor triu_cuda(const at::Tensor&, const at::Tensor&) {
  refuse_cuda(trimm::Fill::Upper, "CUDA (this build of trimm has no CUDA)");
}
at::Tensor tril_cuda(const at::Tensor&, const at::Tensor&) {
  refuse_cuda(trimm::Fill::Lower, "CUDA (this build of trimm has no CUDA)");
}
std::tuple<at::Tensor, at::Tensor> triu_backward_cuda(const at::Tensor&, const at::Tensor&,
                                                      const at::Tensor&) {
  refuse_cuda(trimm::Fill::Upper, "CUDA (this build of trimm has no CUDA)");
}
std::tuple<at::Tensor, at::Tensor> tril_backward_cuda(const at::Tensor&, const at::Tensor&,
                                                      const at::Tensor&) {
  refuse_cuda(trimm::Fill::Lower, "CUDA (this build of trimm has no CUDA)");
}
#endif

}  // namespace

TORCH_LIBRARY(trimm, m) {
  m.def("triu_matmul(Tensor A, Tensor B) -> Tensor");
  m.def("tril_matmul(Tensor A, Tensor B) -> Tensor");
  m.def("triu_matmul_backward(Tensor grad, Tensor A, Tensor B) -> (Tensor, Tensor)");
  m.def("tril_matmul_backward(Tensor grad, Tensor A, Tensor B) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(trimm, CPU, m) {
  m.impl("triu_matmul", &triu_cpu);
  m.impl("tril_matmul", &tril_cpu);
  m.impl("triu_matmul_backward", &triu_backward_cpu);
  m.impl("tril_matmul_backward", &tril_backward_cpu);
}

TORCH_LIBRARY_IMPL(trimm, CUDA, m) {
  m.impl("triu_matmul", &triu_cuda);
  m.impl("tril_matmul", &tril_cuda);
  m.impl("triu_matmul_backward", &triu_backward_cuda);
  m.impl("tril_matmul_backward", &tril_backward_cuda);
}

// `import trimm._C` loads this library, whose static initializers register the operators above;
// the module itself is empty.
extern "C" PyObject* PyInit__C() {
  static PyModuleDef module = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, nullptr};
  return PyModule_Create(&module);
}
