// thought: RMSNorm is a row reduction then a scale: whole rows per AI core, each row in 32 KB chunks twice, first Mul + ReduceSum over exactly the chunk's elements (chunk sums added on the scalar unit), then rstd = 1 / sqrt(mean + eps) on one vector block, written per row, and y = (x * rstd) * gamma; any D, since no row has to fit the UB.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 8192;       // floats of a row chunk: x double-buffered, gamma, x^2 or y, ReduceSum work: 160 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Rows split over the cores; a row in chunks, twice: the sum of squares (ReduceSum per chunk, the chunk sums added
// on the scalar unit), then y = x * rstd * gamma.
class KernelRmsNorm {
 public:
  __aicore__ inline KernelRmsNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint64_t M, uint64_t D, uint64_t rowsPerCore, float eps) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    D_ = D, eps_ = eps;
    xGm_.SetGlobalBuffer((__gm__ float*)x, M * D);
    gGm_.SetGlobalBuffer((__gm__ float*)gamma, D);
    yGm_.SetGlobalBuffer((__gm__ float*)y, M * D);
    rGm_.SetGlobalBuffer((__gm__ float*)rstd, M);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, CH * sizeof(float));
    pipe_.InitBuffer(yQ_, 1, CH * sizeof(float));
    pipe_.InitBuffer(g_, CH * sizeof(float));
    pipe_.InitBuffer(work_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
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
    LocalTensor<float> x = xQ_.AllocTensor<float>();
    DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    xQ_.EnQue(x);
  }
  __aicore__ inline float SumSquares(uint64_t off, uint32_t n) {
    Load(off, n);
    LocalTensor<float> x = xQ_.DeQue<float>();
    LocalTensor<float> sq = yQ_.AllocTensor<float>(), w = work_.Get<float>(), s = s_.Get<float>();
    Mul(sq, x, x, n);
    ReduceSum(s, sq, w, n);  // exactly n: the padding lanes stay out
    xQ_.FreeTensor(x);
    yQ_.FreeTensor(sq);
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
    LocalTensor<float> g = g_.Get<float>();
    DataCopyPad(g, gGm_[c], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    LocalTensor<float> x = xQ_.DeQue<float>();
    LocalTensor<float> y = yQ_.AllocTensor<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Muls(y, x, rstd, m);  // (x * rstd) * gamma, the composite's order
    Mul(y, y, g, m);
    xQ_.FreeTensor(x);
    yQ_.EnQue(y);
    y = yQ_.DeQue<float>();
    DataCopyPad(yGm_[off], y, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
    yQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_;
  TQue<QuePosition::VECOUT, 1> yQ_;
  TBuf<QuePosition::VECCALC> g_, work_, s_;
  GlobalTensor<float> xGm_, gGm_, yGm_, rGm_;
  uint64_t first_ = 0, rows_ = 0, D_ = 1;
  float eps_ = 1e-6f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint64_t M, uint64_t D,
                                                      uint64_t rowsPerCore, float eps) {
  KernelRmsNorm op;
  op.Init(x, gamma, y, rstd, M, D, rowsPerCore, eps);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *g = &a->inputs[1], *y = &a->outputs[0], *r = &a->outputs[1];
  if (x->dtype != KOPE_F32 || g->dtype != KOPE_F32 || y->dtype != KOPE_F32 || r->dtype != KOPE_F32 || x->ndim != 2) return 1;
  const uint64_t M = (uint64_t)x->shape[0], D = (uint64_t)x->shape[1];
  if (M == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  const float eps = (float)kope_attr_or(a, "eps", 1e-6);
  GM_ADDR px = (GM_ADDR)x->data, pg = (GM_ADDR)g->data, py = (GM_ADDR)y->data, pr = (GM_ADDR)r->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(rms_norm_custom, blockDim, px, pg, py, pr, M, D, rowsPerCore, eps);
#else
  rms_norm_custom<<<blockDim, nullptr, stream>>>(px, pg, py, pr, M, D, rowsPerCore, eps);
#endif
  return 0;
}
