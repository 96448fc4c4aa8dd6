// The 16-bit mma.sync pieces the sm80 16-bit kernels share: m16n8k16 with fp32 sums, ldmatrix
// of four 8×8 matrices of 16-bit elements (plain, or .trans for operands stored along the other
// index), and the element-by-element load of an 8-element vector for rows of any alignment.
#pragma once

#include <cstdint>

namespace trimm::kernels::mma {

// d += a·b, one m16n8k16 (bf16 or fp16 inputs, fp32 sums), in the PTX fragment layouts.
template <bool kBf16>
__device__ __forceinline__ void mma16(float (&d)[4], const uint32_t (&a)[4],
                                      const uint32_t (&b)[2]) {
  if constexpr (kBf16)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8×8 matrices of 16-bit elements into r: lane l gives the shared address of row l % 8 of
// matrix l / 8; thread (g, t) receives elements (g, 2t) and (g, 2t + 1) of matrix i in r[i]
// (kTrans: of the matrix transposed, so rows stored along the fragment's columns).
template <bool kTrans>
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address) {
  if constexpr (kTrans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address)
                 : "memory");
}

// The 8-element vector at src, whose first element has contiguous index c in row o, element by
// element: the elements past n (all of them where o >= n) as 0, never read, packed two to a word.
__device__ __forceinline__ void load_vector_by_elements(uint32_t (&w)[4], const uint16_t* src,
                                                        int c, int o, int n) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = o < n && c + 2 * i < n ? __ldg(src + 2 * i) : 0u;
    const uint32_t hi = o < n && c + 2 * i + 1 < n ? __ldg(src + 2 * i + 1) : 0u;
    w[i] = lo | hi << 16;
  }
}

}  // namespace trimm::kernels::mma
