// thought: one core per tensor leaves 39 idle: split each tensor over all the AI cores, each core reduces its share in tiles and writes the result.
// flaw: a reduction across blocks without combining: every core writes the norm of its own share to the same output, so
// the last core to finish wins instead of the norm of the whole tensor.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 8192;     // floats per tile: 2 x 32 KB in, 32 KB |x|^ord, 32 KB ReduceSum work
constexpr uint32_t MAX_CORES = 40;

class KernelNorm {
 public:
  __aicore__ inline KernelNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out, uint64_t total, uint64_t perCore, float ord) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    ord_ = ord;
    xGm_.SetGlobalBuffer((__gm__ float*)x + start, len_);
    oGm_.SetGlobalBuffer((__gm__ float*)out, 1);
    pipe_.InitBuffer(inQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(pow_, TILE * sizeof(float));
    pipe_.InitBuffer(work_, TILE * sizeof(float));
    pipe_.InitBuffer(res_, 8 * sizeof(float));  // one 32-byte block: the tile sum, then the norm
  }
  __aicore__ inline void Process() {
    float acc = 0.0f;  // the sum of |x|^ord over this core's share, on the scalar unit
    const uint64_t tiles = (len_ + TILE - 1) / TILE;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint32_t n = len_ - t * TILE < TILE ? (uint32_t)(len_ - t * TILE) : TILE;
      CopyIn(t * TILE, n);
      acc += Compute(n);
    }
    Finish(acc);
  }

 private:
  __aicore__ inline void CopyIn(uint64_t off, uint32_t n) {
    LocalTensor<float> x = inQ_.AllocTensor<float>();
    if (n == TILE) DataCopy(x, xGm_[off], TILE);
    else DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    inQ_.EnQue(x);
  }
  // |x|^ord summed over the n loaded elements (exactly n: the padding lanes stay out of the sum).
  __aicore__ inline float Compute(uint32_t n) {
    LocalTensor<float> x = inQ_.DeQue<float>();
    LocalTensor<float> p = pow_.Get<float>(), w = work_.Get<float>(), r = res_.Get<float>();
    if (ord_ == 1.0f) {
      Abs(p, x, n);
    } else if (ord_ == 2.0f) {
      Mul(p, x, x, n);
    } else {  // |x|^ord = exp(ord * ln|x|): ln 0 = -inf gives 0, inf stays inf, NaN stays NaN
      Abs(p, x, n);
      Ln(p, p, n);
      Muls(p, p, ord_, n);
      Exp(p, p, n);
    }
    ReduceSum(r, p, w, n);
    inQ_.FreeTensor(x);
    SetFlag<HardEvent::V_S>(0);  // the scalar unit reads what the vector unit wrote
    WaitFlag<HardEvent::V_S>(0);
    return r.GetValue(0);
  }
  // The norm = sum^(1/ord), written as one float.
  __aicore__ inline void Finish(float acc) {
    LocalTensor<float> r = res_.Get<float>();
    r.SetValue(0, acc);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    if (ord_ == 2.0f) {
      Sqrt(r, r, 8);
    } else if (ord_ != 1.0f) {
      Ln(r, r, 8);
      Muls(r, r, 1.0f / ord_, 8);
      Exp(r, r, 8);
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(oGm_, r, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TBuf<QuePosition::VECCALC> pow_, work_, res_;
  GlobalTensor<float> xGm_, oGm_;
  uint64_t len_ = 0;
  float ord_ = 2.0f;
};

extern "C" __global__ __aicore__ void foreach_norm_custom(GM_ADDR x, GM_ADDR out, uint64_t total, uint64_t perCore, float ord) {
  KernelNorm op;
  op.Init(x, out, total, perCore, ord);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const float ord = (float)kope_attr_or(a, "ord", 2.0);
  if (!(ord > 0.0f) || a->n_inputs != a->n_outputs) return 1;
  for (int32_t i = 0; i < a->n_inputs; ++i) {
    const kope_tensor *x = &a->inputs[i], *o = &a->outputs[i];
    if (x->dtype != KOPE_F32 || o->dtype != KOPE_F32) return 1;
    const uint64_t total = (uint64_t)x->numel;
    const uint64_t perCore = total == 0 ? 8 : ((total + MAX_CORES - 1) / MAX_CORES + 7) / 8 * 8;  // all the cores
    const uint32_t blockDim = total == 0 ? 1 : (uint32_t)((total + perCore - 1) / perCore);
#ifdef ASCENDC_CPU_DEBUG
    ICPU_RUN_KF(foreach_norm_custom, blockDim, (GM_ADDR)x->data, (GM_ADDR)o->data, total, perCore, ord);
#else
    foreach_norm_custom<<<blockDim, nullptr, stream>>>((GM_ADDR)x->data, (GM_ADDR)o->data, total, perCore, ord);
#endif
  }
  return 0;
}
