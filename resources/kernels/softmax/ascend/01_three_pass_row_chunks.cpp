// thought: softmax over rows of any length: whole rows per AI core, each row streamed in 32 KB chunks three times, ReduceMax for the row maximum, then Adds(-max)/Exp/ReduceSum for the denominator (chunk sums added on the scalar unit), then exp(x - max) / sum with an IEEE Div; the shift keeps exp finite for logits in the thousands or FLT_MAX.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 8192;       // floats of a row chunk: x double-buffered, exp, ReduceSum work, 1/sum: 160 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Rows split over the cores; a row in chunks, three times: the maximum (ReduceMax per chunk), the sum of
// exp(x - max) (ReduceSum per chunk, chunk sums added on the scalar unit), then y = exp(x - max) / sum.
class KernelSoftmax {
 public:
  __aicore__ inline KernelSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t M, uint64_t N, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    N_ = N;
    xGm_.SetGlobalBuffer((__gm__ float*)x, M * N);
    yGm_.SetGlobalBuffer((__gm__ float*)y, M * N);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, CH * sizeof(float));
    pipe_.InitBuffer(yQ_, 1, CH * sizeof(float));
    pipe_.InitBuffer(work_, CH * sizeof(float));
    pipe_.InitBuffer(den_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      float mx = 0.0f;
      for (uint64_t c = 0; c < N_; c += CH) {
        const float m = Reduce(r * N_ + c, Len(c), 0.0f, false);
        mx = c == 0 || m > mx ? m : mx;
      }
      float sum = 0.0f;
      for (uint64_t c = 0; c < N_; c += CH) sum += Reduce(r * N_ + c, Len(c), mx, true);
      for (uint64_t c = 0; c < N_; c += CH) Write(r * N_ + c, Len(c), mx, sum);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint64_t c) const { return N_ - c < CH ? (uint32_t)(N_ - c) : CH; }
  __aicore__ inline LocalTensor<float> Load(uint64_t off, uint32_t n) {
    LocalTensor<float> x = xQ_.AllocTensor<float>();
    DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    xQ_.EnQue(x);
    return xQ_.DeQue<float>();
  }
  // The chunk's maximum, or (sumExp) its sum of exp(x - mx), over exactly its n elements.
  __aicore__ inline float Reduce(uint64_t off, uint32_t n, float mx, bool sumExp) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> w = work_.Get<float>(), s = s_.Get<float>();
    if (sumExp) {
      LocalTensor<float> e = yQ_.AllocTensor<float>();
      Adds(e, x, -mx, n);
      Exp(e, e, n);
      ReduceSum(s, e, w, n);
      yQ_.FreeTensor(e);
    } else {
      ReduceMax(s, x, w, n);
    }
    xQ_.FreeTensor(x);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  __aicore__ inline void Write(uint64_t off, uint32_t n, float mx, float sum) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> y = yQ_.AllocTensor<float>(), d = den_.Get<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Adds(y, x, -mx, m);
    Exp(y, y, m);
    Duplicate(d, sum, m);
    Div(y, y, d, m);
    xQ_.FreeTensor(x);
    yQ_.EnQue(y);
    y = yQ_.DeQue<float>();
    DataCopyPad(yGm_[off], y, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
    yQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_;
  TQue<QuePosition::VECOUT, 1> yQ_;
  TBuf<QuePosition::VECCALC> work_, den_, s_;
  GlobalTensor<float> xGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, N_ = 1;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, uint64_t M, uint64_t N, uint64_t rowsPerCore) {
  KernelSoftmax op;
  op.Init(x, y, M, N, rowsPerCore);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->dtype != KOPE_F32 || y->dtype != KOPE_F32 || x->ndim != 2) return 1;
  const uint64_t M = (uint64_t)x->shape[0], N = (uint64_t)x->shape[1];
  if (M == 0 || N == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(softmax_custom, blockDim, px, py, M, N, rowsPerCore);
#else
  softmax_custom<<<blockDim, nullptr, stream>>>(px, py, M, N, rowsPerCore);
#endif
  return 0;
}
