// thought: x1, x2, gamma, smooth_scale and x_out fp16 or bf16 (CANN's dtypes; both cast to fp32 in the UB, every step in fp32, x_out cast back once with CAST_RINT): whole rows per AI core, a row resident in the UB as fp32 s = x1 + x2 (gamma and smooth_scale loaded once per core); the task fixes ms as the exactly summed mean of s^2 rounded once to fp32, and y (int8) is compared exactly, so the squares are summed as float-float on the vector unit (Dekker's split for each square's error, TwoSum into per-lane accumulators, a TwoSum halving tree) and the division by D corrected on the scalar unit; then r = 1 / Sqrt(ms + eps) with a true Div, t = ((s r) gamma) smooth in that order, scale = max|t| / 127, y = rint(t / scale) by Div and CAST_RINT.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t MAXD = 8192;  // the longest row kept resident (DeepSeek-V3's 7168 fits)
constexpr uint32_t CH = 1024;    // fp32 elements per chunk of the vector passes
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;

// One row m: s = x1 + x2 (fp32), x_out = s in T, ms = sum(s^2) / D (float-float, rounded once),
// r = 1 / sqrt(ms + eps), t = ((s r) gamma) smooth, scale = max|t| / 127, y = rint(t / scale).
template <typename T> class KernelAddRmsNormDynamicQuant {
 public:
  __aicore__ inline KernelAddRmsNormDynamicQuant() {}
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR smooth, GM_ADDR xo, GM_ADDR y, GM_ADDR scale,
                              uint64_t M, uint32_t D, uint64_t rowsPerCore, float eps) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    D_ = D, eps_ = eps;
    x1Gm_.SetGlobalBuffer((__gm__ T*)x1, M * D);
    x2Gm_.SetGlobalBuffer((__gm__ T*)x2, M * D);
    gGm_.SetGlobalBuffer((__gm__ T*)gamma, D);
    smGm_.SetGlobalBuffer((__gm__ T*)smooth, D);
    xoGm_.SetGlobalBuffer((__gm__ T*)xo, M * D);
    yGm_.SetGlobalBuffer((__gm__ int8_t*)y, M * D);
    sGm_.SetGlobalBuffer((__gm__ float*)scale, M);
    const uint32_t Dp = (D + CH - 1) / CH * CH;  // whole chunks, so every chunk's tensor offset is aligned
    pipe_.InitBuffer(x1Q_, BUFFER_NUM, Dp * sizeof(T));
    pipe_.InitBuffer(x2Q_, BUFFER_NUM, Dp * sizeof(T));
    pipe_.InitBuffer(xoQ_, 1, Dp * sizeof(T));
    pipe_.InitBuffer(yQ_, 1, Dp * sizeof(int8_t));
    pipe_.InitBuffer(g_, Dp * sizeof(T));
    pipe_.InitBuffer(sm_, Dp * sizeof(T));
    pipe_.InitBuffer(s_, Dp * sizeof(float));
    for (int i = 0; i < 6; ++i) pipe_.InitBuffer(w_[i], CH * sizeof(float));
    pipe_.InitBuffer(one_, 8 * sizeof(float));
  }

  __aicore__ inline void Process() {
    if (rows_ == 0) return;
    LocalTensor<T> g = g_.Get<T>(), sm = sm_.Get<T>();
    DataCopyPad(g, gGm_, DataCopyExtParams{1, (uint32_t)(D_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(sm, smGm_, DataCopyExtParams{1, (uint32_t)(D_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    CopyIn(first_);
    for (uint64_t m = first_; m < first_ + rows_; ++m) {
      LocalTensor<T> a = x1Q_.template DeQue<T>(), b = x2Q_.template DeQue<T>();
      if (m + 1 < first_ + rows_) CopyIn(m + 1);  // the next row's loads overlap this row's vector work
      LocalTensor<float> s = s_.Get<float>();
      LocalTensor<float> t0 = w_[0].Get<float>();
      for (uint32_t c = 0; c < D_; c += CH) {  // s = fp32(x1) + fp32(x2)
        const uint32_t n = Len(c);
        Cast(s[c], a[c], RoundMode::CAST_NONE, n);
        Cast(t0, b[c], RoundMode::CAST_NONE, n);
        Add(s[c], s[c], t0, n);
      }
      x1Q_.FreeTensor(a);
      x2Q_.FreeTensor(b);
      LocalTensor<T> xo = xoQ_.template AllocTensor<T>();
      Cast(xo, s, RoundMode::CAST_RINT, D_);
      xoQ_.EnQue(xo);
      xo = xoQ_.template DeQue<T>();
      DataCopyPad(xoGm_[m * D_], xo, DataCopyExtParams{1, (uint32_t)(D_ * sizeof(T)), 0, 0, 0});
      xoQ_.FreeTensor(xo);

      const float r = InvRms(s);
      // t = ((s r) gamma) smooth, three fp32 multiplies in that order; max |t| on the side.
      float amax = 0.0f;
      for (uint32_t c = 0; c < D_; c += CH) {
        const uint32_t n = Len(c);
        LocalTensor<float> f = w_[0].Get<float>(), ab = w_[1].Get<float>(), red = w_[2].Get<float>();
        Muls(s[c], s[c], r, n);
        Cast(f, g[c], RoundMode::CAST_NONE, n);
        Mul(s[c], s[c], f, n);
        Cast(f, sm[c], RoundMode::CAST_NONE, n);
        Mul(s[c], s[c], f, n);
        Abs(ab, s[c], n);
        ReduceMax(red, ab, f, n);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float mx = red.GetValue(0);
        amax = mx > amax ? mx : amax;
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
      }
      const float scale = amax / 127.0f;
      LocalTensor<float> o = one_.Get<float>();
      o.SetValue(0, scale);
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(sGm_[m], o, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
      SetFlag<HardEvent::MTE3_V>(0);  // one_ is the next row's vector scratch
      WaitFlag<HardEvent::MTE3_V>(0);
      // y = rint(t / scale): Div (not a reciprocal multiply), float -> int32 (CAST_RINT) -> half -> int8, all exact.
      LocalTensor<int8_t> y = yQ_.template AllocTensor<int8_t>();
      for (uint32_t c = 0; c < D_; c += CH) {
        const uint32_t n = Len(c);
        LocalTensor<float> d = w_[0].Get<float>(), f = w_[1].Get<float>();
        LocalTensor<int32_t> q = w_[2].Get<int32_t>();
        LocalTensor<half> h = w_[3].Get<half>();
        if (scale == 0.0f) {
          Duplicate(h, (half)0.0f, n);
        } else {
          Duplicate(d, scale, n);
          Div(f, s[c], d, n);
          Cast(q, f, RoundMode::CAST_RINT, n);
          Cast(h, q, RoundMode::CAST_NONE, n);
        }
        Cast(y[c], h, RoundMode::CAST_NONE, n);
      }
      yQ_.EnQue(y);
      y = yQ_.template DeQue<int8_t>();
      DataCopyPad(yGm_[m * D_], y, DataCopyExtParams{1, D_, 0, 0, 0});
      yQ_.FreeTensor(y);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint32_t c) const { return D_ - c < CH ? D_ - c : CH; }

  __aicore__ inline void CopyIn(uint64_t m) {
    LocalTensor<T> a = x1Q_.template AllocTensor<T>(), b = x2Q_.template AllocTensor<T>();
    DataCopyPad(a, x1Gm_[m * D_], DataCopyExtParams{1, (uint32_t)(D_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(b, x2Gm_[m * D_], DataCopyExtParams{1, (uint32_t)(D_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    x1Q_.EnQue(a);
    x2Q_.EnQue(b);
  }

  // 1 / sqrt(ms + eps) with ms = fl(sum(s^2) / D): the squares and their rounding errors (Dekker) summed per lane
  // with TwoSum (acc + comp), the lanes folded by a TwoSum halving tree, the last 8 and the compensation summed on
  // the scalar unit, and the quotient by D corrected by its remainder.
  __aicore__ inline float InvRms(const LocalTensor<float>& s) {
    LocalTensor<float> acc = w_[0].Get<float>(), comp = w_[1].Get<float>(), p = w_[2].Get<float>(),
                       q = w_[3].Get<float>(), u = w_[4].Get<float>();
    Duplicate(acc, 0.0f, CH);
    Duplicate(comp, 0.0f, CH);
    for (uint32_t c = 0; c < D_; c += CH) {
      const uint32_t n = Len(c);
      const LocalTensor<float> x = s[c];
      LocalTensor<float> e = w_[5].Get<float>();
      Mul(p, x, x, n);         // p = fl(x^2)
      Muls(q, x, 4097.0f, n);  // Dekker's split: hi = C - (C - x), lo = x - hi
      Sub(u, q, x, n);
      Sub(u, q, u, n);         // u = hi
      Sub(q, x, u, n);         // q = lo
      Mul(e, u, u, n);         // the square's exact error: ((hi hi - p) + 2 hi lo) + lo lo
      Sub(e, e, p, n);
      Mul(u, u, q, n);
      Muls(u, u, 2.0f, n);
      Add(e, e, u, n);
      Mul(q, q, q, n);
      Add(e, e, q, n);
      Add(comp, comp, e, n);
      TwoSumInto(acc, p, comp, n);
    }
    // Fold the lanes: acc[0, len) += acc[len, 2 len) with TwoSum, errors into comp.
    for (uint32_t len = CH / 2; len >= 8; len /= 2) {
      LocalTensor<float> hi = acc[len];
      DataCopy(p, hi, len);
      TwoSumInto(acc, p, comp, len);
    }
    LocalTensor<float> red = w_[2].Get<float>(), wk = w_[3].Get<float>();
    ReduceSum(red, comp, wk, CH);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    volatile float H = 0.0f, L = red.GetValue(0);
    for (uint32_t i = 0; i < 8; ++i) {  // scalar TwoSum of the last 8 lanes
      const float a = acc.GetValue(i);
      volatile float t = H + a;
      volatile float bv = t - H;
      volatile float e1 = t - bv;
      volatile float e2 = H - e1;
      volatile float e3 = a - bv;
      L = L + (e2 + e3);
      H = t;
    }
    volatile float S = H + L;
    volatile float Sd = S - H;
    L = L - Sd;
    H = S;
    // ms = fl((H + L) / D): q = H / D, its product with D exactly (Dekker), the remainder's quotient added.
    const float Df = (float)D_;
    volatile float qt = H / Df;
    volatile float pr = qt * Df;
    volatile float cq = qt * 4097.0f;
    volatile float qh0 = cq - qt;
    volatile float qh = cq - qh0;
    volatile float ql = qt - qh;
    volatile float cd = Df * 4097.0f;
    volatile float dh0 = cd - Df;
    volatile float dh = cd - dh0;
    volatile float dl = Df - dh;
    volatile float pe = (((qh * dh - pr) + qh * dl) + ql * dh) + ql * dl;  // qt D = pr + pe exactly
    volatile float rem = ((H - pr) - pe) + L;
    volatile float ms = qt + rem / Df;
    volatile float arg = ms + eps_;
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    LocalTensor<float> o = one_.Get<float>(), v = w_[5].Get<float>();
    Duplicate(v, (float)arg, 8);
    Sqrt(v, v, 8);
    Duplicate(o, 1.0f, 8);
    Div(v, o, v, 8);  // a true divide, as the task's r = 1 / sqrt(...)
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float r = v.GetValue(0);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    return r;
  }

  // acc += p with TwoSum; the rounding error into comp (p is clobbered).
  __aicore__ inline void TwoSumInto(const LocalTensor<float>& acc, const LocalTensor<float>& p,
                                    const LocalTensor<float>& comp, uint32_t n) {
    LocalTensor<float> t = w_[3].Get<float>(), bv = w_[4].Get<float>();
    Add(t, acc, p, n);     // t = acc + p
    Sub(bv, t, acc, n);    // bv = t - acc
    Sub(p, p, bv, n);      // p - bv
    Sub(bv, t, bv, n);     // t - bv
    Sub(bv, acc, bv, n);   // acc - (t - bv)
    Add(bv, bv, p, n);     // the error
    Add(comp, comp, bv, n);
    Adds(acc, t, 0.0f, n);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> x1Q_, x2Q_;
  TQue<QuePosition::VECOUT, 1> xoQ_, yQ_;
  TBuf<QuePosition::VECCALC> g_, sm_, s_, w_[6], one_;
  GlobalTensor<T> x1Gm_, x2Gm_, gGm_, smGm_, xoGm_;
  GlobalTensor<int8_t> yGm_;
  GlobalTensor<float> sGm_;
  uint64_t first_ = 0, rows_ = 0;
  uint32_t D_ = 1;
  float eps_ = 1e-6f;
};

extern "C" __global__ __aicore__ void add_rms_norm_dynamic_quant_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR smooth,
                                                                        GM_ADDR xo, GM_ADDR y, GM_ADDR scale, uint64_t M,
                                                                        uint32_t D, uint64_t rowsPerCore, float eps, int32_t isBf16) {
  if (isBf16) {
    KernelAddRmsNormDynamicQuant<bfloat16_t> op;
    op.Init(x1, x2, gamma, smooth, xo, y, scale, M, D, rowsPerCore, eps);
    op.Process();
  } else {
    KernelAddRmsNormDynamicQuant<half> op;
    op.Init(x1, x2, gamma, smooth, xo, y, scale, M, D, rowsPerCore, eps);
    op.Process();
  }
}

// x1, x2, gamma, smooth_scale and x_out all fp16 or all bf16 (CANN's dtypes; bf16 only in Cast to and from fp32 and
// in data moves, as Atlas A2's vector unit takes it); y int8, scale fp32.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x1 = &a->inputs[0], *x2 = &a->inputs[1], *g = &a->inputs[2], *sm = &a->inputs[3];
  const kope_tensor *xo = &a->outputs[0], *y = &a->outputs[1], *sc = &a->outputs[2];
  const int dt = x1->dtype;
  if ((dt != KOPE_F16 && dt != KOPE_BF16) || x2->dtype != dt || g->dtype != dt || sm->dtype != dt || xo->dtype != dt ||
      y->dtype != KOPE_I8 || sc->dtype != KOPE_F32 || x1->ndim != 2)
    return 1;
  const int32_t isBf16 = dt == KOPE_BF16;
  const uint64_t M = (uint64_t)x1->shape[0];
  const uint32_t D = (uint32_t)x1->shape[1];
  if (D > MAXD) return 1;  // the row must fit in the UB
  if (M == 0 || D == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  const float eps = (float)kope_attr_or(a, "epsilon", 1e-6);
  GM_ADDR p1 = (GM_ADDR)x1->data, p2 = (GM_ADDR)x2->data, pg = (GM_ADDR)g->data, ps = (GM_ADDR)sm->data,
          po = (GM_ADDR)xo->data, py = (GM_ADDR)y->data, pc = (GM_ADDR)sc->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(add_rms_norm_dynamic_quant_custom, blockDim, p1, p2, pg, ps, po, py, pc, M, D, rowsPerCore, eps, isBf16);
#else
  add_rms_norm_dynamic_quant_custom<<<blockDim, nullptr, stream>>>(p1, p2, pg, ps, po, py, pc, M, D, rowsPerCore, eps, isBf16);
#endif
  return 0;
}
