// thought: per-token int8 quantisation: whole rows per AI core, each row in chunks twice, Abs + ReduceMax for max |x| (x fp32, fp16 or bf16: fp16 and bf16 chunks Cast to fp32 in the UB first, exactly), scale = max / 127 in fp32 on the scalar unit, then Div by the scale (not a reciprocal multiply, which flips roundings) and float -> int32 with CAST_RINT (half to even), int32 -> half -> int8 exactly.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 4096;       // elements of a row chunk
constexpr uint32_t VEC_ALIGN = 128; // elements per 256-byte repeat of half (a multiple of float's 64)
constexpr uint32_t MAX_CORES = 40;

// Rows split over the cores; a row in chunks, twice: max |x| (Abs + ReduceMax per chunk), then
// y = rint(x / scale) through float -> int32 (CAST_RINT: half to even) -> half -> int8, each step exact.
template <typename T> class KernelDynamicQuant {
 public:
  __aicore__ inline KernelDynamicQuant() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR scale, uint64_t M, uint64_t K, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    K_ = K;
    xGm_.SetGlobalBuffer((__gm__ T*)x, M * K);
    yGm_.SetGlobalBuffer((__gm__ int8_t*)y, M * K);
    sGm_.SetGlobalBuffer((__gm__ float*)scale, M);
    pipe_.InitBuffer(xQ_, 2, CH * sizeof(T));
    pipe_.InitBuffer(yQ_, 2, CH * sizeof(int8_t));
    pipe_.InitBuffer(f_, CH * sizeof(float));
    pipe_.InitBuffer(d_, CH * sizeof(float));
    pipe_.InitBuffer(i_, CH * sizeof(int32_t));
    pipe_.InitBuffer(h_, CH * sizeof(half));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      float amax = 0.0f;
      for (uint64_t c = 0; c < K_; c += CH) {
        const float m = RowMax(r * K_ + c, Len(c));
        amax = m > amax ? m : amax;
      }
      const float scale = amax / 127.0f;  // fp32, as CANN computes it
      LocalTensor<float> s = s_.Get<float>();
      s.SetValue(0, scale);
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(sGm_[r], s, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
      for (uint64_t c = 0; c < K_; c += CH) Quantise(r * K_ + c, Len(c), scale);
    }
  }

 private:
  __aicore__ inline uint32_t Len(uint64_t c) const { return K_ - c < CH ? (uint32_t)(K_ - c) : CH; }
  // The chunk as float in f_.
  __aicore__ inline LocalTensor<float> LoadFloat(uint64_t off, uint32_t n, int32_t m) {
    LocalTensor<T> x = xQ_.template AllocTensor<T>();
    DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    xQ_.EnQue(x);
    x = xQ_.template DeQue<T>();
    LocalTensor<float> f = f_.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(f, x.template ReinterpretCast<float>(), m);
    else Cast(f, x, RoundMode::CAST_NONE, m);
    xQ_.FreeTensor(x);
    return f;
  }
  __aicore__ inline float RowMax(uint64_t off, uint32_t n) {
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    LocalTensor<float> f = LoadFloat(off, n, m);
    LocalTensor<float> w = d_.Get<float>(), s = s_.Get<float>();
    Abs(f, f, n);
    ReduceMax(s, f, w, n);  // exactly n elements
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  __aicore__ inline void Quantise(uint64_t off, uint32_t n, float scale) {
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    LocalTensor<float> f = LoadFloat(off, n, m);
    LocalTensor<float> d = d_.Get<float>();
    LocalTensor<int32_t> q = i_.Get<int32_t>();
    LocalTensor<half> h = h_.Get<half>();
    LocalTensor<int8_t> y = yQ_.template AllocTensor<int8_t>();
    if (scale == 0.0f) {  // an all-zero row: scale 0, y 0
      Duplicate(h, (half)0.0f, m);
    } else {
      Duplicate(d, scale, m);
      Div(f, f, d, m);  // divide by the fp32 scale, as CANN does (a reciprocal would flip roundings)
      Cast(q, f, RoundMode::CAST_RINT, m);
      Cast(h, q, RoundMode::CAST_NONE, m);  // |q| <= 127: exact in half
    }
    Cast(y, h, RoundMode::CAST_NONE, m);
    yQ_.EnQue(y);
    y = yQ_.template DeQue<int8_t>();
    DataCopyPad(yGm_[off], y, DataCopyExtParams{1, n, 0, 0, 0});
    yQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> xQ_;
  TQue<QuePosition::VECOUT, 2> yQ_;
  TBuf<QuePosition::VECCALC> f_, d_, i_, h_, s_;
  GlobalTensor<T> xGm_;
  GlobalTensor<int8_t> yGm_;
  GlobalTensor<float> sGm_;
  uint64_t first_ = 0, rows_ = 0, K_ = 1;
};

extern "C" __global__ __aicore__ void dynamic_quant_custom(GM_ADDR x, GM_ADDR y, GM_ADDR scale, uint64_t M, uint64_t K,
                                                           uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelDynamicQuant<half> op;
    op.Init(x, y, scale, M, K, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelDynamicQuant<bfloat16_t> op;
    op.Init(x, y, scale, M, K, rowsPerCore);
    op.Process();
  } else {
    KernelDynamicQuant<float> op;
    op.Init(x, y, scale, M, K, rowsPerCore);
    op.Process();
  }
}

// x fp32, fp16 or bf16 (dt 0, 1, 2); y int8, scale fp32.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0], *s = &a->outputs[1];
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0 || y->dtype != KOPE_I8 || s->dtype != KOPE_F32 || x->ndim != 2) return 1;
  const uint64_t M = (uint64_t)x->shape[0], K = (uint64_t)x->shape[1];
  if (M == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data, ps = (GM_ADDR)s->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(dynamic_quant_custom, blockDim, px, py, ps, M, K, rowsPerCore, dt);
#else
  dynamic_quant_custom<<<blockDim, nullptr, stream>>>(px, py, ps, M, K, rowsPerCore, dt);
#endif
  return 0;
}
