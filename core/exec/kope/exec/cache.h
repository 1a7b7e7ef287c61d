// The memory hierarchy as the judge sees it: cache sizes from sysfs, two ways to start a call cold, and the
// copy bandwidth behind the memory-bound floor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kope::exec {

// The largest data or unified cache of cpu0 in bytes, read from /sys/devices/system/cpu/cpu0/cache/index*/
// (sysconf(_SC_LEVEL3_CACHE_SIZE) reports 320 MiB where sysfs says 32 MiB on some machines). 0 when unknown.
std::size_t largest_cache_bytes();

// The read-flush buffer size: twice the largest cache, at least 32 MiB, at most 256 MiB.
std::size_t default_flush_bytes();

// Whether this CPU can write back and evict one line by address (x86 clflushopt or clflush).
bool can_flush_lines();

// Evicts every cache line of [p, p + n) from every cache of the coherence domain (clflushopt, else clflush),
// then fences. Only where can_flush_lines().
void flush_lines(const void* p, std::size_t n);

// Reads every line of a buffer larger than the caches, so whatever was cached is evicted. Reads, not writes:
// evicting dirty flush lines would charge their write-back to the next timed call.
class ReadFlusher {
 public:
  explicit ReadFlusher(std::size_t bytes);
  void flush();
  std::size_t bytes() const { return buf_.size(); }
  std::vector<unsigned char>& buffer() { return buf_; }

 private:
  std::vector<unsigned char> buf_;
  unsigned sink_ = 0;
};

// Bytes per nanosecond one core moves in a large copy (read plus write), the best of three over `scratch`.
double copy_bandwidth(std::vector<unsigned char>& scratch);

}  // namespace kope::exec
