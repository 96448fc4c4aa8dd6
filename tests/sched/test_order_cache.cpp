// The host's table of built orders (sched/order_cache.hpp): one build per key, copies out, the
// least recently used dropped past its capacity, and a build that never holds the lock.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "sched/order_cache.hpp"

namespace trimm::sched {
namespace {

TEST(OrderCache, BuildsEachKeyOnceAndHandsOutCopies) {
  OrderCache<int, int, 4> cache;
  int builds = 0;
  auto build = [&](int v) {
    return [&, v] {
      ++builds;
      return v;
    };
  };
  EXPECT_EQ(cache.get(1, build(10)), 10);
  EXPECT_EQ(cache.get(1, build(99)), 10);  // a hit: the kept value, no build
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(cache.get(2, build(20)), 20);
  EXPECT_EQ(builds, 2);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(OrderCache, DropsTheLeastRecentlyUsedPastItsCapacity) {
  OrderCache<int, int, 3> cache;
  int builds = 0;
  auto get = [&](int key) {
    return cache.get(key, [&] {
      ++builds;
      return key * 10;
    });
  };
  get(1), get(2), get(3);
  get(1);  // 1 is now the most recent: 2 is the least
  get(4);  // drops 2
  EXPECT_EQ(cache.size(), 3u);
  builds = 0;
  get(1), get(3), get(4);
  EXPECT_EQ(builds, 0) << "a recent entry was dropped";
  EXPECT_EQ(get(2), 20);
  EXPECT_EQ(builds, 1) << "the least recent entry was kept";
  EXPECT_EQ(cache.size(), 3u);
}

// A slow build (another thread's first call at a new n) must not hold up the hits: the build here
// waits until a hit on another thread has returned, which would deadlock (caught by the timeout)
// if the build ran under the table's lock.
TEST(OrderCache, ABuildDoesNotBlockOtherThreadsHits) {
  OrderCache<int, int, 8> cache;
  cache.get(1, [] { return 10; });
  std::promise<void> hit_done;
  std::future<void> hit_seen = hit_done.get_future();
  std::atomic<bool> in_build{false};
  auto slow = std::async(std::launch::async, [&] {
    return cache.get(2, [&] {
      in_build = true;
      return hit_seen.wait_for(std::chrono::seconds(20)) == std::future_status::ready ? 20 : -1;
    });
  });
  while (!in_build) std::this_thread::yield();
  EXPECT_EQ(cache.get(1, [] { return -1; }), 10);
  hit_done.set_value();
  EXPECT_EQ(slow.get(), 20) << "the hit waited for the build";
  EXPECT_EQ(cache.get(2, [] { return -1; }), 20);
}

}  // namespace
}  // namespace trimm::sched
