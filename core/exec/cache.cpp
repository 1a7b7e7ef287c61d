#include "kope/exec/cache.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace kope::exec {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

std::size_t parse_size(const std::string& s) {
  if (s.empty()) return 0;
  std::size_t i = 0;
  unsigned long long v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + static_cast<unsigned>(s[i++] - '0');
  const char unit = i < s.size() ? s[i] : 0;
  if (unit == 'K') v <<= 10;
  else if (unit == 'M') v <<= 20;
  else if (unit == 'G') v <<= 30;
  return static_cast<std::size_t>(v);
}

#if defined(__x86_64__) || defined(__i386__)
bool has_clflushopt() {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b >> 23) & 1;
}
#endif

}  // namespace

std::size_t largest_cache_bytes() {
  static const std::size_t cached = [] {
    std::size_t best = 0;
    for (int i = 0; i < 16; ++i) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
      const std::string type = read_line(dir + "/type");
      if (type.empty()) continue;
      if (type != "Data" && type != "Unified") continue;
      best = std::max(best, parse_size(read_line(dir + "/size")));
    }
    return best;
  }();
  return cached;
}

std::size_t default_flush_bytes() {
  const std::size_t cache = largest_cache_bytes();
  return std::clamp<std::size_t>(2 * cache, std::size_t{32} << 20, std::size_t{256} << 20);
}

bool can_flush_lines() {
#if defined(__x86_64__) || defined(__i386__)
  return true;  // clflush is baseline x86-64
#else
  return false;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("clflushopt"))) static void flush_opt(const char* p, const char* end) {
  for (; p < end; p += 64) _mm_clflushopt(const_cast<char*>(p));
  _mm_sfence();
}
static void flush_plain(const char* p, const char* end) {
  for (; p < end; p += 64) _mm_clflush(p);
  _mm_mfence();
}
#endif

void flush_lines(const void* p, std::size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool opt = has_clflushopt();
  const char* b = reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t{63});
  const char* e = static_cast<const char*>(p) + n;
  if (opt) flush_opt(b, e);
  else flush_plain(b, e);
#else
  (void)p;
  (void)n;
#endif
}

ReadFlusher::ReadFlusher(std::size_t bytes) : buf_(bytes ? bytes : default_flush_bytes(), 1) {}

void ReadFlusher::flush() {
  const volatile unsigned char* p = buf_.data();
  unsigned s = 0;
  for (std::size_t i = 0; i < buf_.size(); i += 64) s += p[i];
  sink_ += s;
}

double copy_bandwidth(std::vector<unsigned char>& buf) {
  const std::size_t half = buf.size() / 2;
  double best = 0.0;
  for (int i = 0; i < 3; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(buf.data() + half, buf.data(), half);
    auto t1 = std::chrono::steady_clock::now();
    double ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    if (ns > 0) best = std::max(best, 2.0 * static_cast<double>(half) / ns);
  }
  return best;
}

}  // namespace kope::exec
