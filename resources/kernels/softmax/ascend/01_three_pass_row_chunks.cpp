// thought: softmax over rows of any length, x and y fp32, fp16 or bf16 (2-byte data cast to fp32 in the UB as it arrives, y computed in fp32 and cast back once, CAST_RINT): whole rows per AI core, each row streamed in 8192-element chunks (32 KB of fp32) three times, ReduceMax for the row maximum, then Adds(-max)/Exp/ReduceSum for the denominator (chunk sums added on the scalar unit), then exp(x - max) / sum with an IEEE Div; the shift keeps exp finite for logits in the thousands or FLT_MAX.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 8192;       // elements of a row chunk: x double-buffered, exp, ReduceSum work, 1/sum: 160 KB in fp32;
                                    // 2-byte x and y add the fp32 copies of x and y: 176 KB

constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// Rows split over the cores; a row in chunks, three times: the maximum (ReduceMax per chunk), the sum of
// exp(x - max) (ReduceSum per chunk, chunk sums added on the scalar unit), then y = exp(x - max) / sum.
// T (x's and y's type) is float, half or bfloat16_t: a 2-byte chunk is cast to fp32 in the UB (xf_), every step is
// the fp32 one, and y is cast back to T once (CAST_RINT) before it is copied out.
template <typename A, typename B> struct KopeSameType { static constexpr bool value = false; };
template <typename A> struct KopeSameType<A, A> { static constexpr bool value = true; };

template <typename T> class KernelSoftmax {
  static constexpr bool F32 = KopeSameType<T, float>::value;

 public:
  __aicore__ inline KernelSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t M, uint64_t N, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= M ? 0 : (M - first_ < rowsPerCore ? M - first_ : rowsPerCore);
    N_ = N;
    xGm_.SetGlobalBuffer((__gm__ T*)x, M * N);
    yGm_.SetGlobalBuffer((__gm__ T*)y, M * N);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(yQ_, 1, CH * sizeof(T));
    pipe_.InitBuffer(work_, CH * sizeof(float));
    pipe_.InitBuffer(den_, CH * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
    if constexpr (!F32) {
      pipe_.InitBuffer(xf_, CH * sizeof(float));
      pipe_.InitBuffer(yf_, CH * sizeof(float));
    }
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
  // The chunk as fp32: the queue's tensor itself (fp32 x; Release frees it), or its fp32 copy in xf_ (2-byte x,
  // cast over the chunk's whole 64-element groups, as Write reads them).
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
  // fp32 scratch for exp(x - max): the output queue's tensor (fp32 y) or yf_.
  __aicore__ inline LocalTensor<float> Scratch() {
    if constexpr (F32) return yQ_.template AllocTensor<float>();
    else return yf_.template Get<float>();
  }
  // The chunk's maximum, or (sumExp) its sum of exp(x - mx), over exactly its n elements.
  __aicore__ inline float Reduce(uint64_t off, uint32_t n, float mx, bool sumExp) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> w = work_.Get<float>(), s = s_.Get<float>();
    if (sumExp) {
      LocalTensor<float> e = Scratch();
      Adds(e, x, -mx, n);
      Exp(e, e, n);
      ReduceSum(s, e, w, n);
      if constexpr (F32) yQ_.FreeTensor(e);
    } else {
      ReduceMax(s, x, w, n);
    }
    Release(x);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return s.GetValue(0);
  }
  __aicore__ inline void Write(uint64_t off, uint32_t n, float mx, float sum) {
    LocalTensor<float> x = Load(off, n);
    LocalTensor<float> y = Scratch(), d = den_.Get<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Adds(y, x, -mx, m);
    Exp(y, y, m);
    Duplicate(d, sum, m);
    Div(y, y, d, m);
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
  TBuf<QuePosition::VECCALC> work_, den_, s_, xf_, yf_;
  GlobalTensor<T> xGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, N_ = 1;
};

template <typename T> __aicore__ inline void RunSoftmax(GM_ADDR x, GM_ADDR y, uint64_t M, uint64_t N, uint64_t rowsPerCore) {
  KernelSoftmax<T> op;
  op.Init(x, y, M, N, rowsPerCore);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (x's and y's type).
extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, uint64_t M, uint64_t N, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) RunSoftmax<half>(x, y, M, N, rowsPerCore);
  else if (dt == 2) RunSoftmax<bfloat16_t>(x, y, M, N, rowsPerCore);
  else RunSoftmax<float>(x, y, M, N, rowsPerCore);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->dtype != y->dtype || x->ndim != 2) return 1;
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0) return 1;
  const uint64_t M = (uint64_t)x->shape[0], N = (uint64_t)x->shape[1];
  if (M == 0 || N == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(softmax_custom, blockDim, px, py, M, N, rowsPerCore, dt);
#else
  softmax_custom<<<blockDim, nullptr, stream>>>(px, py, M, N, rowsPerCore, dt);
#endif
  return 0;
}
