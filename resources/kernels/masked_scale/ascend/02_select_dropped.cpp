// thought: dropout zeroes the dropped lanes: compute x * scale once and Select it where the mask is set, 0 elsewhere (Compare + Select), no multiply by the mask at all.
// flaw: a dropped NaN or infinity must give NaN (x * 0 is NaN for them, as ATen computes x * mask * scale), but Select
// writes a clean 0 there.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 4096;     // elements per tile: 16 KB of x, 4 KB of mask, 16 KB of y, double-buffered
constexpr uint32_t VEC_ALIGN = 64;  // floats per 256-byte repeat (and a multiple of 32 one-byte mask elements)
constexpr uint32_t MAX_CORES = 40;

class KernelMaskedScale {
 public:
  __aicore__ inline KernelMaskedScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint64_t total, uint64_t perCore, float scale) {
    const uint64_t start = GetBlockIdx() * perCore;
    len_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
    scale_ = scale;
    xGm_.SetGlobalBuffer((__gm__ float*)x + start, len_);
    mGm_.SetGlobalBuffer((__gm__ uint8_t*)mask + start, len_);
    yGm_.SetGlobalBuffer((__gm__ float*)y + start, len_);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(mQ_, BUFFER_NUM, TILE * sizeof(uint8_t));
    pipe_.InitBuffer(yQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(tmp_, TILE * (sizeof(half) + sizeof(float)));  // the mask widened: u8 -> half -> float
    pipe_.InitBuffer(sel_, TILE / 8);
    pipe_.InitBuffer(zero_, TILE * sizeof(float));
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
    LocalTensor<float> x = xQ_.AllocTensor<float>();
    LocalTensor<uint8_t> mk = mQ_.AllocTensor<uint8_t>();
    if (n == TILE) {
      DataCopy(x, xGm_[off], TILE);
      DataCopy(mk, mGm_[off], TILE);
    } else {  // the tail: exact byte lengths, the UB side padded to 32 bytes
      DataCopyPad(x, xGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
      DataCopyPad(mk, mGm_[off], DataCopyExtParams{1, n, 0, 0, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    }
    xQ_.EnQue(x);
    mQ_.EnQue(mk);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> x = xQ_.DeQue<float>();
    LocalTensor<uint8_t> mk = mQ_.DeQue<uint8_t>();
    LocalTensor<float> y = yQ_.AllocTensor<float>();
    LocalTensor<float> mf = tmp_.Get<float>(TILE);
    LocalTensor<half> mh = tmp_.Get<half>()[TILE * 2];  // after the float part (byte offset 16 KB, aligned)
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    LocalTensor<uint8_t> keep = sel_.Get<uint8_t>();
    LocalTensor<float> zero = zero_.Get<float>();
    Cast(mh, mk, RoundMode::CAST_NONE, m);
    Cast(mf, mh, RoundMode::CAST_NONE, m);
    Duplicate(zero, 0.0f, m);
    Compare(keep, mf, zero, CMPMODE::NE, m);   // kept lanes
    Muls(mf, x, scale_, m);                    // x * scale
    Select(y, keep, mf, zero, SELMODE::VSEL_TENSOR_TENSOR_MODE, m);  // dropped lanes: 0
    yQ_.EnQue<float>(y);
    xQ_.FreeTensor(x);
    mQ_.FreeTensor(mk);
  }
  __aicore__ inline void CopyOut(uint64_t off, uint32_t n) {
    LocalTensor<float> y = yQ_.DeQue<float>();
    if (n == TILE) DataCopy(yGm_[off], y, TILE);
    else DataCopyPad(yGm_[off], y, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
    yQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, mQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
  TBuf<QuePosition::VECCALC> tmp_;
  TBuf<QuePosition::VECCALC> sel_, zero_;
  GlobalTensor<float> xGm_, yGm_;
  GlobalTensor<uint8_t> mGm_;
  uint64_t len_ = 0;
  float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void masked_scale_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint64_t total,
                                                          uint64_t perCore, float scale) {
  KernelMaskedScale op;
  op.Init(x, mask, y, total, perCore, scale);
  op.Process();
}

// Host-side tiling: shares are multiples of 32 elements, so both the float and the byte streams start 32-byte aligned.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  if (a->inputs[0].dtype != KOPE_F32 || a->inputs[1].dtype != KOPE_U8 || a->outputs[0].dtype != KOPE_F32) return 1;
  const uint64_t total = (uint64_t)a->inputs[0].numel;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 31) / 32 * 32;
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  const float scale = (float)kope_attr_or(a, "scale", 1.0);
  GM_ADDR x = (GM_ADDR)a->inputs[0].data, mask = (GM_ADDR)a->inputs[1].data, y = (GM_ADDR)a->outputs[0].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(masked_scale_custom, blockDim, x, mask, y, total, perCore, scale);
#else
  masked_scale_custom<<<blockDim, nullptr, stream>>>(x, mask, y, total, perCore, scale);
#endif
  return 0;
}
