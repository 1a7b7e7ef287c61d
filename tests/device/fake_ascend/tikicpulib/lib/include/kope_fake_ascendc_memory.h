// The CPU twin's AscendC memory model (test-only): GM and UB tensors, TPipe with the Unified Buffer's capacity,
// TQue/TBuf, DataCopy with the 32-byte rule and DataCopyPad, the pipe barriers and flags (no-ops here: the twin
// runs each block's instructions in program order, so it checks what a kernel computes, not its synchronisation).
// Written against the CANN 8.0 AscendC API reference (kernel_operator.h); where the real one only leaves a
// result undefined (an unaligned copy, a buffer overrun, a queue misuse), this one stops the run with a message
// naming the call, which the worker reports as a crash, as a board reports an AI Core exception.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <type_traits>
#include <vector>

#define __global__
#define __aicore__
#define __gm__
typedef uint8_t* GM_ADDR;
using half = _Float16;

// bfloat16_t: on the board a 16-bit type (float's upper half) that Atlas A2's vector unit takes in Cast and data
// moves only (kope_fake_ascendc_vector.h refuses it in arithmetic). Here 16 bits converting as the compiler's
// __bf16 does, implicitly: from a number rounding to nearest even (Cast's other modes are in kope_fake_bf16_bits),
// to float exactly.
inline uint16_t kope_fake_bf16_bits(float f, int mode);  // mode: an AscendC::RoundMode as int
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U> || std::is_same_v<U, _Float16>>>
  bfloat16_t(U v) : bits(kope_fake_bf16_bits(static_cast<float>(v), 1)) {}
  operator float() const {
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};
// float to bfloat16_t's bits under a rounding mode (0 CAST_NONE and 1 CAST_RINT: nearest even; 2 CAST_FLOOR;
// 3 CAST_CEIL; 4 CAST_ROUND: nearest, ties away; 5 CAST_TRUNC; 6 CAST_ODD). NaN stays a quiet NaN; past bf16's
// range, nearest modes give infinity as the carry runs into the exponent.
inline uint16_t kope_fake_bf16_bits(float f, int mode) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  const uint32_t low = u & 0xffffu, sign = u >> 31;
  uint32_t up = u >> 16;  // the magnitude truncated (sign-magnitude: adding 1 moves away from zero)
  switch (mode) {
    case 0: case 1: up = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; break;
    case 2: if (low && sign) ++up; break;
    case 3: if (low && !sign) ++up; break;
    case 4: up = (u + 0x8000u) >> 16; break;
    case 6: if (low) up |= 1u; break;
    default: break;
  }
  return static_cast<uint16_t>(up);
}

namespace AscendC {

inline int64_t& kope_fake_block_idx() { static thread_local int64_t b = 0; return b; }
inline int64_t& kope_fake_block_num() { static thread_local int64_t n = 1; return n; }
inline int64_t GetBlockIdx() { return kope_fake_block_idx(); }
inline int64_t GetBlockNum() { return kope_fake_block_num(); }

[[noreturn]] inline void kope_fake_fail(const char* call, const char* why, long long a = 0, long long b = 0) {
  std::fprintf(stderr, "AscendC CPU twin: block %lld: %s: ", static_cast<long long>(GetBlockIdx()), call);
  std::fprintf(stderr, why, a, b);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

// The Unified Buffer of one AI Core: 192 KB on Atlas A2 (910B) vector cores; UB addresses are 32-byte aligned.
constexpr uint32_t kUbBytes = 192 * 1024;
constexpr uint32_t kBlockBytes = 32;
inline uint8_t* kope_fake_ub() {
  alignas(64) static thread_local uint8_t ub[kUbBytes];
  return ub;
}

enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, MAX };
using QuePosition = TPosition;
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };
enum class HardEvent : uint8_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
                                 MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2,
                                 MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S,
                                 M_S, FIX_MTE3 };
using TEventID = int8_t;
template <pipe_t pipe> inline void PipeBarrier() {}
template <HardEvent e> inline void SetFlag(int32_t) {}
template <HardEvent e> inline void WaitFlag(int32_t) {}

// A tensor in global memory. SetGlobalBuffer's size, when given, bounds every access through this tensor and
// the tensors operator[] derives from it (a board would read or write a neighbour's memory instead).
template <typename T> class GlobalTensor {
 public:
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize = 0) {
    addr_ = buffer, size_ = bufferSize, sized_ = bufferSize != 0, past_end_ = false;
  }
  T GetValue(uint64_t i) const { return addr_[check(i, "GlobalTensor::GetValue")]; }
  void SetValue(uint64_t i, T v) { addr_[check(i, "GlobalTensor::SetValue")] = v; }
  GlobalTensor operator[](uint64_t off) const {
    GlobalTensor g = *this;
    g.addr_ = addr_ + off;
    g.past_end_ = past_end_ || (sized_ && off > size_);
    g.size_ = sized_ && off <= size_ ? size_ - off : 0;
    return g;
  }
  __gm__ T* GetPhyAddr() const { return addr_; }
  uint64_t GetSize() const { return size_; }
  // Elements [i, i + n) lie in the buffer SetGlobalBuffer gave (when it gave a size).
  void kope_check_range(uint64_t i, uint64_t n, const char* call) const {
    if (past_end_ || (sized_ && n > 0 && i + n > size_))
      kope_fake_fail(call, "global memory access past the end of the tensor (%lld elements from element %lld)",
                     static_cast<long long>(n), static_cast<long long>(i));
  }

 private:
  uint64_t check(uint64_t i, const char* call) const {
    kope_check_range(i, 1, call);
    return i;
  }
  T* addr_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
  bool past_end_ = false;
};

template <typename T> class LocalTensor {
 public:
  LocalTensor() = default;
  LocalTensor(T* addr, uint32_t size, TPosition pos) : addr_(addr), size_(size), pos_(pos) {}
  T GetValue(uint32_t i) const { return addr_[check(i, "LocalTensor::GetValue")]; }
  void SetValue(uint32_t i, T v) { addr_[check(i, "LocalTensor::SetValue")] = v; }
  LocalTensor operator[](uint32_t off) const {
    if (off > size_) kope_fake_fail("LocalTensor::operator[]", "offset %lld past a tensor of %lld elements", off, size_);
    return LocalTensor(addr_ + off, size_ - off, pos_);
  }
  template <typename U> LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(uint64_t{size_} * sizeof(T) / sizeof(U)), pos_);
  }
  uint32_t GetSize() const { return size_; }
  T* GetPhyAddr() const { return addr_; }
  TPosition GetPosition() const { return pos_; }
  // Byte offset in the Unified Buffer (what the 32-byte rules are about).
  uint64_t kope_ub_offset() const { return static_cast<uint64_t>(reinterpret_cast<uint8_t*>(addr_) - kope_fake_ub()); }
  void kope_check(uint32_t n, const char* call, bool aligned = true) const {
    if (addr_ == nullptr) kope_fake_fail(call, "a LocalTensor that no AllocTensor/DeQue/Get gave");
    if (n > size_) kope_fake_fail(call, "%lld elements on a tensor of %lld (beyond its buffer in the UB)", n, size_);
    if (aligned && kope_ub_offset() % kBlockBytes != 0)
      kope_fake_fail(call, "UB address offset %lld is not 32-byte aligned", static_cast<long long>(kope_ub_offset()));
  }

 private:
  uint32_t check(uint32_t i, const char* call) const {
    kope_check(i + 1, call, false);
    return i;
  }
  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
};

// A queue's or a buffer's place in the UB, handed out by TPipe::InitBuffer.
struct KopeFakeUbSlot {
  uint8_t* addr = nullptr;
  uint32_t len = 0;
  bool in_use = false;
};

template <TPosition pos, int32_t depth> class TQue {
 public:
  template <typename T> LocalTensor<T> AllocTensor() {
    for (auto& s : slots_)
      if (!s.in_use) {
        s.in_use = true;
        return LocalTensor<T>(reinterpret_cast<T*>(s.addr), s.len / sizeof(T), pos);
      }
    kope_fake_fail("TQue::AllocTensor", slots_.empty() ? "the queue has no buffers (no TPipe::InitBuffer)"
                                                       : "all %lld buffers of the queue are in use (a FreeTensor missing?)",
                   static_cast<long long>(slots_.size()));
  }
  template <typename T> bool EnQue(const LocalTensor<T>& t) {
    slot_of(t.GetPhyAddr(), "TQue::EnQue");
    if (fifo_.size() >= slots_.size()) kope_fake_fail("TQue::EnQue", "the queue is full (%lld entries)", static_cast<long long>(fifo_.size()));
    fifo_.push_back(reinterpret_cast<uint8_t*>(t.GetPhyAddr()));
    return true;
  }
  template <typename T> LocalTensor<T> DeQue() {
    if (fifo_.empty()) kope_fake_fail("TQue::DeQue", "the queue is empty (no EnQue before it)");
    uint8_t* a = fifo_.front();
    fifo_.pop_front();
    return LocalTensor<T>(reinterpret_cast<T*>(a), slot_of(a, "TQue::DeQue").len / sizeof(T), pos);
  }
  template <typename T> void FreeTensor(LocalTensor<T>& t) {
    KopeFakeUbSlot& s = slot_of(t.GetPhyAddr(), "TQue::FreeTensor");
    if (!s.in_use) kope_fake_fail("TQue::FreeTensor", "the buffer is not allocated (freed twice?)");
    s.in_use = false;
  }
  std::vector<KopeFakeUbSlot> slots_;

 private:
  KopeFakeUbSlot& slot_of(const void* p, const char* call) {
    for (auto& s : slots_)
      if (s.addr == p) return s;
    kope_fake_fail(call, "a tensor that is not the start of one of this queue's buffers");
  }
  std::deque<uint8_t*> fifo_;
};

template <TPosition pos = TPosition::VECCALC> class TBuf {
 public:
  template <typename T> LocalTensor<T> Get() { return Get<T>(slot_.len / sizeof(T)); }
  template <typename T> LocalTensor<T> Get(uint32_t len) {
    if (!slot_.addr) kope_fake_fail("TBuf::Get", "the buffer has no space (no TPipe::InitBuffer)");
    if (uint64_t{len} * sizeof(T) > slot_.len) kope_fake_fail("TBuf::Get", "%lld elements from a buffer of %lld bytes", len, slot_.len);
    return LocalTensor<T>(reinterpret_cast<T*>(slot_.addr), len, pos);
  }
  KopeFakeUbSlot slot_;
};

// One pipe per kernel run: it carves the UB into the queues' and buffers' spaces and fails past its capacity.
class TPipe {
 public:
  TPipe() { used_ = 0; }
  template <TPosition pos, int32_t depth> bool InitBuffer(TQue<pos, depth>& q, uint8_t num, uint32_t len) {
    if (num == 0 || len == 0) kope_fake_fail("TPipe::InitBuffer", "%lld buffers of %lld bytes", num, len);
    q.slots_.clear();
    for (uint8_t i = 0; i < num; ++i) q.slots_.push_back({carve(len), round_up(len), false});
    return true;
  }
  template <TPosition pos> bool InitBuffer(TBuf<pos>& b, uint32_t len) {
    b.slot_ = {carve(len), round_up(len), false};
    return true;
  }
  void Destroy() { used_ = 0; }
  void Reset() { used_ = 0; }

 private:
  static uint32_t round_up(uint32_t len) { return (len + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }
  uint8_t* carve(uint32_t len) {
    const uint64_t need = uint64_t{used_} + round_up(len);
    if (need > kUbBytes)
      kope_fake_fail("TPipe::InitBuffer", "Unified Buffer overflow: %lld bytes asked for in all, the UB holds %lld",
                     static_cast<long long>(need), static_cast<long long>(kUbBytes));
    uint8_t* p = kope_fake_ub() + used_;
    std::memset(p, 0xA5, round_up(len));  // stale data, as a UB holds after another kernel ran
    used_ = static_cast<uint32_t>(need);
    return p;
  }
  uint32_t used_ = 0;
};

// ---- DataCopy: GM <-> UB and UB <-> UB in whole 32-byte blocks -------------------------------------------------
struct DataCopyParams {
  uint16_t blockCount = 1;  // blocks
  uint16_t blockLen = 0;    // each block's length, in 32-byte units
  uint16_t srcStride = 0;   // the gap after each source block, in 32-byte units
  uint16_t dstStride = 0;   // the gap after each destination block, in 32-byte units
  DataCopyParams() = default;
  DataCopyParams(uint16_t c, uint16_t l, uint16_t s, uint16_t d) : blockCount(c), blockLen(l), srcStride(s), dstStride(d) {}
};

template <typename T> void kope_fake_copy_len_check(uint32_t count, const char* call) {
  if ((uint64_t{count} * sizeof(T)) % kBlockBytes != 0)
    kope_fake_fail(call, "%lld bytes is not a multiple of 32 (DataCopy moves whole 32-byte blocks; copy a tail with "
                         "DataCopyPad)", static_cast<long long>(uint64_t{count} * sizeof(T)));
}

template <typename T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  kope_fake_copy_len_check<T>(count, "DataCopy(GM->UB)");
  dst.kope_check(count, "DataCopy(GM->UB)");
  src.kope_check_range(0, count, "DataCopy(GM->UB)");
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t{count} * sizeof(T));
}
template <typename T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  kope_fake_copy_len_check<T>(count, "DataCopy(UB->GM)");
  src.kope_check(count, "DataCopy(UB->GM)");
  dst.kope_check_range(0, count, "DataCopy(UB->GM)");
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t{count} * sizeof(T));
}
template <typename T> void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  kope_fake_copy_len_check<T>(count, "DataCopy(UB->UB)");
  dst.kope_check(count, "DataCopy(UB->UB)");
  src.kope_check(count, "DataCopy(UB->UB)");
  std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t{count} * sizeof(T));
}
template <typename T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  const uint32_t per = p.blockLen * kBlockBytes / sizeof(T), gs = p.srcStride * kBlockBytes / sizeof(T),
                 ls = p.dstStride * kBlockBytes / sizeof(T);
  for (uint32_t b = 0; b < p.blockCount; ++b) DataCopy(dst[b * (per + ls)], src[b * (per + gs)], per);
}
template <typename T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const uint32_t per = p.blockLen * kBlockBytes / sizeof(T), ls = p.srcStride * kBlockBytes / sizeof(T),
                 gs = p.dstStride * kBlockBytes / sizeof(T);
  for (uint32_t b = 0; b < p.blockCount; ++b) DataCopy(dst[b * (per + gs)], src[b * (per + ls)], per);
}

// ---- DataCopyPad: any byte length; the UB side of each block is padded to 32 bytes ------------------------------
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes
  uint32_t srcStride = 0;  // GM->UB: bytes between source blocks; UB->GM: 32-byte units
  uint32_t dstStride = 0;  // GM->UB: 32-byte units; UB->GM: bytes
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t c, uint32_t l, uint32_t s, uint32_t d, uint32_t r)
      : blockCount(c), blockLen(l), srcStride(s), dstStride(d), rsv(r) {}
};
template <typename T> struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements, after each block's data
  T paddingValue = 0;
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool p, uint8_t l, uint8_t r, T v) : isPad(p), leftPadding(l), rightPadding(r), paddingValue(v) {}
};

template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  if (p.blockLen % sizeof(T) != 0) kope_fake_fail("DataCopyPad(GM->UB)", "blockLen %lld is not a whole number of elements", p.blockLen);
  const uint32_t n = p.blockLen / sizeof(T);
  const uint32_t lpad = pad.isPad ? pad.leftPadding : 0;
  const uint32_t ub_block = (lpad * sizeof(T) + p.blockLen + kBlockBytes - 1) / kBlockBytes * kBlockBytes / sizeof(T);
  const uint32_t ub_step = ub_block + p.dstStride * kBlockBytes / sizeof(T);
  dst.kope_check(p.blockCount ? (p.blockCount - 1) * ub_step + ub_block : 0, "DataCopyPad(GM->UB)");
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    const uint64_t from = uint64_t{b} * (p.blockLen + p.srcStride) / sizeof(T);
    src.kope_check_range(from, n, "DataCopyPad(GM->UB)");
    T* to = dst.GetPhyAddr() + uint64_t{b} * ub_step;
    for (uint32_t i = 0; i < lpad; ++i) to[i] = pad.paddingValue;
    std::memcpy(to + lpad, src.GetPhyAddr() + from, p.blockLen);
    if (pad.isPad)
      for (uint32_t i = lpad + n; i < lpad + n + pad.rightPadding && i < ub_block; ++i) to[i] = pad.paddingValue;
  }
}

template <typename T> void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
  if (p.blockLen % sizeof(T) != 0) kope_fake_fail("DataCopyPad(UB->GM)", "blockLen %lld is not a whole number of elements", p.blockLen);
  const uint32_t n = p.blockLen / sizeof(T);
  const uint32_t ub_block = (p.blockLen + kBlockBytes - 1) / kBlockBytes * kBlockBytes / sizeof(T);
  const uint32_t ub_step = ub_block + p.srcStride * kBlockBytes / sizeof(T);
  src.kope_check(p.blockCount ? (p.blockCount - 1) * ub_step + n : 0, "DataCopyPad(UB->GM)");
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    const uint64_t to = uint64_t{b} * (p.blockLen + p.dstStride) / sizeof(T);
    dst.kope_check_range(to, n, "DataCopyPad(UB->GM)");
    std::memcpy(dst.GetPhyAddr() + to, src.GetPhyAddr() + uint64_t{b} * ub_step, p.blockLen);
  }
}

}  // namespace AscendC
