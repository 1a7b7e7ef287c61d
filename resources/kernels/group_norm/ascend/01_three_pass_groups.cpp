// thought: group norm for x, gamma, beta and y in fp32, fp16 or bf16 (2-byte chunks cast to fp32 in the UB as they arrive, gamma and beta read as scalars and converted to fp32, every step in fp32, y cast back once with CAST_RINT; mean and rstd fp32): the (n, g) groups split over the AI cores, each group (CG * HW contiguous elements) streamed in 8192-element chunks (32 KB of fp32) three times: ReduceSum for the mean, ReduceSum of (x - mean)^2 for the biased variance (two passes: no cancellation for the 1e18 group), rstd on one vector block, then per channel ((x - mean) * rstd) * gamma + beta with Adds/Muls; chunk sums are trees, added on the scalar unit.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 8192;       // elements of a chunk: x double-buffered, y, scratch, ReduceSum work: 160 KB in fp32;
                                    // 2-byte data: x and y in T, scratch (fp32 y), work, x's fp32 copy: 144 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Groups (n, g) split over the cores; a group is CG * HW contiguous floats, read three times in chunks: the sum
// (mean), the sum of (x - mean)^2 (biased variance: two passes, no cancellation), then per channel
// y = ((x - mean) * rstd) * gamma[c] + beta[c]. Chunk sums are ReduceSum trees, added on the scalar unit.
// T (x's, gamma's, beta's and y's type) is float, half or bfloat16_t: a 2-byte chunk is cast to fp32 in the UB
// (xf_), every step is the fp32 one (y in the scratch t_), and y is cast back to T once (CAST_RINT).
template <typename A, typename B> struct KopeSameType { static constexpr bool value = false; };
template <typename A> struct KopeSameType<A, A> { static constexpr bool value = true; };

template <typename T> class KernelGroupNorm {
  static constexpr bool F32 = KopeSameType<T, float>::value;

 public:
  __aicore__ inline KernelGroupNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd, uint64_t N, uint64_t G,
                              uint64_t CG, uint64_t HW, uint64_t groupsPerCore, float eps) {
    first_ = GetBlockIdx() * groupsPerCore;
    groups_ = first_ >= N * G ? 0 : (N * G - first_ < groupsPerCore ? N * G - first_ : groupsPerCore);
    G_ = G, CG_ = CG, HW_ = HW, eps_ = eps;
    xGm_.SetGlobalBuffer((__gm__ T*)x, N * G * CG * HW);
    yGm_.SetGlobalBuffer((__gm__ T*)y, N * G * CG * HW);
    gGm_.SetGlobalBuffer((__gm__ T*)gamma, G * CG);
    bGm_.SetGlobalBuffer((__gm__ T*)beta, G * CG);
    mGm_.SetGlobalBuffer((__gm__ float*)mean, N * G);
    rGm_.SetGlobalBuffer((__gm__ float*)rstd, N * G);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(yQ_, 1, CH * sizeof(T));
    pipe_.InitBuffer(t_, CH * sizeof(float));
    pipe_.InitBuffer(w_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 16 * sizeof(float));  // two 32-byte blocks: rstd, mean
    if constexpr (!F32) pipe_.InitBuffer(xf_, CH * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint64_t cnt = CG_ * HW_;
    for (uint64_t grp = first_; grp < first_ + groups_; ++grp) {
      const uint64_t base = grp * cnt;
      float sum = 0.0f;
      for (uint64_t c = 0; c < cnt; c += CH) sum += Reduce(base + c, Len(cnt, c), 0.0f, false);
      const float mean = sum / (float)cnt;
      float sq = 0.0f;
      for (uint64_t c = 0; c < cnt; c += CH) sq += Reduce(base + c, Len(cnt, c), mean, true);
      const float var = sq / (float)cnt;  // biased, as group_norm normalises
      const float rstd = Stats(grp, mean, var);
      for (uint64_t ch = 0; ch < CG_; ++ch) {
        const uint64_t chan = (grp % G_) * CG_ + ch;
        const float gm = static_cast<float>(gGm_.GetValue(chan)), bt = static_cast<float>(bGm_.GetValue(chan));
        for (uint64_t c = 0; c < HW_; c += CH) Normalise(base + ch * HW_ + c, Len(HW_, c), mean, rstd, gm, bt);
      }
    }
  }

 private:
  static __aicore__ inline uint32_t Len(uint64_t total, uint64_t c) { return total - c < CH ? (uint32_t)(total - c) : CH; }
  // The chunk as fp32: the queue's tensor (fp32 x; Release frees it) or its fp32 copy in xf_, cast over the
  // chunk's whole 64-element groups.
  __aicore__ inline LocalTensor<float> Load(uint64_t off, uint32_t n) {
    LocalTensor<T> x = xQ_.template AllocTensor<T>();
    DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
    xQ_.EnQue(x);
    x = xQ_.template DeQue<T>();
    if constexpr (F32) {
      return x;
    } else {
      LocalTensor<float> f = xf_.template Get<float>();
      Cast(f, x, RoundMode::CAST_NONE, (n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
      xQ_.FreeTensor(x);
      return f;
    }
  }
  __aicore__ inline void Release(LocalTensor<float>& x) {
    if constexpr (F32) xQ_.FreeTensor(x);
  }
  // The chunk's sum of x, or (squares) of (x - mean)^2, over exactly n elements.
  __aicore__ inline float Reduce(uint64_t off, uint32_t n, float mean, bool squares) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> t = t_.Get<float>(), w = w_.Get<float>(), s = s_.Get<float>();
    if (squares) {
      Adds(t, x, -mean, n);
      Mul(t, t, t, n);
      ReduceSum(s, t, w, n);
    } else {
      ReduceSum(s, x, w, n);
    }
    Release(x);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  // rstd = 1 / sqrt(var + eps) on one vector block; mean and rstd written for the group.
  __aicore__ inline float Stats(uint64_t grp, float mean, float var) {
    LocalTensor<float> s = s_.Get<float>(), w = w_.Get<float>();
    s.SetValue(0, var + eps_);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Sqrt(s, s, 8);
    Duplicate(w, 1.0f, 8);
    Div(s, w, s, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float rstd = s.GetValue(0);
    s.SetValue(8, mean);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyPad(rGm_[grp], s, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    DataCopyPad(mGm_[grp], s[8], DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    SetFlag<HardEvent::MTE3_S>(0);
    WaitFlag<HardEvent::MTE3_S>(0);
    return rstd;
  }
  __aicore__ inline void Normalise(uint64_t off, uint32_t n, float mean, float rstd, float gm, float bt) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> y;
    if constexpr (F32) y = yQ_.template AllocTensor<float>();
    else y = t_.Get<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Adds(y, x, -mean, m);
    Muls(y, y, rstd, m);
    Muls(y, y, gm, m);
    Adds(y, y, bt, m);
    Release(x);
    LocalTensor<T> o;
    if constexpr (F32) {
      o = y;
    } else {
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
  TBuf<QuePosition::VECCALC> t_, w_, s_, xf_;
  GlobalTensor<T> xGm_, yGm_, gGm_, bGm_;
  GlobalTensor<float> mGm_, rGm_;
  uint64_t first_ = 0, groups_ = 0, G_ = 1, CG_ = 1, HW_ = 1;
  float eps_ = 1e-5f;
};

extern "C" __global__ __aicore__ void group_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                                        uint64_t N, uint64_t G, uint64_t CG, uint64_t HW, uint64_t groupsPerCore, float eps,
                                                        int32_t dt) {
  if (dt == 1) {
    KernelGroupNorm<half> op;
    op.Init(x, gamma, beta, y, mean, rstd, N, G, CG, HW, groupsPerCore, eps);
    op.Process();
  } else if (dt == 2) {
    KernelGroupNorm<bfloat16_t> op;
    op.Init(x, gamma, beta, y, mean, rstd, N, G, CG, HW, groupsPerCore, eps);
    op.Process();
  } else {
    KernelGroupNorm<float> op;
    op.Init(x, gamma, beta, y, mean, rstd, N, G, CG, HW, groupsPerCore, eps);
    op.Process();
  }
}

// x [N, C, HW], gamma and beta [C], y like x, mean and rstd [N, G]; G from mean's shape, CG = C / G.
// x, gamma, beta and y of one type, fp32, fp16 or bf16 (dt 0, 1, 2); mean and rstd fp32.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int xt = a->inputs[0].dtype;
  const int32_t dt = xt == KOPE_F32 ? 0 : xt == KOPE_F16 ? 1 : xt == KOPE_BF16 ? 2 : -1;
  if (dt < 0 || a->inputs[1].dtype != xt || a->inputs[2].dtype != xt || a->outputs[0].dtype != xt ||
      a->outputs[1].dtype != KOPE_F32 || a->outputs[2].dtype != KOPE_F32)
    return 1;
  const kope_tensor *x = &a->inputs[0], *mean = &a->outputs[1];
  if (x->ndim != 3 || mean->ndim != 2) return 1;
  const uint64_t N = (uint64_t)x->shape[0], C = (uint64_t)x->shape[1], HW = (uint64_t)x->shape[2], G = (uint64_t)mean->shape[1];
  if (N * G == 0 || C % G != 0) return N * G == 0 ? 0 : 1;
  const uint64_t CG = C / G;
  const uint32_t blockDim = N * G < MAX_CORES ? (uint32_t)(N * G) : MAX_CORES;
  const uint64_t groupsPerCore = (N * G + blockDim - 1) / blockDim;
  const float eps = (float)kope_attr_or(a, "eps", 1e-5);
  GM_ADDR px = (GM_ADDR)x->data, pg = (GM_ADDR)a->inputs[1].data, pb = (GM_ADDR)a->inputs[2].data;
  GM_ADDR py = (GM_ADDR)a->outputs[0].data, pm = (GM_ADDR)mean->data, pr = (GM_ADDR)a->outputs[2].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(group_norm_custom, blockDim, px, pg, pb, py, pm, pr, N, G, CG, HW, groupsPerCore, eps, dt);
#else
  group_norm_custom<<<blockDim, nullptr, stream>>>(px, pg, pb, py, pm, pr, N, G, CG, HW, groupsPerCore, eps, dt);
#endif
  return 0;
}
