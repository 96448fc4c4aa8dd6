// CPU trtrmm on OpenBLAS: C is computed in row strips, each one triangular-times-dense product
// (strmm) over only the columns the strip can reach, so about n³/6 multiply-adds in all, not n³.
//
// Upper, strip I = [i0, i1):  C[I, i0:n] = A[I, i0:n] · triu(B[i0:n, i0:n])
// Lower, strip I = [i0, i1):  C[I, 0:i1] = A[I, 0:i1] · tril(B[0:i1, 0:i1])
//
// 16-bit data goes through the fp32 path on widened copies and is rounded once at the end.
#include <cblas.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/float16.hpp"
#include "common/validate.hpp"
#include "cpu/blas_int.hpp"
#include "cpu/structure.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cpu {
namespace {

constexpr const char* kKernelName = "cpu_openblas_strips";

// Rows per strip, n/16 within [128, 512]. Each strip streams B's trailing triangle once, so
// taller strips read B fewer times (n/b passes), which counts once the triangle no longer fits
// the cache; each strip also computes a b×b triangle that is then discarded (about b·n²/4
// multiply-adds in all: 1.5·b/n of the useful work, ~9 % at b = n/16). Session 50, 2-core AMD
// EPYC, against a fixed 128 (interleaved runs, ms): n = 4096 143.5–155 against 178–190, 6144
// 458–469 against 522–582, 8192 1091–1104 against 1390–1418; to 2048 the rule gives 128 (at
// 2048 128 and 256 tie, 512 is ~7 % slower; at 1024 256 is ~5 % slower than 128).
int64_t strip_rows(int64_t n) { return std::clamp<int64_t>(n / 16, 128, 512); }

// The BLAS calls, for either precision (row-major, no transposes).
void trmm(CBLAS_SIDE side, CBLAS_UPLO uplo, int64_t m, int64_t n, const float* A, int64_t lda,
          float* B, int64_t ldb) {
  cblas_strmm(CblasRowMajor, side, uplo, CblasNoTrans, CblasNonUnit, blasint(m), blasint(n), 1.0f,
              A, blasint(lda), B, blasint(ldb));
}
void trmm(CBLAS_SIDE side, CBLAS_UPLO uplo, int64_t m, int64_t n, const double* A, int64_t lda,
          double* B, int64_t ldb) {
  cblas_dtrmm(CblasRowMajor, side, uplo, CblasNoTrans, CblasNonUnit, blasint(m), blasint(n), 1.0,
              A, blasint(lda), B, blasint(ldb));
}
void gemm(int64_t m, int64_t n, int64_t k, const float* A, int64_t lda, const float* B,
          int64_t ldb, float* C, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(m), blasint(n), blasint(k), 1.0f,
              A, blasint(lda), B, blasint(ldb), 0.0f, C, blasint(ldc));
}
void gemm(int64_t m, int64_t n, int64_t k, const double* A, int64_t lda, const double* B,
          int64_t ldb, double* C, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(m), blasint(n), blasint(k), 1.0,
              A, blasint(lda), B, blasint(ldb), 0.0, C, blasint(ldc));
}

// The options of the float and double calls (16-bit data: detail::validate_16bit_options).
template <typename T>
void check_options(const char* api, const Options& options) {
  if constexpr (std::is_same_v<T, double>) {
    detail::validate_fp64_options(api, options);
  } else {
    detail::validate_precision(api, options.precision);
    detail::validate_structure(api, options.structure);
  }
}

// What this backend adds to the shared checks, after the options: its kernel name, OpenBLAS's
// sizes.
void check_backend_args(const char* api, int64_t n, int64_t lda, int64_t ldb, int64_t ldc,
                        const Options& options) {
  if (!options.kernel.empty() && options.kernel != kKernelName)
    throw InvalidArgument(std::string(api) + ": kernel = '" + options.kernel +
                          "', expected '' or '" + kKernelName + "'");
  check_blas_ints(api, {{"n", n}, {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}});
}

template <typename T>
void upper(int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc) {
  const int64_t rows = strip_rows(n);
  for (int64_t i0 = 0; i0 < n; i0 += rows) {
    const int64_t i1 = std::min(n, i0 + rows);
    for (int64_t i = i0; i < i1; ++i) {
      T* c = C + i * ldc;  // (n)
      std::fill(c, c + i, T(0));
      std::copy(A + i * lda + i, A + i * lda + n, c + i);
    }
    trmm(CblasRight, CblasUpper, i1 - i0, n - i0, B + i0 * ldb + i0, ldb, C + i0 * ldc + i0, ldc);
    // trmm wrote C[I, i0:i] as sums of 0·B[k][j]: zero in exact arithmetic, NaN where B holds Inf.
    for (int64_t i = i0 + 1; i < i1; ++i) std::fill(C + i * ldc + i0, C + i * ldc + i, T(0));
  }
}

template <typename T>
void lower(int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc) {
  const int64_t rows = strip_rows(n);
  for (int64_t i0 = 0; i0 < n; i0 += rows) {
    const int64_t i1 = std::min(n, i0 + rows);
    for (int64_t i = i0; i < i1; ++i) {
      T* c = C + i * ldc;  // (n)
      std::copy(A + i * lda, A + i * lda + i + 1, c);
      std::fill(c + i + 1, c + n, T(0));
    }
    trmm(CblasRight, CblasLower, i1 - i0, i1, B, ldb, C + i0 * ldc, ldc);
    // The mirror of upper(): C[I, i+1:i1] holds 0·B sums.
    for (int64_t i = i0; i < i1; ++i) std::fill(C + i * ldc + i + 1, C + i * ldc + i1, T(0));
  }
}

// Structure::Detect on inputs that are not triangular or not finite: strips of SGEMM, each over
// the k where its rows of A and columns of B can both be nonzero (every k if anything is
// non-finite, since 0·Inf is NaN). About n³ multiply-adds for dense inputs: half the dense product.
//   Upper, strip I = [i0, i1):  C[I, i0:n] = A[I, k] · B[k, i0:n], then C's lower part zeroed.
template <typename T>
void general(Fill fill, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
             int64_t ldc, const Found& f) {
  const bool up = fill == Fill::Upper;
  // For the strip's columns J (a suffix for Upper, a prefix for Lower): the rows of B any of them
  // reaches.
  std::vector<int64_t> j_lo(static_cast<size_t>(n)), j_hi(static_cast<size_t>(n));
  for (int64_t q = 0; q < n; ++q) {
    const int64_t j = up ? n - 1 - q : q, prev = up ? j + 1 : j - 1;
    const bool first = q == 0;
    j_lo[size_t(j)] = first ? f.b_lo[size_t(j)] : std::min(f.b_lo[size_t(j)], j_lo[size_t(prev)]);
    j_hi[size_t(j)] = first ? f.b_hi[size_t(j)] : std::max(f.b_hi[size_t(j)], j_hi[size_t(prev)]);
  }
  const int64_t rows = strip_rows(n);
  for (int64_t i0 = 0; i0 < n; i0 += rows) {
    const int64_t i1 = std::min(n, i0 + rows);
    const int64_t j0 = up ? i0 : 0, j1 = up ? n : i1;  // the strip's columns J
    int64_t k_lo = 0, k_hi = n;
    if (f.finite) {
      const int64_t a_lo = *std::min_element(f.a_lo.begin() + i0, f.a_lo.begin() + i1);
      const int64_t a_hi = *std::max_element(f.a_hi.begin() + i0, f.a_hi.begin() + i1);
      k_lo = std::max(a_lo, up ? j_lo[size_t(j0)] : j_lo[size_t(j1 - 1)]);
      k_hi = std::min(a_hi, up ? j_hi[size_t(j0)] : j_hi[size_t(j1 - 1)]);
    }
    if (k_lo < k_hi)
      gemm(i1 - i0, j1 - j0, k_hi - k_lo, A + i0 * lda + k_lo, lda, B + k_lo * ldb + j0, ldb,
           C + i0 * ldc + j0, ldc);
    for (int64_t i = i0; i < i1; ++i) {
      T* c = C + i * ldc;  // (n)
      if (k_lo >= k_hi) std::fill(c + j0, c + j1, T(0));
      // triu/tril: the other triangle is zero whatever the product holds there.
      if (up) std::fill(c, c + i, T(0));
      else std::fill(c + i + 1, c + n, T(0));
    }
  }
}

template <typename T>
void run(Fill fill, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
         int64_t ldc, Structure structure) {
  if (structure == Structure::Detect) {
    const Found f = find_structure(n, A, lda, B, ldb);
    if (!f.finite || !f.triangular(fill)) return general(fill, n, A, lda, B, ldb, C, ldc, f);
  }
  if (fill == Fill::Upper)
    upper(n, A, lda, B, ldb, C, ldc);
  else
    lower(n, A, lda, B, ldb, C, ldc);
}

template <typename T>
void single(Fill fill, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
            int64_t ldc, const Options& options) {
  constexpr const char* api = "trimm::cpu::trtrmm";
  detail::validate({api, fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, sizeof(T)});
  check_options<T>(api, options);
  check_backend_args(api, n, lda, ldb, ldc, options);
  if (n == 0) return;
  run(fill, n, A, lda, B, ldb, C, ldc, options.structure);
}

template <typename T>
void batched(Fill fill, int64_t n, const T* A, int64_t lda, int64_t stride_a, const T* B,
             int64_t ldb, int64_t stride_b, T* C, int64_t ldc, int64_t stride_c, int64_t batch,
             const Options& options) {
  constexpr const char* api = "trimm::cpu::trtrmm_strided_batched";
  detail::validate({api, fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch,
                    sizeof(T)});
  check_options<T>(api, options);
  check_backend_args(api, n, lda, ldb, ldc, options);
  for (int64_t b = 0; b < batch && n > 0; ++b)
    run(fill, n, A + b * stride_a, lda, B + b * stride_b, ldb, C + b * stride_c, ldc,
        options.structure);
}

// 16-bit data: each batch entry's referenced triangles widened into fp32 scratch (the other
// triangle written as zero, never read; under Structure::Detect all of A and B, for the fp32
// path's detection), the fp32 product, C narrowed once. The scratch is allocated after every
// check, so a refused call allocates and writes nothing.
template <typename T>
void run16(const char* api, Fill fill, int64_t n, const T* A, int64_t lda, int64_t stride_a,
           const T* B, int64_t ldb, int64_t stride_b, T* C, int64_t ldc, int64_t stride_c,
           int64_t batch, const Options& options) {
  detail::validate({api, fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch,
                    int64_t(sizeof(T))});
  detail::validate_16bit_options(api, options);  // before the kernel name, as on the GPU
  check_backend_args(api, n, lda, ldb, ldc, options);
  if (n == 0 || batch == 0) return;
  const size_t nn = static_cast<size_t>(n * n);
  std::vector<float> a(nn), b(nn), c(nn);
  const bool all = options.structure == Structure::Detect;
  auto widen = [&](const T* src, int64_t ld, std::vector<float>& dst) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        dst[size_t(i * n + j)] = all || (fill == Fill::Upper ? j >= i : j <= i)
                                     ? detail::widen(src[i * ld + j])
                                     : 0.0f;
  };
  for (int64_t e = 0; e < batch; ++e) {
    widen(A + e * stride_a, lda, a);
    widen(B + e * stride_b, ldb, b);
    run(fill, n, a.data(), n, b.data(), n, c.data(), n, options.structure);
    T* out = C + e * stride_c;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) out[i * ldc + j] = detail::narrow<T>(c[size_t(i * n + j)]);
  }
}

}  // namespace

void trtrmm(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B, int64_t ldb,
            half_t* C, int64_t ldc, const Options& options) {
  run16("trimm::cpu::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, options);
}
void trtrmm(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda, const bfloat16_t* B,
            int64_t ldb, bfloat16_t* C, int64_t ldc, const Options& options) {
  run16("trimm::cpu::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, options);
}
void trtrmm_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda, int64_t stride_a,
                            const half_t* B, int64_t ldb, int64_t stride_b, half_t* C,
                            int64_t ldc, int64_t stride_c, int64_t batch,
                            const Options& options) {
  run16("trimm::cpu::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
        stride_c, batch, options);
}
void trtrmm_strided_batched(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            int64_t stride_a, const bfloat16_t* B, int64_t ldb, int64_t stride_b,
                            bfloat16_t* C, int64_t ldc, int64_t stride_c, int64_t batch,
                            const Options& options) {
  run16("trimm::cpu::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
        stride_c, batch, options);
}

void trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb,
            float* C, int64_t ldc, const Options& options) {
  single(fill, n, A, lda, B, ldb, C, ldc, options);
}
void trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb,
            double* C, int64_t ldc, const Options& options) {
  single(fill, n, A, lda, B, ldb, C, ldc, options);
}

void trtrmm_strided_batched(Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                            const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, const Options& options) {
  batched(fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch, options);
}
void trtrmm_strided_batched(Fill fill, int64_t n, const double* A, int64_t lda, int64_t stride_a,
                            const double* B, int64_t ldb, int64_t stride_b, double* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, const Options& options) {
  batched(fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch, options);
}

}  // namespace trimm::cpu
