// A memo of immutable values by key, up to a byte budget, safe to share between threads. The values come one
// task at a time (its goldens, its inputs), so when a new one would pass the budget everything held is dropped.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace kope {

template <typename V>
class SizedCache {
 public:
  explicit SizedCache(std::size_t budget_bytes) : budget_(budget_bytes) {}

  std::shared_ptr<const V> find(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = held_.find(key);
    return it == held_.end() ? nullptr : it->second;
  }

  // Keeps `value` (of `bytes`) unless it alone would take more than a quarter of the budget.
  void put(const std::string& key, std::shared_ptr<const V> value, std::size_t bytes) {
    if (bytes > budget_ / 4) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (held_bytes_ + bytes > budget_) {
      held_.clear();
      held_bytes_ = 0;
    }
    if (held_.emplace(key, std::move(value)).second) held_bytes_ += bytes;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const V>> held_;
  std::size_t held_bytes_ = 0;
  const std::size_t budget_;
};

}  // namespace kope
