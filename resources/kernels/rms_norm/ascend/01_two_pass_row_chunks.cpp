// thought: RMSNorm is a row reduction then a scale, for x, gamma and y in fp32, fp16 or bf16 (2-byte chunks cast to fp32 in the UB as they arrive, every step in fp32, y cast back once with CAST_RINT; rstd fp32): whole rows per AI core, each row in 8192-element chunks (32 KB of fp32) twice, first Mul + ReduceSum over exactly the chunk's elements (chunk sums added on the scalar unit), then rstd = 1 / sqrt(mean + eps) on one vector block, written per row, and y = (x * rstd) * gamma; any D, since no row has to fit the UB.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 8192;       // elements of a row chunk: x double-buffered, gamma, x^2 or y, ReduceSum work: 160 KB
                                    // in fp32; 2-byte data: x, gamma, y in T, work and the fp32 copies of x and y: 160 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Rows split over the cores; a row in chunks, twice: the sum of squares (ReduceSum per chunk, the chunk sums added
// on the scalar unit), then y = x * rstd * gamma. T (x's, gamma's and y's type) is float, half or bfloat16_t: a
// 2-byte chunk is cast to fp32 in the UB (xf_; gamma into xf_ once x * rstd is in yf_), every step is the fp32 one,
// and y is cast back to T once (CAST_RINT).
template <typename A, typename B> struct KopeSameType { static constexpr bool value = false; };
template <typename A> struct KopeSameType<A, A> { static constexpr bool value = true; };

template <typename T> class KernelRmsNorm {
  static constexpr bool F32 = KopeSameType<T, float>::value;

 public:
  __aicore__ inline KernelRmsNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint64_t M, uint64_t D, uint64_t rowsPerCore, float eps) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    D_ = D, eps_ = eps;
    xGm_.SetGlobalBuffer((__gm__ T*)x, M * D);
    gGm_.SetGlobalBuffer((__gm__ T*)gamma, D);
    yGm_.SetGlobalBuffer((__gm__ T*)y, M * D);
    rGm_.SetGlobalBuffer((__gm__ float*)rstd, M);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(yQ_, 1, CH * sizeof(T));
    pipe_.InitBuffer(g_, CH * sizeof(T));
    pipe_.InitBuffer(work_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
    if constexpr (!F32) {
      pipe_.InitBuffer(xf_, CH * sizeof(float));
      pipe_.InitBuffer(yf_, CH * sizeof(float));
    }
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      float acc = 0.0f;
      for (uint64_t c = 0; c < D_; c += CH) acc += SumSquares(r * D_ + c, Len(c));
      const float rstd = Rstd(acc, r);
      for (uint64_t c = 0; c < D_; c += CH) Scale(r * D_ + c, c, Len(c), rstd);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint64_t c) const { return D_ - c < CH ? (uint32_t)(D_ - c) : CH; }
  __aicore__ inline void Load(uint64_t off, uint32_t n) {
    LocalTensor<T> x = xQ_.template AllocTensor<T>();
    DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
    xQ_.EnQue(x);
  }
  // The loaded chunk as fp32: the queue's tensor (fp32 x; Release frees it) or its fp32 copy in xf_, cast over the
  // chunk's whole 64-element groups (m).
  __aicore__ inline LocalTensor<float> Take(uint32_t m) {
    LocalTensor<T> x = xQ_.template DeQue<T>();
    if constexpr (F32) {
      return x;
    } else {
      LocalTensor<float> f = xf_.template Get<float>();
      Cast(f, x, RoundMode::CAST_NONE, m);
      xQ_.FreeTensor(x);
      return f;
    }
  }
  __aicore__ inline void Release(LocalTensor<float>& x) {
    if constexpr (F32) xQ_.FreeTensor(x);
  }
  __aicore__ inline LocalTensor<float> Scratch() {  // fp32 x^2 or y: the output queue's tensor (fp32) or yf_
    if constexpr (F32) return yQ_.template AllocTensor<float>();
    else return yf_.template Get<float>();
  }
  __aicore__ inline uint32_t Whole(uint32_t n) const { return (n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN; }
  __aicore__ inline float SumSquares(uint64_t off, uint32_t n) {
    Load(off, n);
    LocalTensor<float> x = Take(Whole(n));
    LocalTensor<float> sq = Scratch(), w = work_.Get<float>(), s = s_.Get<float>();
    Mul(sq, x, x, n);
    ReduceSum(s, sq, w, n);  // exactly n: the padding lanes stay out
    Release(x);
    if constexpr (F32) yQ_.FreeTensor(sq);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  // rstd = 1 / sqrt(mean + eps) on one vector block (Sqrt, then an IEEE Div), written out for row r.
  __aicore__ inline float Rstd(float acc, uint64_t r) {
    LocalTensor<float> s = s_.Get<float>(), w = work_.Get<float>();
    s.SetValue(0, acc / (float)D_ + eps_);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Sqrt(s, s, 8);
    Duplicate(w, 1.0f, 8);
    Div(s, w, s, 8);  // sqrt(inf) = inf gives rstd 0, as the composite does
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(rGm_[r], s, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  __aicore__ inline void Scale(uint64_t off, uint64_t c, uint32_t n, float rstd) {
    Load(off, n);
    LocalTensor<T> g = g_.Get<T>();
    DataCopyPad(g, gGm_[c], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    const int32_t m = (int32_t)Whole(n);
    LocalTensor<float> x = Take(m);
    LocalTensor<float> y = Scratch();
    Muls(y, x, rstd, m);  // (x * rstd) * gamma, the composite's order
    LocalTensor<T> o;
    if constexpr (F32) {
      Mul(y, y, g, m);
      Release(x);
      o = y;
    } else {
      Cast(x, g, RoundMode::CAST_NONE, m);  // x (xf_) is spent: gamma in fp32 there
      Mul(y, y, x, m);
      o = yQ_.template AllocTensor<T>();
      Cast(o, y, RoundMode::CAST_RINT, m);  // the one rounding to T
    }
    yQ_.EnQue(o);
    o = yQ_.template DeQue<T>();
    DataCopyPad(yGm_[off], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    yQ_.FreeTensor(o);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_;
  TQue<QuePosition::VECOUT, 1> yQ_;
  TBuf<QuePosition::VECCALC> g_, work_, s_, xf_, yf_;
  GlobalTensor<T> xGm_, gGm_, yGm_;
  GlobalTensor<float> rGm_;
  uint64_t first_ = 0, rows_ = 0, D_ = 1;
  float eps_ = 1e-6f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint64_t M, uint64_t D,
                                                      uint64_t rowsPerCore, float eps, int32_t dt) {
  if (dt == 1) {
    KernelRmsNorm<half> op;
    op.Init(x, gamma, y, rstd, M, D, rowsPerCore, eps);
    op.Process();
  } else if (dt == 2) {
    KernelRmsNorm<bfloat16_t> op;
    op.Init(x, gamma, y, rstd, M, D, rowsPerCore, eps);
    op.Process();
  } else {
    KernelRmsNorm<float> op;
    op.Init(x, gamma, y, rstd, M, D, rowsPerCore, eps);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *g = &a->inputs[1], *y = &a->outputs[0], *r = &a->outputs[1];
  // x, gamma and y of one type: fp32, fp16 or bf16 (dt 0, 1, 2); rstd fp32.
  if (g->dtype != x->dtype || y->dtype != x->dtype || r->dtype != KOPE_F32 || x->ndim != 2) return 1;
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0) return 1;
  const uint64_t M = (uint64_t)x->shape[0], D = (uint64_t)x->shape[1];
  if (M == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  const float eps = (float)kope_attr_or(a, "eps", 1e-6);
  GM_ADDR px = (GM_ADDR)x->data, pg = (GM_ADDR)g->data, py = (GM_ADDR)y->data, pr = (GM_ADDR)r->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(rms_norm_custom, blockDim, px, pg, py, pr, M, D, rowsPerCore, eps, dt);
#else
  rms_norm_custom<<<blockDim, nullptr, stream>>>(px, pg, py, pr, M, D, rowsPerCore, eps, dt);
#endif
  return 0;
}
