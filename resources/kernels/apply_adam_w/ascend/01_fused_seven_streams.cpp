// thought: AdamW is seven memory streams and a dozen flops per element: one fused pass, four input and three output queues double-buffered over the AI cores, the bias corrections and step size folded into fp32 scalars on the host (in double) and passed as kernel arguments; Muls/Add/Mul/Sqrt/Div in the order torch's update takes.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 2048;     // floats per tile: 4 input + 3 output queues double-buffered + 2 scratch = 128 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// The step's scalars, folded on the host once per call (bias corrections in double, then fp32).
struct AdamScalars {
  float decay, b1, cb1, b2, cb2, invBc2Sqrt, stepSize, eps;
};

class KernelAdamW {
 public:
  __aicore__ inline KernelAdamW() {}
  __aicore__ inline void Init(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR g, GM_ADDR varOut, GM_ADDR mOut, GM_ADDR vOut,
                              uint64_t total, uint64_t perCore, const AdamScalars& s) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    s_ = s;
    GM_ADDR in[4] = {var, m, v, g}, out[3] = {varOut, mOut, vOut};
    for (int k = 0; k < 4; ++k) {
      inGm_[k].SetGlobalBuffer((__gm__ float*)in[k] + start, len_);
      pipe_.InitBuffer(inQ_[k], BUFFER_NUM, TILE * sizeof(float));
    }
    for (int k = 0; k < 3; ++k) {
      outGm_[k].SetGlobalBuffer((__gm__ float*)out[k] + start, len_);
      pipe_.InitBuffer(outQ_[k], BUFFER_NUM, TILE * sizeof(float));
    }
    pipe_.InitBuffer(tmp_, 2 * TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t off = 0; off < len_; off += TILE) {
      const uint32_t n = len_ - off < TILE ? (uint32_t)(len_ - off) : TILE;
      for (int k = 0; k < 4; ++k) {
        LocalTensor<float> t = inQ_[k].AllocTensor<float>();
        if (n == TILE) DataCopy(t, inGm_[k][off], TILE);
        else DataCopyPad(t, inGm_[k][off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ_[k].EnQue(t);
      }
      Compute(n);
      for (int k = 0; k < 3; ++k) {
        LocalTensor<float> t = outQ_[k].DeQue<float>();
        if (n == TILE) DataCopy(outGm_[k][off], t, TILE);
        else DataCopyPad(outGm_[k][off], t, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
        outQ_[k].FreeTensor(t);
      }
    }
  }

 private:
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> p = inQ_[0].DeQue<float>(), m = inQ_[1].DeQue<float>(), v = inQ_[2].DeQue<float>(), g = inQ_[3].DeQue<float>();
    LocalTensor<float> po = outQ_[0].AllocTensor<float>(), mo = outQ_[1].AllocTensor<float>(), vo = outQ_[2].AllocTensor<float>();
    LocalTensor<float> t = tmp_.Get<float>(), u = t[TILE];
    const int32_t c = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Muls(mo, m, s_.b1, c);
    Muls(t, g, s_.cb1, c);
    Add(mo, mo, t, c);              // m' = b1 m + (1 - b1) g
    Muls(vo, v, s_.b2, c);
    Muls(t, g, s_.cb2, c);
    Mul(t, t, g, c);
    Add(vo, vo, t, c);              // v' = b2 v + (1 - b2) g^2
    Sqrt(t, vo, c);
    Muls(t, t, s_.invBc2Sqrt, c);
    Adds(t, t, s_.eps, c);          // sqrt(v' / bc2) + eps
    Muls(u, mo, s_.stepSize, c);
    Div(u, u, t, c);                // (lr / bc1) m' / (...): inf / inf = NaN for an infinite grad, as torch gives
    Muls(po, p, s_.decay, c);       // var (1 - lr wd)
    Sub(po, po, u, c);
    outQ_[0].EnQue(po);
    outQ_[1].EnQue(mo);
    outQ_[2].EnQue(vo);
    for (int k = 0; k < 4; ++k) {
      LocalTensor<float> x = k == 0 ? p : k == 1 ? m : k == 2 ? v : g;
      inQ_[k].FreeTensor(x);
    }
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_[4];
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_[3];
  TBuf<QuePosition::VECCALC> tmp_;
  GlobalTensor<float> inGm_[4], outGm_[3];
  uint64_t len_ = 0;
  AdamScalars s_;
};

extern "C" __global__ __aicore__ void apply_adam_w_custom(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR g, GM_ADDR varOut, GM_ADDR mOut,
                                                          GM_ADDR vOut, uint64_t total, uint64_t perCore, float decay, float b1,
                                                          float cb1, float b2, float cb2, float invBc2Sqrt, float stepSize, float eps) {
  KernelAdamW op;
  op.Init(var, m, v, g, varOut, mOut, vOut, total, perCore, AdamScalars{decay, b1, cb1, b2, cb2, invBc2Sqrt, stepSize, eps});
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  for (int k = 0; k < 4; ++k)
    if (a->inputs[k].dtype != KOPE_F32) return 1;  // fp32 only
  for (int k = 0; k < 3; ++k)
    if (a->outputs[k].dtype != KOPE_F32) return 1;
  const double lr = kope_attr_or(a, "lr", 1e-3), b1 = kope_attr_or(a, "beta1", 0.9), b2 = kope_attr_or(a, "beta2", 0.999);
  const double eps = kope_attr_or(a, "eps", 1e-8), wd = kope_attr_or(a, "weight_decay", 0.01), step = kope_attr_or(a, "step", 1);
  const float decay = (float)(1 - lr * wd), fb1 = (float)b1, cb1 = (float)(1 - b1), fb2 = (float)b2, cb2 = (float)(1 - b2);
  const float invBc2Sqrt = (float)(1 / sqrt(1 - pow(b2, step))), stepSize = (float)(lr / (1 - pow(b1, step))), feps = (float)eps;
  const uint64_t total = (uint64_t)a->inputs[0].numel;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 7) / 8 * 8;
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  GM_ADDR p = (GM_ADDR)a->inputs[0].data, m = (GM_ADDR)a->inputs[1].data, v = (GM_ADDR)a->inputs[2].data, g = (GM_ADDR)a->inputs[3].data;
  GM_ADDR po = (GM_ADDR)a->outputs[0].data, mo = (GM_ADDR)a->outputs[1].data, vo = (GM_ADDR)a->outputs[2].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(apply_adam_w_custom, blockDim, p, m, v, g, po, mo, vo, total, perCore, decay, fb1, cb1, fb2, cb2, invBc2Sqrt, stepSize, feps);
#else
  apply_adam_w_custom<<<blockDim, nullptr, stream>>>(p, m, v, g, po, mo, vo, total, perCore, decay, fb1, cb1, fb2, cb2, invBc2Sqrt, stepSize, feps);
#endif
  return 0;
}
