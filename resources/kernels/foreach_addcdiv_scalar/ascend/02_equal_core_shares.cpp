// thought: give all 40 vector cores the same share, total / 40 rounded down to whole 32-byte blocks, so every core runs the same number of full tiles and no core idles.
// flaw: rounding the shares down leaves the last total - 40 * perCore elements (up to 319 of them, or all of a tensor
// shorter than 8) to no core: they are never written.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 4096;     // floats per tile: 3 input queues + 1 output queue, double-buffered: 128 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

class KernelAddcdiv {
 public:
  __aicore__ inline KernelAddcdiv() {}
  __aicore__ inline void Init(GM_ADDR self, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, uint64_t total, uint64_t perCore,
                              float value) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    value_ = value;
    sGm_.SetGlobalBuffer((__gm__ float*)self + start, len_);
    aGm_.SetGlobalBuffer((__gm__ float*)t1 + start, len_);
    bGm_.SetGlobalBuffer((__gm__ float*)t2 + start, len_);
    oGm_.SetGlobalBuffer((__gm__ float*)out + start, len_);
    pipe_.InitBuffer(sQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(aQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, TILE * sizeof(float));
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
  __aicore__ inline void Load(TQue<QuePosition::VECIN, BUFFER_NUM>& q, GlobalTensor<float>& g, uint64_t off, uint32_t n) {
    LocalTensor<float> x = q.AllocTensor<float>();
    if (n == TILE) DataCopy(x, g[off], TILE);
    else DataCopyPad(x, g[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    q.EnQue(x);
  }
  __aicore__ inline void CopyIn(uint64_t off, uint32_t n) {
    Load(sQ_, sGm_, off, n);
    Load(aQ_, aGm_, off, n);
    Load(bQ_, bGm_, off, n);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> s = sQ_.DeQue<float>(), a = aQ_.DeQue<float>(), b = bQ_.DeQue<float>();
    LocalTensor<float> o = oQ_.AllocTensor<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Div(o, a, b, m);         // t1 / t2 first: IEEE signs of zeros and infinities, as torch.addcdiv
    Muls(o, o, value_, m);   // value * (t1 / t2)
    Add(o, s, o, m);         // self + ...
    oQ_.EnQue<float>(o);
    sQ_.FreeTensor(s);
    aQ_.FreeTensor(a);
    bQ_.FreeTensor(b);
  }
  __aicore__ inline void CopyOut(uint64_t off, uint32_t n) {
    LocalTensor<float> o = oQ_.DeQue<float>();
    if (n == TILE) DataCopy(oGm_[off], o, TILE);
    else DataCopyPad(oGm_[off], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
    oQ_.FreeTensor(o);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> sQ_, aQ_, bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  GlobalTensor<float> sGm_, aGm_, bGm_, oGm_;
  uint64_t len_ = 0;
  float value_ = 1.0f;
};

extern "C" __global__ __aicore__ void addcdiv_custom(GM_ADDR self, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, uint64_t total,
                                                     uint64_t perCore, float value) {
  KernelAddcdiv op;
  op.Init(self, t1, t2, out, total, perCore, value);
  op.Process();
}

// The inputs are the L self tensors, then the L tensor1, then the L tensor2: one launch per triple, in stream order.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int32_t L = a->n_outputs;
  if (a->n_inputs != 3 * L) return 1;
  const float value = (float)kope_attr_or(a, "value", 1.0);
  for (int32_t i = 0; i < L; ++i) {
    const kope_tensor *s = &a->inputs[i], *t1 = &a->inputs[L + i], *t2 = &a->inputs[2 * L + i], *o = &a->outputs[i];
    if (s->dtype != KOPE_F32 || t1->dtype != KOPE_F32 || t2->dtype != KOPE_F32 || o->dtype != KOPE_F32) return 1;
    const uint64_t total = (uint64_t)o->numel;
    if (total == 0) continue;
    uint64_t perCore = total / MAX_CORES / 8 * 8;  // equal shares of whole 32-byte blocks on every core
    uint32_t blockDim = MAX_CORES;
    if (perCore == 0) perCore = 8, blockDim = (uint32_t)(total / 8);
#ifdef ASCENDC_CPU_DEBUG
    ICPU_RUN_KF(addcdiv_custom, blockDim, (GM_ADDR)s->data, (GM_ADDR)t1->data, (GM_ADDR)t2->data, (GM_ADDR)o->data, total, perCore, value);
#else
    addcdiv_custom<<<blockDim, nullptr, stream>>>((GM_ADDR)s->data, (GM_ADDR)t1->data, (GM_ADDR)t2->data, (GM_ADDR)o->data, total, perCore, value);
#endif
  }
  return 0;
}
