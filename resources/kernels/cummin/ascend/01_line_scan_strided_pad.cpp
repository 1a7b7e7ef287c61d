// thought: a cumulative minimum is a sequential scan: split the (a, b) lines over the AI cores and scan each line on the scalar unit through the UB, chunk by chunk; a middle-dimension line (B > 1) moves with strided DataCopyPad, one element per 32-byte block; PyTorch's CPU rules: ties go to the latest index (x <= running min), and from the first NaN on the value is NaN with the latest NaN's index.
// thought: x and values are fp32, fp16 or bf16 (one dtype): the line moves in its own dtype, each element is widened to fp32 on the scalar unit (static_cast<float>, exact) for the comparisons, and the running minimum is written back as the input element itself, so values are exact copies in any dtype.
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
template <typename T> class KernelCummin {
 public:
  __aicore__ inline KernelCummin() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t A, uint64_t R, uint64_t B, uint64_t linesPerCore) {
    first_ = GetBlockIdx() * linesPerCore;
    lines_ = first_ >= A * B ? 0 : (A * B - first_ < linesPerCore ? A * B - first_ : linesPerCore);
    R_ = R, B_ = B;
    xGm_.SetGlobalBuffer((__gm__ T*)x, A * R * B);
    vGm_.SetGlobalBuffer((__gm__ T*)values, A * R * B);
    iGm_.SetGlobalBuffer((__gm__ int64_t*)indices, A * R * B);
    pipe_.InitBuffer(xb_, CH * 32);
    pipe_.InitBuffer(vb_, CH * 32);
    pipe_.InitBuffer(ib_, CH * 32);
  }
  __aicore__ inline void Process() {
    for (uint64_t l = first_; l < first_ + lines_; ++l) {
      const uint64_t base = (l / B_) * R_ * B_ + l % B_;
      float cur = 0.0f;  // the running minimum in fp32 (for the comparisons) and as the element itself (written out)
      T curRaw = T(0.0f);
      int64_t at = 0;
      for (uint64_t r0 = 0; r0 < R_; r0 += CH) {
        const uint32_t n = R_ - r0 < CH ? (uint32_t)(R_ - r0) : CH;
        LocalTensor<T> x = xb_.Get<T>(), v = vb_.Get<T>();
        LocalTensor<int64_t> ix = ib_.Get<int64_t>();
        const uint32_t sx = LoadLine(x, xGm_, base, r0, n, B_);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        const uint32_t si = B_ == 1 ? 1 : 4;
        for (uint32_t k = 0; k < n; ++k) {
          const T raw = x.GetValue(k * sx);
          const float e = static_cast<float>(raw);  // exact from fp16 and bf16
          const uint64_t r = r0 + k;
          if (r == 0 || (cur != cur ? e != e : (e != e || e <= cur))) {  // ties and NaNs: the latest index
            if (r == 0 || cur == cur) cur = e, curRaw = raw;  // a number never replaces a NaN
            at = (int64_t)r;
          }
          v.SetValue(k * sx, curRaw);
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
  GlobalTensor<T> xGm_, vGm_;
  GlobalTensor<int64_t> iGm_;
  uint64_t first_ = 0, lines_ = 0, R_ = 1, B_ = 1;
};

extern "C" __global__ __aicore__ void cummin_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t A, uint64_t R, uint64_t B,
                                                    uint64_t linesPerCore, int32_t dt) {
  if (dt == 1) {
    KernelCummin<half> op;
    op.Init(x, values, indices, A, R, B, linesPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelCummin<bfloat16_t> op;
    op.Init(x, values, indices, A, R, B, linesPerCore);
    op.Process();
  } else {
    KernelCummin<float> op;
    op.Init(x, values, indices, A, R, B, linesPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *v = &a->outputs[0], *ix = &a->outputs[1];
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;  // fp32, fp16, bf16
  if (dt < 0 || v->dtype != x->dtype || ix->dtype != KOPE_I64 || x->ndim != 3) return 1;
  const uint64_t A = (uint64_t)x->shape[0], R = (uint64_t)x->shape[1], B = (uint64_t)x->shape[2];
  if (A * R * B == 0) return 0;
  const uint32_t blockDim = A * B < MAX_CORES ? (uint32_t)(A * B) : MAX_CORES;
  const uint64_t linesPerCore = (A * B + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, pv = (GM_ADDR)v->data, pi = (GM_ADDR)ix->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(cummin_custom, blockDim, px, pv, pi, A, R, B, linesPerCore, dt);
#else
  cummin_custom<<<blockDim, nullptr, stream>>>(px, pv, pi, A, R, B, linesPerCore, dt);
#endif
  return 0;
}
