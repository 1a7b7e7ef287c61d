// thought: exact GELU = x * 0.5 * (1 + erf(x / sqrt(2))) with no erf instruction: evaluate erfc(|x| / sqrt(2)) by a Chebyshev fit (relative error < 1.2e-7) in vector Muls/Adds/Mul/Exp, then pick 2 - erfc for x >= 0 and erfc itself for x < 0 with Compare + Select, so negative x, where 1 + erf cancels, keeps full relative precision.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;   // double buffering: MTE2 fills one tile while the vector unit works on the other
constexpr uint32_t TILE = 4096;     // floats per tile; in/out queues x 2 buffers + 4 scratch tiles fit the 192 KB UB
constexpr uint32_t VEC_ALIGN = 64;  // floats per 256-byte vector repeat: compute on whole repeats
constexpr uint32_t MAX_CORES = 40;  // vector cores used at most (910B3/B4 have 40; B1/B2 have 48)

class KernelGelu {
 public:
  __aicore__ inline KernelGelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    xGm_.SetGlobalBuffer((__gm__ float*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ float*)y + start, len_);
    pipe_.InitBuffer(inQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(outQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(tmp_, 4 * TILE * sizeof(float));  // scratch: 4 tiles
    pipe_.InitBuffer(mask_, TILE / 8);  // Compare's bit mask: one bit per element
  }
  __aicore__ inline void Process() {
    const uint64_t tiles = (len_ + TILE - 1) / TILE;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint32_t n = len_ - t * TILE < TILE ? (uint32_t)(len_ - t * TILE) : TILE;
      CopyIn(t * TILE, n);
      Compute(n);
      CopyOut(t * TILE, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t off, uint32_t n) {
    LocalTensor<float> x = inQ_.AllocTensor<float>();
    if (n == TILE) {
      DataCopy(x, xGm_[off], TILE);
    } else {  // the tail: any length; the UB side is padded to 32 bytes
      DataCopyExtParams p{1, (uint32_t)(n * sizeof(float)), 0, 0, 0};
      DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
      DataCopyPad(x, xGm_[off], p, pad);
    }
    inQ_.EnQue(x);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> x = inQ_.DeQue<float>();
    LocalTensor<float> y = outQ_.AllocTensor<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);  // padding lanes compute harmlessly
    LocalTensor<float> s = tmp_.Get<float>();
    LocalTensor<float> a = s, t = s[TILE], p = s[2 * TILE], q = s[3 * TILE];
    LocalTensor<uint8_t> ge = mask_.Get<uint8_t>();
    Abs(a, x, m);
    Muls(a, a, 0.70710678118654752f, m);   // z = |x| / sqrt(2)
    Muls(t, a, 0.5f, m);
    Adds(t, t, 1.0f, m);
    Duplicate(q, 1.0f, m);
    Div(t, q, t, m);                       // t = 1 / (1 + z / 2)
    Muls(p, t, 0.17087277f, m);            // Horner: the Chebyshev polynomial in t
    const float c[8] = {-0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f, -0.18628806f, 0.09678418f, 0.37409196f, 1.00002368f};
    for (int k = 0; k < 8; ++k) {
      Adds(p, p, c[k], m);
      Mul(p, p, t, m);
    }
    Adds(p, p, -1.26551223f, m);
    Mul(q, a, a, m);
    Sub(p, p, q, m);                       // -z^2 - 1.26551223 + t * (...): -inf for huge |x|, so exp gives 0
    Exp(p, p, m);
    Mul(p, t, p, m);                       // e = erfc(z)
    Muls(q, p, -1.0f, m);
    Adds(q, q, 2.0f, m);                   // 2 - erfc(z) = erfc(-z), for x >= 0
    Duplicate(t, 0.0f, m);
    Compare(ge, x, t, CMPMODE::GE, m);
    Select(a, ge, q, p, SELMODE::VSEL_TENSOR_TENSOR_MODE, m);  // erfc(-x / sqrt(2)) = 1 + erf(x / sqrt(2))
    Muls(t, x, 0.5f, m);
    Mul(y, t, a, m);                       // (x * 0.5) * (1 + erf): -0 for a large negative x, as ATen gives
    outQ_.EnQue<float>(y);
    inQ_.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint64_t off, uint32_t n) {
    LocalTensor<float> y = outQ_.DeQue<float>();
    if (n == TILE) {
      DataCopy(yGm_[off], y, TILE);
    } else {
      DataCopyExtParams p{1, (uint32_t)(n * sizeof(float)), 0, 0, 0};
      DataCopyPad(yGm_[off], y, p);
    }
    outQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
  TBuf<QuePosition::VECCALC> tmp_;
  TBuf<QuePosition::VECCALC> mask_;
  GlobalTensor<float> xGm_, yGm_;
  uint64_t len_ = 0;
};

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore) {
  KernelGelu op;
  op.Init(x, y, total, perCore);
  op.Process();
}

// Host-side tiling: each core's share rounded up to 8 floats (32 bytes), so every share but the last starts aligned.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  if (a->inputs[0].dtype != KOPE_F32 || a->outputs[0].dtype != KOPE_F32) return 1;  // fp32 only
  const uint64_t total = (uint64_t)a->inputs[0].numel;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 7) / 8 * 8;
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  GM_ADDR x = (GM_ADDR)a->inputs[0].data;
  GM_ADDR y = (GM_ADDR)a->outputs[0].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gelu_custom, blockDim, x, y, total, perCore);
#else
  gelu_custom<<<blockDim, nullptr, stream>>>(x, y, total, perCore);
#endif
  return 0;
}
