// The CPU twin's AscendC vector instructions (test-only), the count-argument forms of the CANN 8.0 API
// reference: every operand is a LocalTensor in the UB at a 32-byte aligned address and `count` elements lie in
// each; a violation stops the run as kope_fake_fail does. Arithmetic is IEEE in the operand type (half as
// _Float16, so fp16 accumulation rounds as on the board); Exp, Ln, Sqrt use the C library, which is at least as
// accurate as the vector unit. Max and Min propagate NaN; And and Or take 16-bit integers only. Compare writes one
// bit per element (bit i % 8 of byte i / 8) and, as on the board, needs count * sizeof(T) to be a multiple of 256
// bytes.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "kope_fake_ascendc_memory.h"

namespace AscendC {

template <typename T> inline constexpr bool kope_fake_float = std::is_same_v<T, float> || std::is_same_v<T, half>;

// Atlas A2's vector instructions take bfloat16_t in Cast (to and from float) and Duplicate only: arithmetic,
// reductions and comparisons on bf16 data go through a Cast to float first.
#define KOPE_FAKE_NO_BF16(T, call) \
  static_assert(!std::is_same_v<T, bfloat16_t>, call ": Atlas A2's vector unit takes bfloat16_t in Cast only; Cast to float first")

template <typename T, typename... R> T* kope_fake_operands(const char* call, int32_t count, const LocalTensor<T>& d, const R&... r) {
  if (count < 0) kope_fake_fail(call, "negative count %lld", count);
  d.kope_check(static_cast<uint32_t>(count), call);
  (r.kope_check(static_cast<uint32_t>(count), call), ...);
  return d.GetPhyAddr();
}

#define KOPE_FAKE_UNARY(Name, expr)                                                        \
  template <typename T> void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    KOPE_FAKE_NO_BF16(T, #Name);                                                            \
    T* d = kope_fake_operands(#Name, count, dst, src);                                      \
    const T* s = src.GetPhyAddr();                                                          \
    for (int32_t i = 0; i < count; ++i) {                                                   \
      const T x = s[i];                                                                     \
      d[i] = static_cast<T>(expr);                                                          \
    }                                                                                       \
  }
KOPE_FAKE_UNARY(Exp, std::exp(static_cast<float>(x)))
KOPE_FAKE_UNARY(Ln, std::log(static_cast<float>(x)))
KOPE_FAKE_UNARY(Abs, std::fabs(static_cast<float>(x)))
KOPE_FAKE_UNARY(Sqrt, std::sqrt(static_cast<float>(x)))
KOPE_FAKE_UNARY(Rsqrt, 1.0f / std::sqrt(static_cast<float>(x)))
KOPE_FAKE_UNARY(Reciprocal, 1.0f / static_cast<float>(x))
KOPE_FAKE_UNARY(Relu, x > T(0) ? x : (x != x ? x : T(0)))
#undef KOPE_FAKE_UNARY

// And and Or: bitwise, on 16-bit integers only (int16_t, uint16_t on Atlas A2: the reference's And and Or; wider or
// narrower data go through a ReinterpretCast<uint16_t>).
#define KOPE_FAKE_BITWISE(Name, op)                                                                            \
  template <typename T>                                                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) { \
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, #Name " takes int16_t or uint16_t"); \
    T* d = kope_fake_operands(#Name, count, dst, src0, src1);                                                  \
    const T* p = src0.GetPhyAddr();                                                                            \
    const T* q = src1.GetPhyAddr();                                                                            \
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(p[i] op q[i]);                                  \
  }
KOPE_FAKE_BITWISE(And, &)
KOPE_FAKE_BITWISE(Or, |)
#undef KOPE_FAKE_BITWISE

template <typename T> T kope_fake_max(T a, T b) { return a != a ? a : b != b ? b : (a > b ? a : b); }
template <typename T> T kope_fake_min(T a, T b) { return a != a ? a : b != b ? b : (a < b ? a : b); }

#define KOPE_FAKE_BINARY(Name, expr)                                                                          \
  template <typename T>                                                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) { \
    KOPE_FAKE_NO_BF16(T, #Name);                                                                              \
    T* d = kope_fake_operands(#Name, count, dst, src0, src1);                                                 \
    const T* p = src0.GetPhyAddr();                                                                           \
    const T* q = src1.GetPhyAddr();                                                                           \
    for (int32_t i = 0; i < count; ++i) {                                                                     \
      const T a = p[i], b = q[i];                                                                             \
      d[i] = static_cast<T>(expr);                                                                            \
    }                                                                                                         \
  }
KOPE_FAKE_BINARY(Add, a + b)
KOPE_FAKE_BINARY(Sub, a - b)
KOPE_FAKE_BINARY(Mul, a * b)
KOPE_FAKE_BINARY(Div, a / b)
KOPE_FAKE_BINARY(Max, kope_fake_max(a, b))
KOPE_FAKE_BINARY(Min, kope_fake_min(a, b))
#undef KOPE_FAKE_BINARY

#define KOPE_FAKE_SCALAR(Name, expr)                                                                         \
  template <typename T, typename U>                                                                          \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalar, const int32_t& count) {   \
    KOPE_FAKE_NO_BF16(T, #Name);                                                                             \
    T* d = kope_fake_operands(#Name, count, dst, src);                                                       \
    const T* p = src.GetPhyAddr();                                                                           \
    const T b = static_cast<T>(scalar);                                                                      \
    for (int32_t i = 0; i < count; ++i) {                                                                    \
      const T a = p[i];                                                                                      \
      d[i] = static_cast<T>(expr);                                                                           \
    }                                                                                                        \
  }
KOPE_FAKE_SCALAR(Adds, a + b)
KOPE_FAKE_SCALAR(Muls, a * b)
KOPE_FAKE_SCALAR(Maxs, kope_fake_max(a, b))
KOPE_FAKE_SCALAR(Mins, kope_fake_min(a, b))
#undef KOPE_FAKE_SCALAR

template <typename T, typename U> void Duplicate(const LocalTensor<T>& dst, const U& scalar, const int32_t& count) {
  T* d = kope_fake_operands("Duplicate", count, dst);
  const T v = static_cast<T>(scalar);
  for (int32_t i = 0; i < count; ++i) d[i] = v;
}

// ---- Cast -------------------------------------------------------------------------------------------------------
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

template <typename D> D kope_fake_round_to(double v, RoundMode m) {
  if constexpr (std::is_integral_v<D>) {
    double r = m == RoundMode::CAST_FLOOR ? std::floor(v) : m == RoundMode::CAST_CEIL ? std::ceil(v)
             : m == RoundMode::CAST_ROUND ? std::round(v) : m == RoundMode::CAST_TRUNC ? std::trunc(v) : std::nearbyint(v);
    if (r != r) return 0;  // the vector unit saturates; NaN converts to 0
    const double lo = static_cast<double>(std::numeric_limits<D>::min()), hi = static_cast<double>(std::numeric_limits<D>::max());
    return static_cast<D>(r < lo ? lo : r > hi ? hi : r);
  } else {
    return static_cast<D>(v);  // to float or half: round to nearest even (what CAST_NONE and CAST_RINT do)
  }
}

// bfloat16_t converts to and from float only (and to int32_t), as on Atlas A2; float to bfloat16_t honours the mode.
template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint32_t& count) {
  constexpr bool to_bf16 = std::is_same_v<D, bfloat16_t>, from_bf16 = std::is_same_v<S, bfloat16_t>;
  static_assert(!to_bf16 || std::is_same_v<S, float>, "Cast: bfloat16_t is made from float only");
  static_assert(!from_bf16 || std::is_same_v<D, float> || std::is_same_v<D, int32_t>,
                "Cast: bfloat16_t converts to float or int32_t only");
  D* d = kope_fake_operands("Cast", static_cast<int32_t>(count), dst);
  src.kope_check(count, "Cast");
  const S* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (to_bf16) d[i].bits = kope_fake_bf16_bits(s[i], static_cast<int>(mode));
    else if constexpr (from_bf16 && std::is_same_v<D, float>) d[i] = static_cast<float>(s[i]);
    else if constexpr (from_bf16) d[i] = kope_fake_round_to<D>(static_cast<double>(static_cast<float>(s[i])), mode);
    else if constexpr (std::is_integral_v<D> && std::is_integral_v<S>) d[i] = static_cast<D>(s[i]);
    else if constexpr (std::is_integral_v<D>) d[i] = kope_fake_round_to<D>(static_cast<double>(s[i]), mode);
    else d[i] = static_cast<D>(s[i]);
  }
}

// ---- Reductions: the result in dst[0] (ReduceMax/ReduceMin with calIndex: the index's bits in dst[1]) ----------
template <typename T> T kope_fake_tree_sum(const T* p, int32_t n) {  // as the vector unit's tree adds, in T
  if (n <= 64) {
    T s = T(0);
    for (int32_t i = 0; i < n; ++i) s = static_cast<T>(s + p[i]);
    return s;
  }
  const int32_t h = (n / 2 + 63) / 64 * 64;
  return static_cast<T>(kope_fake_tree_sum(p, h) + kope_fake_tree_sum(p + h, n - h));
}

template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count) {
  KOPE_FAKE_NO_BF16(T, "ReduceSum");
  kope_fake_operands("ReduceSum", count, src);
  dst.kope_check(1, "ReduceSum");
  work.kope_check(1, "ReduceSum");
  dst.GetPhyAddr()[0] = kope_fake_tree_sum(src.GetPhyAddr(), count);
}

template <typename T, bool is_max>
void kope_fake_reduce_extreme(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<T>& work, int32_t count, bool calIndex) {
  KOPE_FAKE_NO_BF16(T, "ReduceMax/ReduceMin");
  kope_fake_operands(call, count, src);
  dst.kope_check(calIndex ? 2 : 1, call);
  work.kope_check(1, call);
  if (count <= 0) kope_fake_fail(call, "count %lld: nothing to reduce", count);
  const T* p = src.GetPhyAddr();
  uint32_t best = 0;
  for (int32_t i = 1; i < count; ++i) {
    if (p[best] != p[best]) break;  // the first NaN wins
    if (p[i] != p[i] || (is_max ? p[i] > p[best] : p[i] < p[best])) best = static_cast<uint32_t>(i);
  }
  dst.GetPhyAddr()[0] = p[best];
  if (calIndex) {
    T bits;
    if constexpr (sizeof(T) == 4) std::memcpy(&bits, &best, 4);
    else { uint16_t b16 = static_cast<uint16_t>(best); std::memcpy(&bits, &b16, 2); }
    dst.GetPhyAddr()[1] = bits;
  }
}
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count,
               bool calIndex = false) {
  kope_fake_reduce_extreme<T, true>("ReduceMax", dst, src, work, count, calIndex);
}
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count,
               bool calIndex = false) {
  kope_fake_reduce_extreme<T, false>("ReduceMin", dst, src, work, count, calIndex);
}

// ---- Compare and Select -------------------------------------------------------------------------------------------
enum class CMPMODE { LT, GT, EQ, LE, GE, NE };
enum class SELMODE { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode, uint32_t count) {
  KOPE_FAKE_NO_BF16(T, "Compare");
  kope_fake_operands("Compare", static_cast<int32_t>(count), src0, src1);
  if ((uint64_t{count} * sizeof(T)) % 256 != 0)
    kope_fake_fail("Compare", "%lld bytes of operands is not a multiple of 256", static_cast<long long>(uint64_t{count} * sizeof(T)));
  LocalTensor<uint8_t> m = dst.template ReinterpretCast<uint8_t>();
  m.kope_check(count / 8, "Compare");
  uint8_t* bits = m.GetPhyAddr();
  const T* a = src0.GetPhyAddr();
  const T* b = src1.GetPhyAddr();
  std::memset(bits, 0, count / 8);
  for (uint32_t i = 0; i < count; ++i) {
    const bool r = mode == CMPMODE::LT ? a[i] < b[i] : mode == CMPMODE::GT ? a[i] > b[i] : mode == CMPMODE::EQ ? a[i] == b[i]
                 : mode == CMPMODE::LE ? a[i] <= b[i] : mode == CMPMODE::GE ? a[i] >= b[i] : a[i] != b[i];
    if (r) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
  }
}

template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            SELMODE mode, uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_TENSOR_MODE) kope_fake_fail("Select", "two tensors need VSEL_TENSOR_TENSOR_MODE");
  T* d = kope_fake_operands("Select", static_cast<int32_t>(count), dst, src0, src1);
  const uint8_t* bits = mask.template ReinterpretCast<uint8_t>().GetPhyAddr();
  mask.template ReinterpretCast<uint8_t>().kope_check((count + 7) / 8, "Select");
  for (uint32_t i = 0; i < count; ++i) d[i] = (bits[i / 8] >> (i % 8)) & 1u ? src0.GetPhyAddr()[i] : src1.GetPhyAddr()[i];
}

template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0, T scalar, SELMODE mode,
            uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) kope_fake_fail("Select", "a tensor and a scalar need VSEL_TENSOR_SCALAR_MODE");
  T* d = kope_fake_operands("Select", static_cast<int32_t>(count), dst, src0);
  const uint8_t* bits = mask.template ReinterpretCast<uint8_t>().GetPhyAddr();
  mask.template ReinterpretCast<uint8_t>().kope_check((count + 7) / 8, "Select");
  for (uint32_t i = 0; i < count; ++i) d[i] = (bits[i / 8] >> (i % 8)) & 1u ? src0.GetPhyAddr()[i] : scalar;
}

}  // namespace AscendC
