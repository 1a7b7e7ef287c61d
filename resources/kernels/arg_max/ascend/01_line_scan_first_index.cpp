// thought: argmax needs the first index of the maximum, which a vector ReduceMax does not promise on ties or NaN: split the (a, b) lines over the AI cores and scan each on the scalar unit through the UB (strided DataCopyPad for middle- dimension lines), keeping the first NaN, else the first strict maximum; indices gathered in the UB and written with DataCopyPad.
// thought: x is fp32, fp16 or bf16: the line moves in its own dtype and each element is widened to fp32 on the scalar unit (static_cast<float>, exact), so the comparisons are the fp32 path's.
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

// Lines (a, b) split over the cores; each line's maximum found on the scalar unit, chunk by chunk through the UB.
template <typename T> class KernelArgMax {
 public:
  __aicore__ inline KernelArgMax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out, uint64_t A, uint64_t R, uint64_t B, uint64_t linesPerCore) {
    first_ = GetBlockIdx() * linesPerCore;
    lines_ = first_ >= A * B ? 0 : (A * B - first_ < linesPerCore ? A * B - first_ : linesPerCore);
    R_ = R, B_ = B;
    xGm_.SetGlobalBuffer((__gm__ T*)x, A * R * B);
    oGm_.SetGlobalBuffer((__gm__ int64_t*)out + first_, lines_);
    pipe_.InitBuffer(xb_, CH * 32);
    pipe_.InitBuffer(ob_, 4096 * sizeof(int64_t));
  }
  __aicore__ inline void Process() {
    LocalTensor<int64_t> o = ob_.Get<int64_t>();
    for (uint64_t l0 = 0; l0 < lines_; l0 += 4096) {  // results gathered in the UB, written 4096 at a time
      const uint32_t m = lines_ - l0 < 4096 ? (uint32_t)(lines_ - l0) : 4096;
      for (uint32_t k = 0; k < m; ++k) o.SetValue(k, Line(first_ + l0 + k));
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(oGm_[l0], o, DataCopyExtParams{1, (uint32_t)(m * sizeof(int64_t)), 0, 0, 0});
      SetFlag<HardEvent::MTE3_S>(0);
      WaitFlag<HardEvent::MTE3_S>(0);
    }
  }

 private:
  __aicore__ inline int64_t Line(uint64_t l) {
    const uint64_t base = (l / B_) * R_ * B_ + l % B_;
    float best = 0.0f;
    int64_t at = 0;
    for (uint64_t r0 = 0; r0 < R_; r0 += CH) {
      const uint32_t n = R_ - r0 < CH ? (uint32_t)(R_ - r0) : CH;
      LocalTensor<T> x = xb_.Get<T>();
      const uint32_t sx = LoadLine(x, xGm_, base, r0, n, B_);
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      for (uint32_t k = 0; k < n; ++k) {
        const float e = static_cast<float>(x.GetValue(k * sx));  // exact from fp16 and bf16
        const uint64_t r = r0 + k;
        if (r == 0) {
          best = e;
        } else if (best == best && (e != e || e > best)) {  // the first NaN wins; ties keep the first index
          best = e;
          at = (int64_t)r;
        }
      }
      SetFlag<HardEvent::S_MTE2>(0);  // the next chunk may overwrite the buffer
      WaitFlag<HardEvent::S_MTE2>(0);
    }
    return at;
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> xb_, ob_;
  GlobalTensor<T> xGm_;
  GlobalTensor<int64_t> oGm_;
  uint64_t first_ = 0, lines_ = 0, R_ = 1, B_ = 1;
};

extern "C" __global__ __aicore__ void arg_max_custom(GM_ADDR x, GM_ADDR out, uint64_t A, uint64_t R, uint64_t B, uint64_t linesPerCore,
                                                     int32_t dt) {
  if (dt == 1) {
    KernelArgMax<half> op;
    op.Init(x, out, A, R, B, linesPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelArgMax<bfloat16_t> op;
    op.Init(x, out, A, R, B, linesPerCore);
    op.Process();
  } else {
    KernelArgMax<float> op;
    op.Init(x, out, A, R, B, linesPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *o = &a->outputs[0];
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;  // x fp32, fp16 or bf16
  if (dt < 0 || o->dtype != KOPE_I64 || x->ndim != 3) return 1;
  const uint64_t A = (uint64_t)x->shape[0], R = (uint64_t)x->shape[1], B = (uint64_t)x->shape[2];
  if (A * B == 0 || R == 0) return 0;
  const uint32_t blockDim = A * B < MAX_CORES ? (uint32_t)(A * B) : MAX_CORES;
  const uint64_t linesPerCore = (A * B + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(arg_max_custom, blockDim, px, po, A, R, B, linesPerCore, dt);
#else
  arg_max_custom<<<blockDim, nullptr, stream>>>(px, po, A, R, B, linesPerCore, dt);
#endif
  return 0;
}
