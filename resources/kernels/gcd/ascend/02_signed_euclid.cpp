// thought: Euclid's loop as written, a % b until b is 0, on the scalar unit over double-buffered UB tiles; C's remainder keeps the sign consistent, so the result is the gcd.
// flaw: without taking |a| and |b| first the result carries the sign of the last non-zero remainder: gcd(-4, 6) comes
// out -2 and gcd(-5, 0) is -5, where torch.gcd is always non-negative.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 2048;     // elements per tile (16 KB of int64 at most per buffer)
constexpr uint32_t MAX_CORES = 40;

// gcd on the scalar unit: the vector unit has no integer remainder, and Euclid's loop length varies per element.
template <typename T> __aicore__ inline T GcdOf(T a, T b) {
  while (b != 0) {  // Euclid: gcd(a, b) = gcd(b, a % b)
    const T r = a % b;
    a = b;
    b = r;
  }
  return a;
}

template <typename T> class KernelGcd {
 public:
  __aicore__ inline KernelGcd() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint64_t total, uint64_t perCore) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    aGm_.SetGlobalBuffer((__gm__ T*)a + start, len_);
    bGm_.SetGlobalBuffer((__gm__ T*)b + start, len_);
    oGm_.SetGlobalBuffer((__gm__ T*)out + start, len_);
    pipe_.InitBuffer(aQ_, BUFFER_NUM, TILE * sizeof(T));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, TILE * sizeof(T));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, TILE * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint64_t off = 0; off < len_; off += TILE) {
      const uint32_t n = len_ - off < TILE ? (uint32_t)(len_ - off) : TILE;
      LocalTensor<T> a = aQ_.template AllocTensor<T>(), b = bQ_.template AllocTensor<T>();
      DataCopyPad(a, aGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
      DataCopyPad(b, bGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
      aQ_.EnQue(a);
      bQ_.EnQue(b);
      a = aQ_.template DeQue<T>();
      b = bQ_.template DeQue<T>();
      LocalTensor<T> o = oQ_.template AllocTensor<T>();
      for (uint32_t i = 0; i < n; ++i) o.SetValue(i, GcdOf<T>(a.GetValue(i), b.GetValue(i)));
      oQ_.EnQue(o);
      aQ_.FreeTensor(a);
      bQ_.FreeTensor(b);
      o = oQ_.template DeQue<T>();
      DataCopyPad(oGm_[off], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
      oQ_.FreeTensor(o);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> aQ_, bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  GlobalTensor<T> aGm_, bGm_, oGm_;
  uint64_t len_ = 0;
};

extern "C" __global__ __aicore__ void gcd_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint64_t total, uint64_t perCore, int32_t wide) {
  if (wide) {
    KernelGcd<int64_t> op;
    op.Init(a, b, out, total, perCore);
    op.Process();
  } else {
    KernelGcd<int32_t> op;
    op.Init(a, b, out, total, perCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int32_t dt = a->inputs[0].dtype;
  if ((dt != KOPE_I32 && dt != KOPE_I64) || a->inputs[1].dtype != dt || a->outputs[0].dtype != dt) return 1;
  const uint64_t total = (uint64_t)a->outputs[0].numel;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 7) / 8 * 8;
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  const int32_t wide = dt == KOPE_I64;
  GM_ADDR x = (GM_ADDR)a->inputs[0].data, y = (GM_ADDR)a->inputs[1].data, o = (GM_ADDR)a->outputs[0].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gcd_custom, blockDim, x, y, o, total, perCore, wide);
#else
  gcd_custom<<<blockDim, nullptr, stream>>>(x, y, o, total, perCore, wide);
#endif
  return 0;
}
