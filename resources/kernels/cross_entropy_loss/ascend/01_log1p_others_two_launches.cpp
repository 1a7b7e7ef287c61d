// thought: cross-entropy in two launches, logits and log_prob fp32, fp16 or bf16 (2-byte logits cast to fp32 in the UB, every step in fp32, log_prob cast back once with CAST_RINT and also kept in fp32 in a host-allocated GM workspace that the loss reads, so the loss never sees rounded log-probabilities): rows over the AI cores write log_prob = (x - max) - lse with lse = log1p(sum of exp(x - max) below the max + ties - 1), chunked ReduceMax/Exp/Compare/Select/ReduceSum passes, so a dominant top class keeps its -1e-5 log-probability that log(sum) rounds away; then one core reads log_prob[n, target] (and row sums for label smoothing) and averages the kept rows with ReduceSum trees.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#else
#include "acl/acl.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 8192;       // elements of a row chunk (x, d, e, ReduceSum work: 128 KB; 1 KB of masks; 2-byte
                                    // logits: x in T and its fp32 copy, 144 KB)
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Kernel 1, rows split over the cores: per row the maximum, then over the shifted logits d = x - max the sum of
// exp(d) over d < 0 ("others", the top class left out), the count of d == 0 (ties) and the sum of d; then
// lse = log1p(others + ties - 1), exact where the top class dominates, and log_prob = d - lse.
// T (the logits' and log_prob's type) is float, half or bfloat16_t: a 2-byte chunk is cast to fp32 in the UB (xf_),
// every step is the fp32 one, and log_prob is written twice: in fp32 to lp32 (the workspace kernel 2 reads) and cast
// once to T (CAST_RINT) to lp. For fp32 logits lp32 is lp itself and only that is written.
template <typename A, typename B> struct KopeSameType { static constexpr bool value = false; };
template <typename A> struct KopeSameType<A, A> { static constexpr bool value = true; };

template <typename T> class KernelLogProb {
  static constexpr bool F32 = KopeSameType<T, float>::value;

 public:
  __aicore__ inline KernelLogProb() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR lp, GM_ADDR lp32, uint64_t N, uint64_t C, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= N ? 0 : (N - first_ < rowsPerCore ? N - first_ : rowsPerCore);
    C_ = C;
    xGm_.SetGlobalBuffer((__gm__ T*)x, N * C);
    lGm_.SetGlobalBuffer((__gm__ T*)lp, N * C);
    fGm_.SetGlobalBuffer((__gm__ float*)lp32, N * C);
    pipe_.InitBuffer(x_, CH * sizeof(T));
    if constexpr (!F32) pipe_.InitBuffer(xf_, CH * sizeof(float));
    pipe_.InitBuffer(d_, CH * sizeof(float));
    pipe_.InitBuffer(e_, CH * sizeof(float));
    pipe_.InitBuffer(w_, CH * sizeof(float));
    pipe_.InitBuffer(k_, CH / 8);
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      float mx = 0.0f;
      for (uint64_t c = 0; c < C_; c += CH) {
        const float m = Pass(r * C_ + c, Len(c), 0.0f, 0.0f, 0);
        mx = c == 0 || m != m || m > mx ? (mx != mx && c != 0 ? mx : m) : mx;  // a NaN sticks
      }
      float others = 0.0f, ties = 0.0f, shifted = 0.0f;
      for (uint64_t c = 0; c < C_; c += CH) {
        others += Pass(r * C_ + c, Len(c), mx, 0.0f, 1);
        ties += Pass(r * C_ + c, Len(c), mx, 0.0f, 2);
        shifted += Pass(r * C_ + c, Len(c), mx, 0.0f, 3);
      }
      const float lse = shifted != shifted ? shifted : Lse(others, ties);  // NaN or inf - inf in the row: NaN
      for (uint64_t c = 0; c < C_; c += CH) Pass(r * C_ + c, Len(c), mx, lse, 4);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint64_t c) const { return C_ - c < CH ? (uint32_t)(C_ - c) : CH; }
  // what: 0 the chunk's max, 1 sum exp(d) over d < 0, 2 the count of d == 0, 3 sum d, 4 write d - lse.
  __aicore__ inline float Pass(uint64_t off, uint32_t n, float mx, float lse, int what) {
    LocalTensor<float> x, d = d_.Get<float>(), e = e_.Get<float>(), w = w_.Get<float>(), s = s_.Get<float>();
    LocalTensor<uint8_t> k = k_.Get<uint8_t>();
    LocalTensor<T> xt = x_.Get<T>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    DataCopyPad(xt, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    if constexpr (F32) {
      x = xt;
    } else {
      x = xf_.template Get<float>();
      Cast(x, xt, RoundMode::CAST_NONE, m);  // exact
    }
    if (what == 0) {
      ReduceMax(s, x, w, n);
    } else {
      Adds(d, x, -mx, m);
      if (what == 1) {
        Exp(e, d, m);
        Duplicate(w, 0.0f, m);
        Compare(k, d, w, CMPMODE::LT, m);  // below the max only: the top class's 1 is added back as ties - 1
        Select(e, k, e, w, SELMODE::VSEL_TENSOR_TENSOR_MODE, m);
        ReduceSum(s, e, w, n);
      } else if (what == 2) {
        Duplicate(e, 0.0f, m);
        Compare(k, d, e, CMPMODE::EQ, m);
        Duplicate(w, 1.0f, m);
        Select(e, k, w, e, SELMODE::VSEL_TENSOR_TENSOR_MODE, m);
        ReduceSum(s, e, w, n);
      } else if (what == 3) {
        ReduceSum(s, d, w, n);
      } else {
        Adds(d, d, -lse, m);  // (x - max) - lse
        if constexpr (!F32) Cast(xt, d, RoundMode::CAST_RINT, m);  // the one rounding to T (x is spent)
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(fGm_[off], d, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
        if constexpr (!F32) DataCopyPad(lGm_[off], xt, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
        return 0.0f;
      }
    }
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float v = s.GetValue(0);
    SetFlag<HardEvent::S_MTE2>(0);
    WaitFlag<HardEvent::S_MTE2>(0);
    return v;
  }
  // log1p(others + ties - 1), by log(u) * v / (u - 1) with u = 1 + v (exact where u rounds to 1).
  __aicore__ inline float Lse(float others, float ties) {
    const float v = others + (ties - 1.0f);
    const float u = 1.0f + v;
    if (u == 1.0f) return v;
    LocalTensor<float> s = s_.Get<float>();
    s.SetValue(0, u);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Ln(s, s, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0) * (v / (u - 1.0f));
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> x_, xf_, d_, e_, w_, k_, s_;
  GlobalTensor<T> xGm_, lGm_;
  GlobalTensor<float> fGm_;
  uint64_t first_ = 0, rows_ = 0, C_ = 1;
};

// Kernel 2, one core: loss = mean over kept rows of (1 - ls) * (-log_prob[n, t]) + ls * mean_c(-log_prob[n, c]),
// the row terms gathered in the UB and summed by ReduceSum trees. log_prob is read in fp32 (kernel 1's lp32).
template <typename TI> class KernelLoss {
 public:
  __aicore__ inline KernelLoss() {}
  __aicore__ inline void Init(GM_ADDR lp, GM_ADDR target, GM_ADDR loss, uint64_t N, uint64_t C, int64_t ignore, float ls) {
    N_ = N, C_ = C, ignore_ = ignore, ls_ = ls;
    lGm_.SetGlobalBuffer((__gm__ float*)lp, N * C);
    tGm_.SetGlobalBuffer((__gm__ TI*)target, N);
    oGm_.SetGlobalBuffer((__gm__ float*)loss, 1);
    pipe_.InitBuffer(t_, CH * sizeof(float));
    pipe_.InitBuffer(x_, CH * sizeof(float));
    pipe_.InitBuffer(w_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> t = t_.Get<float>(), w = w_.Get<float>(), s = s_.Get<float>();
    float total = 0.0f;
    uint64_t count = 0;
    uint32_t k = 0;
    for (uint64_t n = 0; n < N_; ++n) {
      const int64_t tg = (int64_t)tGm_.GetValue(n);
      if (tg == ignore_) continue;  // an ignored row is never read
      const float nll = -lGm_.GetValue(n * C_ + (uint64_t)tg);
      t.SetValue(k++, ls_ == 0.0f ? nll : (1.0f - ls_) * nll + ls_ * (-RowSum(n) / (float)C_));
      ++count;
      if (k == CH || n + 1 == N_) total += Flush(t, w, s, k), k = 0;
    }
    if (k) total += Flush(t, w, s, k);
    s.SetValue(0, total / (float)count);  // no kept row: 0 / 0 = NaN, as torch's mean gives
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyPad(oGm_, s, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
  }

 private:
  __aicore__ inline float Flush(const LocalTensor<float>& t, const LocalTensor<float>& w, const LocalTensor<float>& s, uint32_t k) {
    if (k == 0) return 0.0f;
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    ReduceSum(s, t, w, k);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  __aicore__ inline float RowSum(uint64_t n) {  // sum_c log_prob[n, c]
    LocalTensor<float> x = x_.Get<float>(), w = w_.Get<float>(), s = s_.Get<float>();
    float sum = 0.0f;
    for (uint64_t c = 0; c < C_; c += CH) {
      const uint32_t m = C_ - c < CH ? (uint32_t)(C_ - c) : CH;
      DataCopyPad(x, lGm_[n * C_ + c], DataCopyExtParams{1, (uint32_t)(m * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      ReduceSum(s, x, w, m);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      sum += s.GetValue(0);
    }
    return sum;
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> t_, x_, w_, s_;
  GlobalTensor<float> lGm_, oGm_;
  GlobalTensor<TI> tGm_;
  uint64_t N_ = 0, C_ = 1;
  int64_t ignore_ = -100;
  float ls_ = 0.0f;
};

// dt: 0 fp32, 1 fp16, 2 bf16 (the logits' and log_prob's type); lp32 is lp for fp32, else an fp32 [N, C] workspace.
extern "C" __global__ __aicore__ void ce_log_prob_custom(GM_ADDR x, GM_ADDR lp, GM_ADDR lp32, uint64_t N, uint64_t C,
                                                         uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelLogProb<half> op;
    op.Init(x, lp, lp32, N, C, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelLogProb<bfloat16_t> op;
    op.Init(x, lp, lp32, N, C, rowsPerCore);
    op.Process();
  } else {
    KernelLogProb<float> op;
    op.Init(x, lp, lp32, N, C, rowsPerCore);
    op.Process();
  }
}

extern "C" __global__ __aicore__ void ce_loss_custom(GM_ADDR lp, GM_ADDR target, GM_ADDR loss, uint64_t N, uint64_t C, int64_t ignore,
                                                     float ls) {
  KernelLoss<int64_t> op;
  op.Init(lp, target, loss, N, C, ignore, ls);
  op.Process();
}

// Two launches on one stream: the log-probabilities over all cores, then the loss on one core from them. logits and
// log_prob fp32, fp16 or bf16 (one type); for the 2-byte types the fp32 log-probabilities go to a workspace the host
// allocates (once, grown as needed: kope synchronises the stream after every call).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *t = &a->inputs[1], *loss = &a->outputs[0], *lp = &a->outputs[1];
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0 || t->dtype != KOPE_I64 || loss->dtype != KOPE_F32 || lp->dtype != x->dtype || x->ndim != 2) return 1;
  const uint64_t N = (uint64_t)x->shape[0], C = (uint64_t)x->shape[1];
  const int64_t ignore = (int64_t)kope_attr_or(a, "ignore_index", -100);
  const float ls = (float)kope_attr_or(a, "label_smoothing", 0.0);
  GM_ADDR px = (GM_ADDR)x->data, pt = (GM_ADDR)t->data, pl = (GM_ADDR)loss->data, plp = (GM_ADDR)lp->data;
  GM_ADDR p32 = plp;  // fp32: log_prob itself
  const uint64_t bytes = (N * C ? N * C : 1) * sizeof(float);
#ifdef ASCENDC_CPU_DEBUG
  if (dt != 0) p32 = (GM_ADDR)AscendC::GmAlloc(bytes);
#else
  static void* ws = nullptr;
  static uint64_t cap = 0;
  if (dt != 0) {
    if (cap < bytes) {
      if (ws != nullptr) aclrtFree(ws);
      ws = nullptr, cap = 0;
      aclError e = aclrtMalloc(&ws, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
      if (e != ACL_SUCCESS) return e;
      cap = bytes;
    }
    p32 = (GM_ADDR)ws;
  }
#endif
  if (N > 0 && C > 0) {
    const uint32_t blockDim = N < MAX_CORES ? (uint32_t)N : MAX_CORES;
    const uint64_t rowsPerCore = (N + blockDim - 1) / blockDim;
#ifdef ASCENDC_CPU_DEBUG
    ICPU_RUN_KF(ce_log_prob_custom, blockDim, px, plp, p32, N, C, rowsPerCore, dt);
#else
    ce_log_prob_custom<<<blockDim, nullptr, stream>>>(px, plp, p32, N, C, rowsPerCore, dt);
#endif
  }
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(ce_loss_custom, 1, p32, pt, pl, N, C, ignore, ls);
  if (dt != 0) AscendC::GmFree(p32);
#else
  ce_loss_custom<<<1, nullptr, stream>>>(p32, pt, pl, N, C, ignore, ls);
#endif
  return 0;
}
