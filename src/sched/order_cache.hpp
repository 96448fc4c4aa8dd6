// The host's cache of built launch orders (DispatchOrder, PairLayout): building one packs a
// problem's units on the host (0.1-0.4 ms on average, under 2 ms at any n on the CPU machine,
// session 53), so each is built once per shape and kept, in a bounded table shared by the
// threads of the process.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <utility>

namespace trimm::sched {

// A least-recently-used table of at most kCapacity values. get() hands out a copy (an order is a
// few KB; the launch copies it into kernel parameters anyway), so dropping an entry never pulls
// one from under a caller. A miss builds outside the lock: another thread's hits do not wait for
// it; two threads missing the same key both build it, and the first to finish keeps its value.
template <class Key, class Value, size_t kCapacity>
class OrderCache {
  static_assert(kCapacity >= 1, "a cache holds at least one entry");

 public:
  template <class Build>
  Value get(const Key& key, Build&& build) {
    {
      const std::lock_guard<std::mutex> lock(mu_);
      if (const auto it = index_.find(key); it != index_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second);  // most recent first
        return it->second->second;
      }
    }
    Value v = build();
    const std::lock_guard<std::mutex> lock(mu_);
    if (index_.find(key) == index_.end()) {
      lru_.emplace_front(key, v);
      index_.emplace(key, lru_.begin());
      if (lru_.size() > kCapacity) {
        index_.erase(lru_.back().first);
        lru_.pop_back();
      }
    }
    return v;
  }

  size_t size() {
    const std::lock_guard<std::mutex> lock(mu_);
    return lru_.size();
  }

 private:
  using Entries = std::list<std::pair<Key, Value>>;
  std::mutex mu_;
  Entries lru_;
  std::map<Key, typename Entries::iterator> index_;
};

}  // namespace trimm::sched
