// thought: the matrices are tiny (N = 4 to 16) and each takes 2 num_iters normalisation sweeps, so a core takes B matrices at a time (B N^2 = 4096 elements), loads them as one burst, widens them to fp32 and turns them into structure-of-arrays in the UB (entry e of all B matrices one contiguous B-lane vector), then runs the max-subtracted softmax and every row and column sweep as plain B-lane vector ops (Max, Sub, Exp, Add, Div, Adds: one op per entry, no reductions), and turns the block back for one store; the two layout turns are scalar moves in the UB.
// thought: fp32, fp16 and bf16 (x and y of one dtype): the widening to fp32 is a Cast in the UB (CAST_NONE) and the narrowing one CAST_RINT at the end, so fp16 and bf16 are projected in fp32 exactly as fp32 is.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t BLOCK_ELEMS = 4096;  // B N^2: the entries of one block of matrices
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;

template <typename T> class KernelMhcSinkhorn {
 public:
  __aicore__ inline KernelMhcSinkhorn() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t T_, uint32_t N, uint32_t B, uint64_t perCore, int32_t iters, float eps) {
    first_ = GetBlockIdx() * perCore;
    count_ = first_ >= T_ ? 0 : (T_ - first_ < perCore ? T_ - first_ : perCore);
    N_ = N, NN_ = N * N, B_ = B, iters_ = iters, eps_ = eps;
    xGm_.SetGlobalBuffer((__gm__ T*)x, T_ * NN_);
    yGm_.SetGlobalBuffer((__gm__ T*)y, T_ * NN_);
    pipe_.InitBuffer(inQ_, BUFFER_NUM, BLOCK_ELEMS * sizeof(T));
    pipe_.InitBuffer(outQ_, BUFFER_NUM, BLOCK_ELEMS * sizeof(T));
    pipe_.InitBuffer(aos_, BLOCK_ELEMS * sizeof(float));
    pipe_.InitBuffer(soa_, BLOCK_ELEMS * sizeof(float));
    pipe_.InitBuffer(m_, B * sizeof(float));
    pipe_.InitBuffer(s_, B * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint64_t t0 = first_; t0 < first_ + count_; t0 += B_) {
      const uint32_t b = first_ + count_ - t0 < B_ ? (uint32_t)(first_ + count_ - t0) : B_;
      const uint32_t n = b * NN_;
      // CopyIn: b whole matrices, one burst.
      LocalTensor<T> in = inQ_.template AllocTensor<T>();
      DataCopyPad(in, xGm_[t0 * NN_], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                  DataCopyPadExtParams<T>{false, 0, 0, (T)0});
      inQ_.EnQue(in);
      in = inQ_.template DeQue<T>();
      LocalTensor<float> a = aos_.Get<float>(), p = soa_.Get<float>();
      if constexpr (sizeof(T) == sizeof(float)) Adds(a, in.template ReinterpretCast<float>(), 0.0f, n);
      else Cast(a, in, RoundMode::CAST_NONE, n);
      inQ_.FreeTensor(in);
      // AoS -> SoA: p[e B + m] = a[m NN + e].
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < b; ++m)
        for (uint32_t e = 0; e < NN_; ++e) p.SetValue(e * B_ + m, a.GetValue(m * NN_ + e));
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      Sinkhorn(p);
      // SoA -> AoS, narrow, CopyOut.
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < b; ++m)
        for (uint32_t e = 0; e < NN_; ++e) a.SetValue(m * NN_ + e, p.GetValue(e * B_ + m));
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      LocalTensor<T> out = outQ_.template AllocTensor<T>();
      if constexpr (sizeof(T) == sizeof(float)) Adds(out.template ReinterpretCast<float>(), a, 0.0f, n);
      else Cast(out, a, RoundMode::CAST_RINT, n);
      outQ_.EnQue(out);
      out = outQ_.template DeQue<T>();
      DataCopyPad(yGm_[t0 * NN_], out, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
      outQ_.FreeTensor(out);
    }
  }

 private:
  // The whole projection on a SoA block: entry (i, j) of every matrix is p[(i N + j) B, + B).
  __aicore__ inline void Sinkhorn(const LocalTensor<float>& p) {
    LocalTensor<float> m = m_.Get<float>(), s = s_.Get<float>();
    const uint32_t N = N_, B = B_;
    for (uint32_t i = 0; i < N; ++i) {  // softmax of row i, max-subtracted, plus eps
      Adds(m, p[i * N * B], 0.0f, B);
      for (uint32_t j = 1; j < N; ++j) Max(m, m, p[(i * N + j) * B], B);
      for (uint32_t j = 0; j < N; ++j) {
        Sub(p[(i * N + j) * B], p[(i * N + j) * B], m, B);
        Exp(p[(i * N + j) * B], p[(i * N + j) * B], B);
      }
      Adds(s, p[i * N * B], 0.0f, B);
      for (uint32_t j = 1; j < N; ++j) Add(s, s, p[(i * N + j) * B], B);
      for (uint32_t j = 0; j < N; ++j) {
        Div(p[(i * N + j) * B], p[(i * N + j) * B], s, B);
        Adds(p[(i * N + j) * B], p[(i * N + j) * B], eps_, B);
      }
    }
    for (int32_t k = 0; k < iters_; ++k) {
      if (k > 0)
        for (uint32_t i = 0; i < N; ++i) {  // row i / (its sum + eps)
          Duplicate(s, eps_, B);
          for (uint32_t j = 0; j < N; ++j) Add(s, s, p[(i * N + j) * B], B);
          for (uint32_t j = 0; j < N; ++j) Div(p[(i * N + j) * B], p[(i * N + j) * B], s, B);
        }
      for (uint32_t j = 0; j < N; ++j) {  // column j / (its sum + eps)
        Duplicate(s, eps_, B);
        for (uint32_t i = 0; i < N; ++i) Add(s, s, p[(i * N + j) * B], B);
        for (uint32_t i = 0; i < N; ++i) Div(p[(i * N + j) * B], p[(i * N + j) * B], s, B);
      }
    }
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
  TBuf<QuePosition::VECCALC> aos_, soa_, m_, s_;
  GlobalTensor<T> xGm_, yGm_;
  uint64_t first_ = 0, count_ = 0;
  uint32_t N_ = 1, NN_ = 1, B_ = 8;
  int32_t iters_ = 20;
  float eps_ = 1e-6f;
};

template <typename T>
__aicore__ inline void RunMhcSinkhorn(GM_ADDR x, GM_ADDR y, uint64_t T_, uint32_t N, uint32_t B, uint64_t perCore,
                                      int32_t iters, float eps) {
  KernelMhcSinkhorn<T> op;
  op.Init(x, y, T_, N, B, perCore, iters, eps);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (x and y share it).
extern "C" __global__ __aicore__ void mhc_sinkhorn_custom(GM_ADDR x, GM_ADDR y, uint64_t T, uint32_t N, uint32_t B,
                                                          uint64_t perCore, int32_t iters, float eps, int32_t dt) {
  if (dt == 1) RunMhcSinkhorn<half>(x, y, T, N, B, perCore, iters, eps);
  else if (dt == 2) RunMhcSinkhorn<bfloat16_t>(x, y, T, N, B, perCore, iters, eps);
  else RunMhcSinkhorn<float>(x, y, T, N, B, perCore, iters, eps);
}

// fp32, fp16 and bf16: 2-byte matrices are Cast to fp32 in the UB (CAST_NONE), projected in fp32 and Cast back once
// (CAST_RINT).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || y->dtype != x->dtype || x->ndim != 3)
    return 1;
  const uint64_t T = (uint64_t)x->shape[0];
  const uint32_t N = (uint32_t)x->shape[2];
  if (N == 0 || N * N > 512) return 1;  // at least 8 matrices to a block
  if (T == 0) return 0;
  const uint32_t B = BLOCK_ELEMS / (N * N) / 8 * 8;  // lanes: a whole number of 32-byte blocks
  const uint64_t want = (T + B - 1) / B;                 // blocks of matrices
  const uint32_t blockDim = want < MAX_CORES ? (uint32_t)want : MAX_CORES;
  const uint64_t perCore = (T + blockDim - 1) / blockDim;
  const int32_t iters = (int32_t)kope_attr_or(a, "num_iters", 20);
  const float eps = (float)kope_attr_or(a, "eps", 1e-6);
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(mhc_sinkhorn_custom, blockDim, px, py, T, N, B, perCore, iters, eps, dt);
#else
  mhc_sinkhorn_custom<<<blockDim, nullptr, stream>>>(px, py, T, N, B, perCore, iters, eps, dt);
#endif
  return 0;
}
