// thought: the (token, stream) rows split over the AI cores; a row in chunks, twice: first the three sums (h^2, k^2 and h w_h k w_k, Mul + ReduceSum in fp32 per chunk), since hn . kn = rh rk sum(h w_h k w_k) the norms never need their own vectors; the gate on the vector unit of a 8-lane scratch (Sqrt, Exp, Div) with sign(g) and the NaN of a non-finite key taken on the scalar unit; then y = h + gate v, with Muls + Add and the cast back (CAST_RINT) to h's dtype; fp16 and bf16 rows are widened to fp32 first (Cast in the UB, CAST_NONE), so all three dtypes compute in fp32.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 2048;  // elements per row chunk
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;

template <typename T> class KernelEngramGate {
 public:
  __aicore__ inline KernelEngramGate() {}
  __aicore__ inline void Init(GM_ADDR h, GM_ADDR k, GM_ADDR v, GM_ADDR wh, GM_ADDR wk, GM_ADDR y, GM_ADDR gate, uint64_t T_,
                              uint64_t S, uint32_t D, uint64_t rowsPerCore, float eps) {
    const uint64_t rows = T_ * S;
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= rows ? 0 : (rows - first_ < rowsPerCore ? rows - first_ : rowsPerCore);
    S_ = S, D_ = D, eps_ = eps;
    hGm_.SetGlobalBuffer((__gm__ T*)h, rows * D);
    kGm_.SetGlobalBuffer((__gm__ T*)k, rows * D);
    vGm_.SetGlobalBuffer((__gm__ T*)v, T_ * D);
    whGm_.SetGlobalBuffer((__gm__ float*)wh, S * D);
    wkGm_.SetGlobalBuffer((__gm__ float*)wk, S * D);
    yGm_.SetGlobalBuffer((__gm__ T*)y, rows * D);
    gGm_.SetGlobalBuffer((__gm__ float*)gate, rows);
    pipe_.InitBuffer(aQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(waQ_, BUFFER_NUM, CH * sizeof(float));
    pipe_.InitBuffer(wbQ_, BUFFER_NUM, CH * sizeof(float));
    pipe_.InitBuffer(yQ_, BUFFER_NUM, CH * sizeof(T));
    for (int i = 0; i < 4; ++i) pipe_.InitBuffer(f_[i], CH * sizeof(float));
    pipe_.InitBuffer(red_, 64 * sizeof(float));
    pipe_.InitBuffer(one_, 64 * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint64_t row = first_; row < first_ + rows_; ++row) {
      const uint64_t t = row / S_, s = row % S_;
      // Pass 1: sum h^2, sum k^2, sum h w_h k w_k.
      float sh = 0.0f, sk = 0.0f, dot = 0.0f;
      for (uint32_t c = 0; c < D_; c += CH) {
        const uint32_t n = Len(c);
        Load(aQ_, hGm_[row * D_ + c], n);
        Load(bQ_, kGm_[row * D_ + c], n);
        LoadF(waQ_, whGm_[s * D_ + c], n);
        LoadF(wbQ_, wkGm_[s * D_ + c], n);
        LocalTensor<float> hf = Widen(aQ_, f_[0], n), kf = Widen(bQ_, f_[1], n), sq = f_[2].Get<float>();
        LocalTensor<float> wa = waQ_.template DeQue<float>(), wb = wbQ_.template DeQue<float>();
        Mul(sq, hf, hf, n);
        sh += Sum(sq, n);
        Mul(sq, kf, kf, n);
        sk += Sum(sq, n);
        Mul(hf, hf, wa, n);  // h w_h
        Mul(kf, kf, wb, n);  // k w_k
        Mul(sq, hf, kf, n);
        dot += Sum(sq, n);
        waQ_.FreeTensor(wa);
        wbQ_.FreeTensor(wb);
      }
      const float gate = Gate(sh, sk, dot);
      LocalTensor<float> o = one_.Get<float>();
      o.SetValue(0, gate);
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(gGm_[row], o, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
      SetFlag<HardEvent::MTE3_V>(0);
      WaitFlag<HardEvent::MTE3_V>(0);
      // Pass 2: y = h + gate v.
      for (uint32_t c = 0; c < D_; c += CH) {
        const uint32_t n = Len(c);
        Load(aQ_, hGm_[row * D_ + c], n);
        Load(bQ_, vGm_[t * D_ + c], n);
        LocalTensor<float> hf = Widen(aQ_, f_[0], n), vf = Widen(bQ_, f_[1], n);
        Muls(vf, vf, gate, n);
        Add(hf, hf, vf, n);
        LocalTensor<T> y = yQ_.template AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) Adds(y.template ReinterpretCast<float>(), hf, 0.0f, n);
        else Cast(y, hf, RoundMode::CAST_RINT, n);
        yQ_.EnQue(y);
        y = yQ_.template DeQue<T>();
        DataCopyPad(yGm_[row * D_ + c], y, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
        yQ_.FreeTensor(y);
      }
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint32_t c) const { return D_ - c < CH ? D_ - c : CH; }

  template <typename Q> __aicore__ inline void Load(Q& q, const GlobalTensor<T>& g, uint32_t n) {
    LocalTensor<T> x = q.template AllocTensor<T>();
    DataCopyPad(x, g, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    q.EnQue(x);
  }
  template <typename Q> __aicore__ inline void LoadF(Q& q, const GlobalTensor<float>& g, uint32_t n) {
    LocalTensor<float> x = q.template AllocTensor<float>();
    DataCopyPad(x, g, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    q.EnQue(x);
  }
  // The loaded chunk as fp32 in buf (the queue's buffer is freed).
  template <typename Q> __aicore__ inline LocalTensor<float> Widen(Q& q, TBuf<QuePosition::VECCALC>& buf, uint32_t n) {
    LocalTensor<T> x = q.template DeQue<T>();
    LocalTensor<float> f = buf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) Adds(f, x.template ReinterpretCast<float>(), 0.0f, n);
    else Cast(f, x, RoundMode::CAST_NONE, n);
    q.FreeTensor(x);
    return f;
  }
  __aicore__ inline float Sum(const LocalTensor<float>& x, uint32_t n) {
    LocalTensor<float> r = red_.Get<float>();
    LocalTensor<float> work = f_[3].Get<float>();
    ReduceSum(r, x, work, n);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float v = r.GetValue(0);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    return v;
  }
  // gate = sigmoid(sign(g) sqrt(max(|g|, 1e-6))), g = dot rh rk / sqrt(D), rh = 1 / sqrt(sh / D + eps).
  __aicore__ inline float Gate(float sh, float sk, float dot) {
    LocalTensor<float> v = one_.Get<float>(), w = red_.Get<float>();
    const float Df = (float)D_;
    v.SetValue(0, sh / Df + eps_);
    v.SetValue(1, sk / Df + eps_);
    v.SetValue(2, Df);
    for (int i = 3; i < 8; ++i) v.SetValue(i, 1.0f);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Sqrt(v, v, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float g = dot / v.GetValue(0) / v.GetValue(1) / v.GetValue(2);
    if (g != g) return g;  // NaN (a non-finite key): NaN gate
    const float mag = g < 0.0f ? -g : g;
    w.SetValue(0, mag > 1e-6f ? mag : 1e-6f);
    for (int i = 1; i < 8; ++i) w.SetValue(i, 1.0f);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Sqrt(w, w, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float gp = g > 0.0f ? w.GetValue(0) : (g < 0.0f ? -w.GetValue(0) : 0.0f);
    w.SetValue(0, -gp);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Exp(w, w, 8);
    Adds(w, w, 1.0f, 8);
    Duplicate(v, 1.0f, 8);
    Div(w, v, w, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return w.GetValue(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> aQ_, bQ_, waQ_, wbQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
  TBuf<QuePosition::VECCALC> f_[4], red_, one_;  // f_[3]: ReduceSum's work space
  GlobalTensor<T> hGm_, kGm_, vGm_, yGm_;
  GlobalTensor<float> whGm_, wkGm_, gGm_;
  uint64_t first_ = 0, rows_ = 0, S_ = 1;
  uint32_t D_ = 1;
  float eps_ = 1e-6f;
};

template <typename T>
__aicore__ inline void RunEngramGate(GM_ADDR h, GM_ADDR k, GM_ADDR v, GM_ADDR wh, GM_ADDR wk, GM_ADDR y, GM_ADDR gate,
                                     uint64_t T_, uint64_t S, uint32_t D, uint64_t rowsPerCore, float eps) {
  KernelEngramGate<T> op;
  op.Init(h, k, v, wh, wk, y, gate, T_, S, D, rowsPerCore, eps);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (h, k, v and y share it; w_h, w_k and gate stay fp32).
extern "C" __global__ __aicore__ void engram_gate_fusion_custom(GM_ADDR h, GM_ADDR k, GM_ADDR v, GM_ADDR wh, GM_ADDR wk,
                                                                GM_ADDR y, GM_ADDR gate, uint64_t T, uint64_t S, uint32_t D,
                                                                uint64_t rowsPerCore, float eps, int32_t dt) {
  if (dt == 1) RunEngramGate<half>(h, k, v, wh, wk, y, gate, T, S, D, rowsPerCore, eps);
  else if (dt == 2) RunEngramGate<bfloat16_t>(h, k, v, wh, wk, y, gate, T, S, D, rowsPerCore, eps);
  else RunEngramGate<float>(h, k, v, wh, wk, y, gate, T, S, D, rowsPerCore, eps);
}

// fp32, fp16 and bf16: 2-byte rows are Cast to fp32 in the UB (CAST_NONE), computed in fp32, Cast back once (CAST_RINT).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *h = &a->inputs[0], *k = &a->inputs[1], *v = &a->inputs[2], *wh = &a->inputs[3], *wk = &a->inputs[4];
  const kope_tensor *y = &a->outputs[0], *g = &a->outputs[1];
  const int dt = h->dtype;
  if ((dt != KOPE_F32 && dt != KOPE_F16 && dt != KOPE_BF16) || k->dtype != dt || v->dtype != dt || y->dtype != dt || wh->dtype != KOPE_F32 ||
      wk->dtype != KOPE_F32 || g->dtype != KOPE_F32 || h->ndim != 3)
    return 1;
  const uint64_t T = (uint64_t)h->shape[0], S = (uint64_t)h->shape[1];
  const uint32_t D = (uint32_t)h->shape[2];
  const uint64_t rows = T * S;
  if (rows == 0 || D == 0) return 0;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
  const float eps = (float)kope_attr_or(a, "epsilon", 1e-6);
  const int32_t dtc = dt == KOPE_F16 ? 1 : dt == KOPE_BF16 ? 2 : 0;
  GM_ADDR ph = (GM_ADDR)h->data, pk = (GM_ADDR)k->data, pv = (GM_ADDR)v->data, pwh = (GM_ADDR)wh->data,
          pwk = (GM_ADDR)wk->data, py = (GM_ADDR)y->data, pg = (GM_ADDR)g->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(engram_gate_fusion_custom, blockDim, ph, pk, pv, pwh, pwk, py, pg, T, S, D, rowsPerCore, eps, dtc);
#else
  engram_gate_fusion_custom<<<blockDim, nullptr, stream>>>(ph, pk, pv, pwh, pwk, py, pg, T, S, D, rowsPerCore, eps, dtc);
#endif
  return 0;
}
