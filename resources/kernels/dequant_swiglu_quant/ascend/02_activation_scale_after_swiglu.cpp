// thought: rows over the AI cores, each row's H outputs kept in the UB; per 512-column chunk the reference's fp32 steps on the vector unit (int32 -> fp32 with CAST_RINT, * weight_scale, * activation_scale), but Swish in double-float pairs (hi + lo) of fp32, as the task wants it correctly rounded and the vector Exp is not: u = e^-|a| by Cody-Waite reduction (ln2 in three parts, 2^k built in the exponent bits) and a degree-12 Taylor series in Horner form, each step a Dekker product and a two-sum of plain fp32 Add/Sub/Mul; then sw = a * w / (1 + u) with w = 1 for a >= 0 and u below, a double-float division, and one rounding to fp32 (|a| > 86 takes u = e^-86: Swish is then a itself, or |a| e^-86 in place of the reference's denormal or 0, which y rounds to 0 unless every value of the row is that small). v = (sw * b) * quant_scale, scale = max |v| / 127 on the scalar unit, y = rint(v / scale) by a true Div, CAST_RINT and the exact int32 -> half -> int8 chain.
// flaw: the per-token activation_scale is folded in once after SwiGLU, as for a linear layer (v = Swish(x_a ws_a) (x_b ws_b) act qs), but Swish is not linear and both halves carry the scale: Swish(a act) (b act) differs from it in every row (every case but the all-zero one)
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
// It relies on the vector unit's fp32 Add, Sub, Mul and Div rounding to nearest even, as IEEE 754 has them.
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 512;        // columns per chunk (a multiple of 64: Compare's 256 bytes)
constexpr uint32_t MAXH = 16384;    // the widest row kept in the UB
constexpr uint32_t NT = 28;         // temporaries of CH floats: 0..16 the chunk's, 17..27 the helpers'
constexpr uint32_t MAX_CORES = 40;

// 1 / i! as fp32 pairs (hi, lo), i = 0..12.
constexpr float kInvFact[13][2] = {
    {0x1p+0f, 0.0f}, {0x1p+0f, 0.0f}, {0x1p-1f, 0.0f},
    {0x1.555556p-3f, -0x1.555556p-28f}, {0x1.555556p-5f, -0x1.555556p-30f}, {0x1.111112p-7f, -0x1.dddddep-32f},
    {0x1.6c16c2p-10f, -0x1.27d27ep-35f}, {0x1.a01a02p-13f, -0x1.7f97fap-39f}, {0x1.a01a02p-16f, -0x1.7f97fap-42f},
    {0x1.71de3ap-19f, 0x1.55b1ccp-45f}, {0x1.27e4fcp-22f, -0x1.10ec14p-47f}, {0x1.ae6456p-26f, 0x1.fd5138p-52f},
    {0x1.1eed8ep-29f, 0x1.ff1b14p-54f}};
// ln 2 = C1 + C2 + C3, C1 and C2 of 16 significant bits (k * C1 and k * C2 are exact for |k| < 2^8).
constexpr float kLn2C1 = 0x1.62e4p-1f, kLn2C2 = 0x1.7f7cp-20f, kLn2C3 = 0x1.1cf78p-36f;
constexpr float kInvLn2 = 0x1.715476p+0f;
constexpr float kSplit = 4097.0f;   // Dekker's splitter for fp32 (2^12 + 1)
constexpr float kMaxT = 86.0f;      // e^-86 is still a normal fp32, and so is 2^k down to k = -125

class KernelDequantSwigluQuant {
 public:
  __aicore__ inline KernelDequantSwigluQuant() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR ws, GM_ADDR as, GM_ADDR qs, GM_ADDR y, GM_ADDR scale, uint64_t M,
                              uint64_t H, int32_t left, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    H_ = H, left_ = left;
    xGm_.SetGlobalBuffer((__gm__ int32_t*)x, M * 2 * H);
    wsGm_.SetGlobalBuffer((__gm__ float*)ws, 2 * H);
    asGm_.SetGlobalBuffer((__gm__ float*)as, M);
    qsGm_.SetGlobalBuffer((__gm__ float*)qs, H);
    yGm_.SetGlobalBuffer((__gm__ int8_t*)y, M * H);
    sGm_.SetGlobalBuffer((__gm__ float*)scale, M);
    pipe_.InitBuffer(in_, 5 * CH * sizeof(float));   // x_a, x_b (int32), ws_a, ws_b, qs
    pipe_.InitBuffer(tmp_, NT * CH * sizeof(float));
    pipe_.InitBuffer(row_, MAXH * sizeof(float));
    pipe_.InitBuffer(mask_, CH / 8);
    pipe_.InitBuffer(out_, CH * sizeof(int8_t));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }

  __aicore__ inline void Process() {
    LocalTensor<float> row = row_.Get<float>(), s = s_.Get<float>(), t = tmp_.Get<float>();
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      const float act = asGm_.GetValue(r);
      for (uint64_t c = 0; c < H_; c += CH) SwiGlu(r, c, Len(c), act, row[(uint32_t)c]);
      float amax = 0.0f;
      for (uint64_t c = 0; c < H_; c += CH) {
        Abs(t, row[(uint32_t)c], (int32_t)Len(c));
        ReduceMax(s, t, t[CH], (int32_t)Len(c));
        Wait<HardEvent::V_S>();
        const float m = s.GetValue(0);
        amax = m > amax ? m : amax;
        Wait<HardEvent::S_V>();
      }
      const float scale = amax / 127.0f;  // fp32 division on the scalar unit
      s.SetValue(0, scale);
      Wait<HardEvent::S_MTE3>();
      DataCopyPad(sGm_[r], s, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
      Wait<HardEvent::MTE3_S>();
      for (uint64_t c = 0; c < H_; c += CH) Quantise(r, c, Len(c), scale, row[(uint32_t)c]);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint64_t c) const { return H_ - c < CH ? (uint32_t)(H_ - c) : CH; }
  template <HardEvent e> __aicore__ inline void Wait() {
    SetFlag<e>(0);
    WaitFlag<e>(0);
  }
  __aicore__ inline LocalTensor<float> T(uint32_t i) { return tmp_.Get<float>()[i * CH]; }

  // ---- double-float helpers, n elements each (every operand CH long) -------------------------------------------
  // (s, e) = a + b exactly
  __aicore__ inline void TwoSum(const LocalTensor<float>& s, const LocalTensor<float>& e, const LocalTensor<float>& a,
                                const LocalTensor<float>& b, int32_t n) {
    LocalTensor<float> bb = T(NT - 1), aa = T(NT - 2);
    Add(s, a, b, n);
    Sub(bb, s, a, n);
    Sub(aa, s, bb, n);
    Sub(aa, a, aa, n);
    Sub(bb, b, bb, n);
    Add(e, aa, bb, n);
  }
  // (s, e) = a + b exactly, |a| >= |b| (or a = 0)
  __aicore__ inline void FastTwoSum(const LocalTensor<float>& s, const LocalTensor<float>& e, const LocalTensor<float>& a,
                                    const LocalTensor<float>& b, int32_t n) {
    LocalTensor<float> z = T(NT - 1);
    Add(s, a, b, n);
    Sub(z, s, a, n);
    Sub(e, b, z, n);
  }
  // (p, e) = a * b exactly (Dekker: no fused multiply-add)
  __aicore__ inline void TwoProd(const LocalTensor<float>& p, const LocalTensor<float>& e, const LocalTensor<float>& a,
                                 const LocalTensor<float>& b, int32_t n) {
    LocalTensor<float> ah = T(NT - 3), al = T(NT - 4), bh = T(NT - 5), bl = T(NT - 6), z = T(NT - 7);
    Muls(z, a, kSplit, n);
    Sub(ah, z, a, n);
    Sub(ah, z, ah, n);
    Sub(al, a, ah, n);
    Muls(z, b, kSplit, n);
    Sub(bh, z, b, n);
    Sub(bh, z, bh, n);
    Sub(bl, b, bh, n);
    Mul(p, a, b, n);
    Mul(z, ah, bh, n);
    Sub(e, z, p, n);
    Mul(z, ah, bl, n);
    Add(e, e, z, n);
    Mul(z, al, bh, n);
    Add(e, e, z, n);
    Mul(z, al, bl, n);
    Add(e, e, z, n);
  }
  // (xh, xl) *= (yh, yl)
  __aicore__ inline void DfMul(const LocalTensor<float>& xh, const LocalTensor<float>& xl, const LocalTensor<float>& yh,
                               const LocalTensor<float>& yl, int32_t n) {
    LocalTensor<float> p = T(NT - 8), e = T(NT - 9), z = T(NT - 10);
    TwoProd(p, e, xh, yh, n);
    Mul(z, xh, yl, n);
    Add(e, e, z, n);
    Mul(z, xl, yh, n);
    Add(e, e, z, n);
    FastTwoSum(xh, xl, p, e, n);
  }
  // (xh, xl) += (ch, cl), constants
  __aicore__ inline void DfAddConst(const LocalTensor<float>& xh, const LocalTensor<float>& xl, float ch, float cl, int32_t n) {
    LocalTensor<float> c = T(NT - 8), s = T(NT - 9), e = T(NT - 10);
    Duplicate(c, ch, n);
    TwoSum(s, e, xh, c, n);
    Add(e, e, xl, n);
    Adds(e, e, cl, n);
    FastTwoSum(xh, xl, s, e, n);
  }
  // (qh, ql) = (xh, xl) / (yh, yl)
  __aicore__ inline void DfDiv(const LocalTensor<float>& qh, const LocalTensor<float>& ql, const LocalTensor<float>& xh,
                               const LocalTensor<float>& xl, const LocalTensor<float>& yh, const LocalTensor<float>& yl,
                               int32_t n) {
    LocalTensor<float> q1 = T(NT - 11), p = T(NT - 8), e = T(NT - 9), z = T(NT - 10);
    Div(q1, xh, yh, n);
    TwoProd(p, e, q1, yh, n);
    Sub(z, xh, p, n);
    Sub(z, z, e, n);
    Add(z, z, xl, n);
    Mul(e, q1, yl, n);
    Sub(z, z, e, n);
    Div(z, z, yh, n);
    FastTwoSum(qh, ql, q1, z, n);
  }

  // v = (Swish(a) * b) * quant_scale for columns c .. c + len of row r, into v.
  __aicore__ inline void SwiGlu(uint64_t r, uint64_t c, uint32_t len, float act, const LocalTensor<float>& v) {
    const int32_t n = (int32_t)CH;  // the whole chunk; columns past len hold zeros
    LocalTensor<float> io = in_.Get<float>();
    LocalTensor<int32_t> xa = io.ReinterpretCast<int32_t>(), xb = xa[CH];
    LocalTensor<float> wa = io[2 * CH], wb = io[3 * CH], q = io[4 * CH];
    const uint64_t ja = left_ ? c : H_ + c, jb = left_ ? H_ + c : c;
    Wait<HardEvent::V_MTE2>();
    Duplicate(io, 0.0f, (int32_t)(5 * CH));
    Wait<HardEvent::V_MTE2>();
    const DataCopyExtParams p4{1, (uint32_t)(len * 4), 0, 0, 0};
    DataCopyPad(xa, xGm_[r * 2 * H_ + ja], p4, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    DataCopyPad(xb, xGm_[r * 2 * H_ + jb], p4, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    DataCopyPad(wa, wsGm_[ja], p4, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(wb, wsGm_[jb], p4, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(q, qsGm_[c], p4, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    Wait<HardEvent::MTE2_V>();
    LocalTensor<float> a = T(0), b = T(1), t = T(2), kf = T(3), rh = T(4), rl = T(5), uh = T(6), ul = T(7);
    LocalTensor<float> z = T(8), ph = T(9), pl = T(10), dh = T(11), dl = T(12), sh = T(14), sl = T(15);
    LocalTensor<int32_t> ki = T(13).ReinterpretCast<int32_t>();
    // dequantise: a = fp32(x_a) * ws_a, likewise b (the per-token scale comes after SwiGLU)
    Cast(a, xa, RoundMode::CAST_RINT, n);
    Mul(a, a, wa, n);
    Cast(b, xb, RoundMode::CAST_RINT, n);
    Mul(b, b, wb, n);
    // u = e^-t, t = min(|a|, 86): -t = k ln2 + r, r in double-float
    Abs(t, a, n);
    Mins(t, t, kMaxT, n);
    Muls(kf, t, -kInvLn2, n);
    Cast(ki, kf, RoundMode::CAST_RINT, n);
    Cast(kf, ki, RoundMode::CAST_NONE, n);
    Muls(z, kf, kLn2C1, n);
    Muls(rh, t, -1.0f, n);
    Sub(rh, rh, z, n);             // -t - k C1, exact
    Muls(z, kf, -kLn2C2, n);       // -k C2, exact
    TwoSum(ph, pl, rh, z, n);
    Muls(z, kf, kLn2C3, n);
    Sub(pl, pl, z, n);
    FastTwoSum(rh, rl, ph, pl, n);
    // e^r by Horner: p = 1/12!; p = p * r + 1/i!
    Duplicate(uh, kInvFact[12][0], n);
    Duplicate(ul, kInvFact[12][1], n);
    for (int i = 11; i >= 0; --i) {
      DfMul(uh, ul, rh, rl, n);
      DfAddConst(uh, ul, kInvFact[i][0], kInvFact[i][1], n);
    }
    // * 2^k: the bits (k + 127) << 23
    Adds(ki, ki, (int32_t)127, n);
    Muls(ki, ki, (int32_t)(1 << 23), n);
    Mul(uh, uh, ki.ReinterpretCast<float>(), n);
    Mul(ul, ul, ki.ReinterpretCast<float>(), n);
    // d = 1 + u
    Duplicate(z, 1.0f, n);
    TwoSum(sh, sl, z, uh, n);
    Add(sl, sl, ul, n);
    FastTwoSum(dh, dl, sh, sl, n);
    // w = 1 for a >= 0, u below; numerator a * w
    LocalTensor<uint8_t> ge = mask_.Get<uint8_t>();
    Duplicate(z, 0.0f, n);
    Compare(ge, a, z, CMPMODE::GE, (uint32_t)n);
    Duplicate(z, 1.0f, n);
    Select(uh, ge, z, uh, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint32_t)n);
    Duplicate(z, 0.0f, n);
    Select(ul, ge, z, ul, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint32_t)n);
    TwoProd(sh, sl, a, uh, n);
    Mul(z, a, ul, n);
    Add(sl, sl, z, n);
    FastTwoSum(ph, pl, sh, sl, n);
    // sw = (a w) / (1 + u), rounded once to fp32
    DfDiv(uh, ul, ph, pl, dh, dl, n);
    Add(uh, uh, ul, n);
    // v = ((sw * b) * act) * quant_scale
    Mul(uh, uh, b, n);
    Muls(uh, uh, act, n);
    Mul(uh, uh, q, n);
    DataCopy(v, uh, (len + 7) / 8 * 8);  // the row buffer has room past H
  }

  __aicore__ inline void Quantise(uint64_t r, uint64_t c, uint32_t len, float scale, const LocalTensor<float>& v) {
    const int32_t n = (int32_t)CH;
    LocalTensor<float> f = T(0), d = T(1);
    LocalTensor<int32_t> qi = T(2).ReinterpretCast<int32_t>();
    LocalTensor<half> h = T(3).ReinterpretCast<half>();
    LocalTensor<int8_t> y = out_.Get<int8_t>();
    Wait<HardEvent::MTE3_V>();
    if (scale == 0.0f) {  // an all-zero row: y 0
      Duplicate(h, (half)0.0f, n);
    } else {
      DataCopy(f, v, (len + 7) / 8 * 8);
      Duplicate(d, scale, n);
      Div(f, f, d, (int32_t)len);  // a true division by the fp32 scale
      Cast(qi, f, RoundMode::CAST_RINT, len);
      Cast(h, qi, RoundMode::CAST_NONE, len);  // |q| <= 127: exact in half
    }
    Cast(y, h, RoundMode::CAST_NONE, len);
    Wait<HardEvent::V_MTE3>();
    DataCopyPad(yGm_[r * H_ + c], y, DataCopyExtParams{1, len, 0, 0, 0});
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> in_, tmp_, row_, mask_, out_, s_;
  GlobalTensor<int32_t> xGm_;
  GlobalTensor<float> wsGm_, asGm_, qsGm_, sGm_;
  GlobalTensor<int8_t> yGm_;
  uint64_t first_ = 0, rows_ = 0, H_ = 1;
  int32_t left_ = 1;
};

extern "C" __global__ __aicore__ void dequant_swiglu_quant_custom(GM_ADDR x, GM_ADDR ws, GM_ADDR as, GM_ADDR qs, GM_ADDR y,
                                                                  GM_ADDR scale, uint64_t M, uint64_t H, int32_t left,
                                                                  uint64_t rowsPerCore) {
  KernelDequantSwigluQuant op;
  op.Init(x, ws, as, qs, y, scale, M, H, left, rowsPerCore);
  op.Process();
}

// x int32 with fp32 scales; rows up to MAXH outputs wide (a wider one returns 2).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0], *s = &a->outputs[1];
  if (x->dtype != KOPE_I32 || a->inputs[1].dtype != KOPE_F32 || a->inputs[2].dtype != KOPE_F32 ||
      a->inputs[3].dtype != KOPE_F32 || y->dtype != KOPE_I8 || s->dtype != KOPE_F32 || x->ndim != 2)
    return 1;
  const uint64_t M = (uint64_t)x->shape[0], H = (uint64_t)x->shape[1] / 2;
  if ((uint64_t)x->shape[1] != 2 * H || (uint64_t)y->shape[1] != H) return 3;
  if (H > MAXH - 8) return 2;
  if (M == 0 || H == 0) return 0;
  const int32_t left = kope_attr_or(a, "activate_left", 1) != 0 ? 1 : 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, pw = (GM_ADDR)a->inputs[1].data, pa = (GM_ADDR)a->inputs[2].data,
          pq = (GM_ADDR)a->inputs[3].data, py = (GM_ADDR)y->data, ps = (GM_ADDR)s->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(dequant_swiglu_quant_custom, blockDim, px, pw, pa, pq, py, ps, M, H, left, rowsPerCore);
#else
  dequant_swiglu_quant_custom<<<blockDim, nullptr, stream>>>(px, pw, pa, pq, py, ps, M, H, left, rowsPerCore);
#endif
  return 0;
}
