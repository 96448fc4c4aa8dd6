// The argument checks every backend shares (src/common/validate.cpp): those no backend call can
// reach without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/validate.hpp"

namespace trimm {
namespace {

// options.workspace is written by the call: it must miss A, B and C (their whole spans).
TEST(Validate, WorkspaceMustNotOverlapTheOperands) {
  // One buffer: A, a gap of 16 floats, B, a gap, C, a gap, so that every range below is
  // placed against exactly one operand.
  constexpr int64_t n = 8, gap = 16;
  std::vector<float> mem(3 * (n * n + gap));
  float* A = mem.data();
  float* B = A + n * n + gap;
  float* C = B + n * n + gap;
  const detail::BatchedArgs args{"trimm::trtrmm", Fill::Upper, n, A, n, 0, B, n, 0, C, n, 0, 1,
                                 sizeof(float)};
  EXPECT_NO_THROW(detail::validate_workspace(args, A + n * n, gap * sizeof(float)));  // a gap
  EXPECT_NO_THROW(detail::validate_workspace(args, nullptr, 0));
  EXPECT_NO_THROW(detail::validate_workspace(args, A, 0));  // no bytes: nothing written
  const struct {
    const void* at;
    size_t bytes;
    const char* name;
  } cases[] = {{A + 10, 4, "overlaps A"},
               {B - 1, 8, "overlaps B"},  // its last 4 bytes are B's first element
               {C + n * n - 1, 8, "overlaps C"}};
  for (const auto& c : cases) {
    try {
      detail::validate_workspace(args, c.at, c.bytes);
      ADD_FAILURE() << "no error for a workspace that " << c.name;
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("options.workspace ") + c.name), std::string::npos) << what;
      EXPECT_NE(what.find("trimm::trtrmm"), std::string::npos) << what;
    }
  }
  // Touching is not overlapping: the bytes just past C.
  EXPECT_NO_THROW(detail::validate_workspace(args, C + n * n, 16));
  // No work (n = 0): nothing is written, so nothing to refuse.
  detail::BatchedArgs empty = args;
  empty.n = 0;
  EXPECT_NO_THROW(detail::validate_workspace(empty, A, 16));
}

}  // namespace
}  // namespace trimm
