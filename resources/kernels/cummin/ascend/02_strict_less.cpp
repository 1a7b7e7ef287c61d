// thought: scan each (a, b) line on the scalar unit through the UB, strided DataCopyPad for middle-dimension lines; a new minimum replaces the running one, a NaN sticks.
// flaw: with a strict < an equal value does not move the index, so ties (-0 beside 0, the repeated small integers of the
// tie cases) keep the earliest index where PyTorch's CPU cummin gives the latest (x <= running min).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 1024;       // line elements per chunk; strided lines take one 32-byte UB block per element
constexpr uint32_t MAX_CORES = 40;

// Elements base + r * B, r in [r0, r0 + n), of a [A, R, B] tensor into the UB: one contiguous DataCopyPad when
// B = 1, else one 1-element block per element (srcStride skips the other B - 1), each landing in its own 32-byte
// UB block. Returns the UB stride between elements.
template <typename T>
__aicore__ inline uint32_t LoadLine(const LocalTensor<T>& dst, const GlobalTensor<T>& g, uint64_t base, uint64_t r0, uint32_t n, uint64_t B) {
  if (B == 1) {
    DataCopyPad(dst, g[base + r0], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    return 1;
  }
  DataCopyPad(dst, g[base + r0 * B], DataCopyExtParams{(uint16_t)n, (uint32_t)sizeof(T), (uint32_t)((B - 1) * sizeof(T)), 0, 0},
              DataCopyPadExtParams<T>{false, 0, 0, (T)0});
  return 32 / sizeof(T);
}
template <typename T>
__aicore__ inline void StoreLine(const GlobalTensor<T>& g, const LocalTensor<T>& src, uint64_t base, uint64_t r0, uint32_t n, uint64_t B) {
  if (B == 1) DataCopyPad(g[base + r0], src, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
  else DataCopyPad(g[base + r0 * B], src, DataCopyExtParams{(uint16_t)n, (uint32_t)sizeof(T), 0, (uint32_t)((B - 1) * sizeof(T)), 0});
}

// Lines (a, b) split over the cores; each line scanned over R on the scalar unit, chunk by chunk through the UB.
class KernelCummin {
 public:
  __aicore__ inline KernelCummin() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t A, uint64_t R, uint64_t B, uint64_t linesPerCore) {
    first_ = GetBlockIdx() * linesPerCore;
    lines_ = first_ >= A * B ? 0 : (A * B - first_ < linesPerCore ? A * B - first_ : linesPerCore);
    R_ = R, B_ = B;
    xGm_.SetGlobalBuffer((__gm__ float*)x, A * R * B);
    vGm_.SetGlobalBuffer((__gm__ float*)values, A * R * B);
    iGm_.SetGlobalBuffer((__gm__ int64_t*)indices, A * R * B);
    pipe_.InitBuffer(xb_, CH * 32);
    pipe_.InitBuffer(vb_, CH * 32);
    pipe_.InitBuffer(ib_, CH * 32);
  }
  __aicore__ inline void Process() {
    for (uint64_t l = first_; l < first_ + lines_; ++l) {
      const uint64_t base = (l / B_) * R_ * B_ + l % B_;
      float cur = 0.0f;
      int64_t at = 0;
      for (uint64_t r0 = 0; r0 < R_; r0 += CH) {
        const uint32_t n = R_ - r0 < CH ? (uint32_t)(R_ - r0) : CH;
        LocalTensor<float> x = xb_.Get<float>(), v = vb_.Get<float>();
        LocalTensor<int64_t> ix = ib_.Get<int64_t>();
        const uint32_t sx = LoadLine(x, xGm_, base, r0, n, B_);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        const uint32_t si = B_ == 1 ? 1 : 4;
        for (uint32_t k = 0; k < n; ++k) {
          const float e = x.GetValue(k * sx);
          const uint64_t r = r0 + k;
          if (r == 0 || e < cur || e != e) {  // a new minimum (NaN sticks)
            cur = e;
            at = (int64_t)r;
          }
          v.SetValue(k * sx, cur);
          ix.SetValue(k * si, at);
        }
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        StoreLine(vGm_, v, base, r0, n, B_);
        StoreLine(iGm_, ix, base, r0, n, B_);
        SetFlag<HardEvent::MTE3_MTE2>(0);  // the buffers are reused by the next chunk
        WaitFlag<HardEvent::MTE3_MTE2>(0);
      }
    }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> xb_, vb_, ib_;
  GlobalTensor<float> xGm_, vGm_;
  GlobalTensor<int64_t> iGm_;
  uint64_t first_ = 0, lines_ = 0, R_ = 1, B_ = 1;
};

extern "C" __global__ __aicore__ void cummin_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t A, uint64_t R, uint64_t B,
                                                    uint64_t linesPerCore) {
  KernelCummin op;
  op.Init(x, values, indices, A, R, B, linesPerCore);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *v = &a->outputs[0], *ix = &a->outputs[1];
  if (x->dtype != KOPE_F32 || v->dtype != KOPE_F32 || ix->dtype != KOPE_I64 || x->ndim != 3) return 1;
  const uint64_t A = (uint64_t)x->shape[0], R = (uint64_t)x->shape[1], B = (uint64_t)x->shape[2];
  if (A * R * B == 0) return 0;
  const uint32_t blockDim = A * B < MAX_CORES ? (uint32_t)(A * B) : MAX_CORES;
  const uint64_t linesPerCore = (A * B + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, pv = (GM_ADDR)v->data, pi = (GM_ADDR)ix->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(cummin_custom, blockDim, px, pv, pi, A, R, B, linesPerCore);
#else
  cummin_custom<<<blockDim, nullptr, stream>>>(px, pv, pi, A, R, B, linesPerCore);
#endif
  return 0;
}
