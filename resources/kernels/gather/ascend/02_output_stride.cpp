// thought: the same indexed copy, with the slab offset of a computed once from the output's layout [A, J, B], which index shares.
// flaw: x is [A, R, B], not [A, J, B]: slab a of x starts at a * R * B, so for a > 0 and J != R every read lands in the
// wrong slab (or past the end of x).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 2048;     // output elements per tile
constexpr uint32_t MAX_CORES = 40;

// out[a, j, b] = x[a, index[a, j, b], b]: a copy of raw bits (T is uint32_t or uint16_t: NaN payloads and
// denormals come out exactly), TI the index type. Output positions are split over the cores; the index tile
// streams into the UB, and each element is one scalar read of x in GM.
template <typename T, typename TI> class KernelGather {
 public:
  __aicore__ inline KernelGather() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR out, uint64_t A, uint64_t R, uint64_t J, uint64_t B,
                              uint64_t perCore) {
    const uint64_t total = A * J * B;
    start_ = GetBlockIdx() * perCore;
    len_ = start_ >= total ? 0 : (total - start_ < perCore ? total - start_ : perCore);
    R_ = R, J_ = J, B_ = B;
    xGm_.SetGlobalBuffer((__gm__ T*)x, A * R * B);
    iGm_.SetGlobalBuffer((__gm__ TI*)index + start_, len_);
    oGm_.SetGlobalBuffer((__gm__ T*)out + start_, len_);
    pipe_.InitBuffer(iQ_, BUFFER_NUM, TILE * sizeof(TI));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, TILE * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint64_t off = 0; off < len_; off += TILE) {
      const uint32_t n = len_ - off < TILE ? (uint32_t)(len_ - off) : TILE;
      LocalTensor<TI> idx = iQ_.template AllocTensor<TI>();
      DataCopyPad(idx, iGm_[off], DataCopyExtParams{1, (uint32_t)(n * sizeof(TI)), 0, 0, 0}, DataCopyPadExtParams<TI>{false, 0, 0, 0});
      iQ_.EnQue(idx);
      idx = iQ_.template DeQue<TI>();
      LocalTensor<T> o = oQ_.template AllocTensor<T>();
      for (uint32_t i = 0; i < n; ++i) {
        const uint64_t p = start_ + off + i;  // = (a * J + j) * B + b
        const uint64_t b = p % B_, a = p / B_ / J_;
        const uint64_t r = (uint64_t)idx.GetValue(i);
        o.SetValue(i, xGm_.GetValue((a * J_ + r) * B_ + b));  // the slab of a: the output's stride
      }
      oQ_.EnQue(o);
      iQ_.FreeTensor(idx);
      o = oQ_.template DeQue<T>();
      DataCopyPad(oGm_[off], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
      oQ_.FreeTensor(o);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> iQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  GlobalTensor<T> xGm_, oGm_;
  GlobalTensor<TI> iGm_;
  uint64_t start_ = 0, len_ = 0, R_ = 1, J_ = 1, B_ = 1;
};

template <typename T, typename TI>
__aicore__ inline void RunGather(GM_ADDR x, GM_ADDR index, GM_ADDR out, uint64_t A, uint64_t R, uint64_t J, uint64_t B, uint64_t perCore) {
  KernelGather<T, TI> op;
  op.Init(x, index, out, A, R, J, B, perCore);
  op.Process();
}

extern "C" __global__ __aicore__ void gather_custom(GM_ADDR x, GM_ADDR index, GM_ADDR out, uint64_t A, uint64_t R, uint64_t J,
                                                    uint64_t B, uint64_t perCore, int32_t wideValue, int32_t wideIndex) {
  if (wideValue && wideIndex) RunGather<uint32_t, int64_t>(x, index, out, A, R, J, B, perCore);
  else if (wideValue) RunGather<uint32_t, int32_t>(x, index, out, A, R, J, B, perCore);
  else if (wideIndex) RunGather<uint16_t, int64_t>(x, index, out, A, R, J, B, perCore);
  else RunGather<uint16_t, int32_t>(x, index, out, A, R, J, B, perCore);
}

// x is [A, R, B] and index [A, J, B] (ndim 3 as the task views them; other ranks fold into that view).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *ix = &a->inputs[1], *o = &a->outputs[0];
  if (x->ndim != 3 || ix->ndim != 3 || (ix->dtype != KOPE_I64 && ix->dtype != KOPE_I32) || x->dtype != o->dtype) return 1;
  const int32_t vsize = x->dtype == KOPE_F32 ? 4 : (x->dtype == KOPE_F16 || x->dtype == KOPE_BF16) ? 2 : 0;
  if (vsize == 0) return 1;
  const uint64_t A = (uint64_t)x->shape[0], R = (uint64_t)x->shape[1], B = (uint64_t)x->shape[2], J = (uint64_t)ix->shape[1];
  const uint64_t total = A * J * B;
  if (total == 0) return 0;
  const uint64_t perCore = ((total + MAX_CORES - 1) / MAX_CORES + 15) / 16 * 16;  // 32-byte aligned for 2-byte values
  const uint32_t blockDim = (uint32_t)((total + perCore - 1) / perCore);
  const int32_t wideValue = vsize == 4, wideIndex = ix->dtype == KOPE_I64;
  GM_ADDR px = (GM_ADDR)x->data, pi = (GM_ADDR)ix->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gather_custom, blockDim, px, pi, po, A, R, J, B, perCore, wideValue, wideIndex);
#else
  gather_custom<<<blockDim, nullptr, stream>>>(px, pi, po, A, R, J, B, perCore, wideValue, wideIndex);
#endif
  return 0;
}
