// thought: scatter-add writes only inside its own slab a, so split the slabs over the AI cores (no two cores touch one element, no atomics); per core, hold a chunk of the slab in the UB starting from self, add every update of the slab that lands in the chunk on the scalar unit, duplicates included, and write the chunk back with DataCopyPad.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CHUNK = 8192;    // floats of an output slab held in the UB at a time (32 KB)
constexpr uint32_t MAX_CORES = 40;

// out = self, then out[a, index[a, j, b], b] += src[a, j, b]. An update only touches its own slab a, so the
// slabs are split over the cores and no two cores ever add to the same element (no atomics needed). Each core
// holds a chunk of its slab in the UB, adds every update that lands in it on the scalar unit, and writes it back.
template <typename TI> class KernelScatterAdd {
 public:
  __aicore__ inline KernelScatterAdd() {}
  __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out, uint64_t A, uint64_t R, uint64_t J,
                              uint64_t B, uint64_t slabsPerCore) {
    first_ = GetBlockIdx() * slabsPerCore;
    slabs_ = first_ >= A ? 0 : (A - first_ < slabsPerCore ? A - first_ : slabsPerCore);
    R_ = R, J_ = J, B_ = B;
    sGm_.SetGlobalBuffer((__gm__ float*)self, A * R * B);
    oGm_.SetGlobalBuffer((__gm__ float*)out, A * R * B);
    uGm_.SetGlobalBuffer((__gm__ float*)src, A * J * B);
    iGm_.SetGlobalBuffer((__gm__ TI*)index, A * J * B);
    pipe_.InitBuffer(buf_, CHUNK * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint64_t slab = R_ * B_;
    for (uint64_t a = first_; a < first_ + slabs_; ++a)
      for (uint64_t c0 = 0; c0 < slab; c0 += CHUNK) {
        const uint32_t n = slab - c0 < CHUNK ? (uint32_t)(slab - c0) : CHUNK;
        LocalTensor<float> o = buf_.Get<float>();
        DataCopyPad(o, sGm_[a * slab + c0], DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});  // out starts as self
        SetFlag<HardEvent::MTE2_S>(0);  // the scalar unit adds into what MTE2 brought in
        WaitFlag<HardEvent::MTE2_S>(0);
        for (uint64_t u = 0; u < J_ * B_; ++u) {  // update (j, b) = (u / B, u % B) of slab a
          const uint64_t at = (uint64_t)iGm_.GetValue(a * J_ * B_ + u) * B_ + u % B_;
          if (at >= c0 && at < c0 + n) o.SetValue((uint32_t)(at - c0), o.GetValue((uint32_t)(at - c0)) + uGm_.GetValue(a * J_ * B_ + u));
        }
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopyPad(oGm_[a * slab + c0], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
        SetFlag<HardEvent::MTE3_MTE2>(0);  // the next chunk may not overwrite the buffer before it is written out
        WaitFlag<HardEvent::MTE3_MTE2>(0);
      }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> buf_;
  GlobalTensor<float> sGm_, oGm_, uGm_;
  GlobalTensor<TI> iGm_;
  uint64_t first_ = 0, slabs_ = 0, R_ = 1, J_ = 1, B_ = 1;
};

extern "C" __global__ __aicore__ void scatter_add_custom(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out, uint64_t A,
                                                         uint64_t R, uint64_t J, uint64_t B, uint64_t slabsPerCore, int32_t wideIndex) {
  if (wideIndex) {
    KernelScatterAdd<int64_t> op;
    op.Init(self, index, src, out, A, R, J, B, slabsPerCore);
    op.Process();
  } else {
    KernelScatterAdd<int32_t> op;
    op.Init(self, index, src, out, A, R, J, B, slabsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *s = &a->inputs[0], *ix = &a->inputs[1], *u = &a->inputs[2], *o = &a->outputs[0];
  if (s->dtype != KOPE_F32 || u->dtype != KOPE_F32 || o->dtype != KOPE_F32 || s->ndim != 3 || ix->ndim != 3) return 1;
  if (ix->dtype != KOPE_I64 && ix->dtype != KOPE_I32) return 1;
  const uint64_t A = (uint64_t)s->shape[0], R = (uint64_t)s->shape[1], B = (uint64_t)s->shape[2], J = (uint64_t)ix->shape[1];
  if (A * R * B == 0) return 0;
  const uint32_t blockDim = A < MAX_CORES ? (uint32_t)A : MAX_CORES;
  const uint64_t slabsPerCore = (A + blockDim - 1) / blockDim;
  const int32_t wideIndex = ix->dtype == KOPE_I64;
  GM_ADDR ps = (GM_ADDR)s->data, pi = (GM_ADDR)ix->data, pu = (GM_ADDR)u->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(scatter_add_custom, blockDim, ps, pi, pu, po, A, R, J, B, slabsPerCore, wideIndex);
#else
  scatter_add_custom<<<blockDim, nullptr, stream>>>(ps, pi, pu, po, A, R, J, B, slabsPerCore, wideIndex);
#endif
  return 0;
}
