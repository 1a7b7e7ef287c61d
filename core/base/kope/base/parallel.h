// Splits an index range over the machine's cores for the judge's own passes over tensors (input generation),
// which run while no kernel is being timed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace kope {

// Calls fill(lo, hi) on disjoint ranges covering [0, n), on up to 8 threads (the caller's among them) when n
// is large enough to pay for a thread; each range but the last is a multiple of 64 elements.
template <typename F>
void parallel_ranges(std::size_t n, F&& fill) {
  static const unsigned cores = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const std::size_t parts = std::min<std::size_t>(cores, n / (std::size_t{1} << 18) + 1);
  if (parts <= 1) return fill(std::size_t{0}, n);
  const std::size_t chunk = (n / parts + 63) / 64 * 64;
  std::vector<std::thread> helpers;
  for (std::size_t p = 1; p < parts; ++p) {
    const std::size_t lo = std::min(n, p * chunk), hi = p + 1 == parts ? n : std::min(n, (p + 1) * chunk);
    helpers.emplace_back([&fill, lo, hi] { fill(lo, hi); });
  }
  fill(std::size_t{0}, std::min(n, chunk));
  for (auto& h : helpers) h.join();
}

}  // namespace kope
