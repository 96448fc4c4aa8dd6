// cpu::trtrmm_backward against plain fp64 loops: dA = M(G)·Bᵀ, dB = Aᵀ·M(G), M = triu or tril,
// on dense signed inputs (the operators' autograd sees any input), with NaN in G's other
// triangle to show that M discards it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_util.hpp"
#include "trimm/cpu.hpp"

namespace trimm {
namespace {

class CpuBackward : public ::testing::TestWithParam<std::tuple<Fill, int64_t>>,
                    public test::Seeded {};

TEST_P(CpuBackward, MatchesFp64Loops) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  const int64_t ld = n + 2;
  auto gen = test::integers(rng_);
  std::vector<double> A(size_t(n * ld)), B(A.size()), G(A.size());
  for (auto* m : {&A, &B, &G})
    for (auto& x : *m) x = gen();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (!test::in_triangle(fill, i, j)) G[size_t(i * ld + j)] = test::kNaN<double>;
  std::vector<float> Af(A.begin(), A.end()), Bf(B.begin(), B.end()), Gf(G.begin(), G.end());
  std::vector<float> dAf(size_t(n * ld)), dBf(dAf.size());
  std::vector<double> dA(dAf.size()), dB(dAf.size());
  cpu::trtrmm_backward(fill, n, Gf.data(), ld, Af.data(), ld, Bf.data(), ld, dAf.data(), ld,
                       dBf.data(), ld);
  cpu::trtrmm_backward(fill, n, G.data(), ld, A.data(), ld, B.data(), ld, dA.data(), ld,
                       dB.data(), ld);
  auto m = [&](int64_t i, int64_t j) {
    return test::in_triangle(fill, i, j) ? G[size_t(i * ld + j)] : 0.0;
  };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want_a = 0, want_b = 0;
      for (int64_t k = 0; k < n; ++k) {
        want_a += m(i, k) * B[size_t(j * ld + k)];  // (M(G)·Bᵀ)(i, j)
        want_b += A[size_t(k * ld + i)] * m(k, j);  // (Aᵀ·M(G))(i, j)
      }
      // Small integers: every sum is exact in fp32 and fp64.
      ASSERT_EQ(dA[size_t(i * ld + j)], want_a) << "dA(" << i << "," << j << ")";
      ASSERT_EQ(dB[size_t(i * ld + j)], want_b) << "dB(" << i << "," << j << ")";
      ASSERT_EQ(dAf[size_t(i * ld + j)], float(want_a)) << "fp32 dA(" << i << "," << j << ")";
      ASSERT_EQ(dBf[size_t(i * ld + j)], float(want_b)) << "fp32 dB(" << i << "," << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, CpuBackward,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(0, 1, 2, 17, 130)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(CpuBackwardErrors, OverlappingOutputIsRefused) {
  std::vector<float> x(64, 1.f), y(64, 1.f), g(64, 1.f), d(64);
  EXPECT_THROW(cpu::trtrmm_backward(Fill::Upper, 8, g.data(), 8, x.data(), 8, y.data(), 8,
                                    x.data(), 8, d.data(), 8),
               InvalidArgument);
}

// A size past OpenBLAS's int is refused by name, before anything is written. G's rows are 2^31
// apart, so its span is 8 GB of address space, never touched: the outputs lie below it.
TEST(CpuBackwardErrors, SizePastOpenBlasIntIsNamed) {
  std::vector<float> x(4, 1.f), y(4, 1.f), buf(16, -3.f);
  try {
    cpu::trtrmm_backward(Fill::Upper, 2, buf.data() + 8, int64_t(1) << 31, x.data(), 2, y.data(), 2,
                         buf.data(), 2, buf.data() + 4, 2);
    ADD_FAILURE() << "accepted ldg = 2^31";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "trimm::cpu::trtrmm_backward: ldg = 2147483648, expected <= 2147483647 "
                 "(OpenBLAS's int)");
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(buf[size_t(i)], -3.f) << "written on error at " << i;
}

}  // namespace
}  // namespace trimm
