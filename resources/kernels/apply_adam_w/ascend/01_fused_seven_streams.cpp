// thought: AdamW is seven memory streams and a dozen flops per element: one fused pass, four input and three output queues double-buffered over the AI cores, the bias corrections and step size folded into fp32 scalars on the host (in double) and passed as kernel arguments; Muls/Add/Mul/Sqrt/Div in the order torch's update takes.
// thought: the state is fp32, fp16 or bf16 (all seven tensors one dtype): fp16 and bf16 tiles are Cast to fp32 in the UB (CAST_NONE, exact), updated in fp32 exactly as the fp32 path does, and Cast back once (CAST_RINT) before the copy out.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 2048;     // elements per tile: fp32, 4 input + 3 output queues double-buffered + 2 scratch = 128 KB;
                                    // fp16/bf16, the queues take half that and 7 fp32 staging tiles 56 KB more: 128 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// The step's scalars, folded on the host once per call (bias corrections in double, then fp32).
struct AdamScalars {
  float decay, b1, cb1, b2, cb2, invBc2Sqrt, stepSize, eps;
};

template <typename T> class KernelAdamW {
 public:
  __aicore__ inline KernelAdamW() {}
  __aicore__ inline void Init(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR g, GM_ADDR varOut, GM_ADDR mOut, GM_ADDR vOut,
                              uint64_t total, uint64_t perCore, const AdamScalars& s) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    s_ = s;
    GM_ADDR in[4] = {var, m, v, g}, out[3] = {varOut, mOut, vOut};
    for (int k = 0; k < 4; ++k) {
      inGm_[k].SetGlobalBuffer((__gm__ T*)in[k] + start, len_);
      pipe_.InitBuffer(inQ_[k], BUFFER_NUM, TILE * sizeof(T));
    }
    for (int k = 0; k < 3; ++k) {
      outGm_[k].SetGlobalBuffer((__gm__ T*)out[k] + start, len_);
      pipe_.InitBuffer(outQ_[k], BUFFER_NUM, TILE * sizeof(T));
    }
    pipe_.InitBuffer(tmp_, 2 * TILE * sizeof(float));
    if constexpr (sizeof(T) != sizeof(float)) pipe_.InitBuffer(stage_, 7 * TILE * sizeof(float));  // fp32 copies of the 7 tiles
  }
  __aicore__ inline void Process() {
    for (uint64_t off = 0; off < len_; off += TILE) {
      const uint32_t n = len_ - off < TILE ? (uint32_t)(len_ - off) : TILE;
      for (int k = 0; k < 4; ++k) {
        LocalTensor<T> t = inQ_[k].template AllocTensor<T>();
        if (n == TILE) DataCopy(t, inGm_[k][off], TILE);
        else DataCopyPad(t, inGm_[k][off], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
        inQ_[k].EnQue(t);
      }
      Compute(n);
      for (int k = 0; k < 3; ++k) {
        LocalTensor<T> t = outQ_[k].template DeQue<T>();
        if (n == TILE) DataCopy(outGm_[k][off], t, TILE);
        else DataCopyPad(outGm_[k][off], t, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
        outQ_[k].FreeTensor(t);
      }
    }
  }

 private:
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> in[4], out[3];
    for (int k = 0; k < 4; ++k) in[k] = inQ_[k].template DeQue<T>();
    for (int k = 0; k < 3; ++k) out[k] = outQ_[k].template AllocTensor<T>();
    const int32_t c = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    if constexpr (sizeof(T) == sizeof(float)) {
      Update(in[0], in[1], in[2], in[3], out[0], out[1], out[2], c);
    } else {  // fp16/bf16: Cast the tiles to fp32, update in fp32, Cast the results back once
      LocalTensor<float> f = stage_.Get<float>();
      for (int k = 0; k < 4; ++k) Cast(f[k * TILE], in[k], RoundMode::CAST_NONE, c);
      Update(f, f[TILE], f[2 * TILE], f[3 * TILE], f[4 * TILE], f[5 * TILE], f[6 * TILE], c);
      for (int k = 0; k < 3; ++k) Cast(out[k], f[(4 + k) * TILE], RoundMode::CAST_RINT, c);
    }
    for (int k = 0; k < 3; ++k) outQ_[k].EnQue(out[k]);
    for (int k = 0; k < 4; ++k) inQ_[k].FreeTensor(in[k]);
  }
  // The update in fp32 on c elements: p, m, v, g in; po, mo, vo out.
  __aicore__ inline void Update(const LocalTensor<float>& p, const LocalTensor<float>& m, const LocalTensor<float>& v,
                                const LocalTensor<float>& g, const LocalTensor<float>& po, const LocalTensor<float>& mo,
                                const LocalTensor<float>& vo, int32_t c) {
    LocalTensor<float> t = tmp_.Get<float>(), u = t[TILE];
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
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_[4];
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_[3];
  TBuf<QuePosition::VECCALC> tmp_, stage_;
  GlobalTensor<T> inGm_[4], outGm_[3];
  uint64_t len_ = 0;
  AdamScalars s_;
};

extern "C" __global__ __aicore__ void apply_adam_w_custom(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR g, GM_ADDR varOut, GM_ADDR mOut,
                                                          GM_ADDR vOut, uint64_t total, uint64_t perCore, float decay, float b1,
                                                          float cb1, float b2, float cb2, float invBc2Sqrt, float stepSize, float eps,
                                                          int32_t dt) {
  const AdamScalars s{decay, b1, cb1, b2, cb2, invBc2Sqrt, stepSize, eps};
  if (dt == 1) {
    KernelAdamW<half> op;
    op.Init(var, m, v, g, varOut, mOut, vOut, total, perCore, s);
    op.Process();
  } else if (dt == 2) {
    KernelAdamW<bfloat16_t> op;
    op.Init(var, m, v, g, varOut, mOut, vOut, total, perCore, s);
    op.Process();
  } else {
    KernelAdamW<float> op;
    op.Init(var, m, v, g, varOut, mOut, vOut, total, perCore, s);
    op.Process();
  }
}

// All seven tensors fp32, fp16 or bf16 (dt 0, 1, 2), one dtype.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int dtype = a->inputs[0].dtype;
  const int32_t dt = dtype == KOPE_F32 ? 0 : dtype == KOPE_F16 ? 1 : dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0) return 1;
  for (int k = 0; k < 4; ++k)
    if (a->inputs[k].dtype != dtype) return 1;
  for (int k = 0; k < 3; ++k)
    if (a->outputs[k].dtype != dtype) return 1;
  const double lr = kope_attr_or(a, "lr", 1e-3), b1 = kope_attr_or(a, "beta1", 0.9), b2 = kope_attr_or(a, "beta2", 0.999);
  const double eps = kope_attr_or(a, "eps", 1e-8), wd = kope_attr_or(a, "weight_decay", 0.01), step = kope_attr_or(a, "step", 1);
  const float decay = (float)(1 - lr * wd), fb1 = (float)b1, cb1 = (float)(1 - b1), fb2 = (float)b2, cb2 = (float)(1 - b2);
  const float invBc2Sqrt = (float)(1 / sqrt(1 - pow(b2, step))), stepSize = (float)(lr / (1 - pow(b1, step))), feps = (float)eps;
  const uint64_t total = (uint64_t)a->inputs[0].numel;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 15) / 16 * 16;  // 32-byte slices for 2-byte types
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  GM_ADDR p = (GM_ADDR)a->inputs[0].data, m = (GM_ADDR)a->inputs[1].data, v = (GM_ADDR)a->inputs[2].data, g = (GM_ADDR)a->inputs[3].data;
  GM_ADDR po = (GM_ADDR)a->outputs[0].data, mo = (GM_ADDR)a->outputs[1].data, vo = (GM_ADDR)a->outputs[2].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(apply_adam_w_custom, blockDim, p, m, v, g, po, mo, vo, total, perCore, decay, fb1, cb1, fb2, cb2, invBc2Sqrt, stepSize, feps, dt);
#else
  apply_adam_w_custom<<<blockDim, nullptr, stream>>>(p, m, v, g, po, mo, vo, total, perCore, decay, fb1, cb1, fb2, cb2, invBc2Sqrt, stepSize, feps, dt);
#endif
  return 0;
}
