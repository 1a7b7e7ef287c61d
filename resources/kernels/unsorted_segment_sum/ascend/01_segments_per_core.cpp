// thought: segment sums collide on the output when rows are split, so split the segments instead: each AI core owns a range of output rows, zeroes a chunk of them in the UB, scans all segment ids, adds the data rows that fall in its chunk on the scalar unit and writes the chunk out once; negative ids fall in no range, so their rows drop.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CHUNK = 8192;    // floats of output rows held in the UB at a time (32 KB)
constexpr uint32_t MAX_CORES = 40;

// out[s, :] = sum of data[n, :] over n with segment_ids[n] = s. The segments are split over the cores, so each
// output row has one owner and no atomics are needed: a core zeroes a chunk of its rows in the UB, scans every id,
// adds the rows that belong to the chunk on the scalar unit, and writes the chunk out. A negative id (or one past
// S) belongs to no core's range: its row is dropped, as TensorFlow drops negative ids.
template <typename TI> class KernelSegmentSum {
 public:
  __aicore__ inline KernelSegmentSum() {}
  __aicore__ inline void Init(GM_ADDR data, GM_ADDR ids, GM_ADDR out, uint64_t N, uint64_t S, uint64_t D, uint64_t segsPerCore) {
    first_ = GetBlockIdx() * segsPerCore;
    segs_ = first_ >= S ? 0 : (S - first_ < segsPerCore ? S - first_ : segsPerCore);
    N_ = N, D_ = D;
    xGm_.SetGlobalBuffer((__gm__ float*)data, N * D);
    iGm_.SetGlobalBuffer((__gm__ TI*)ids, N);
    oGm_.SetGlobalBuffer((__gm__ float*)out, S * D);
    pipe_.InitBuffer(buf_, CHUNK * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint64_t rowsPerChunk = CHUNK / D_;
    for (uint64_t s0 = first_; s0 < first_ + segs_; s0 += rowsPerChunk) {
      const uint64_t s1 = s0 + rowsPerChunk < first_ + segs_ ? s0 + rowsPerChunk : first_ + segs_;
      const uint32_t n = (uint32_t)((s1 - s0) * D_);
      LocalTensor<float> o = buf_.Get<float>();
      Duplicate(o, 0.0f, (int32_t)((n + 63) / 64 * 64));  // empty segments are 0
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint64_t r = 0; r < N_; ++r) {
        const int64_t id = (int64_t)iGm_.GetValue(r);
        if (id < (int64_t)s0 || id >= (int64_t)s1) continue;
        const uint32_t at = (uint32_t)(((uint64_t)id - s0) * D_);
        for (uint64_t d = 0; d < D_; ++d) o.SetValue(at + (uint32_t)d, o.GetValue(at + (uint32_t)d) + xGm_.GetValue(r * D_ + d));
      }
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(oGm_[s0 * D_], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
      SetFlag<HardEvent::MTE3_V>(0);
      WaitFlag<HardEvent::MTE3_V>(0);
    }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> buf_;
  GlobalTensor<float> xGm_, oGm_;
  GlobalTensor<TI> iGm_;
  uint64_t first_ = 0, segs_ = 0, N_ = 0, D_ = 1;
};

extern "C" __global__ __aicore__ void segment_sum_custom(GM_ADDR data, GM_ADDR ids, GM_ADDR out, uint64_t N, uint64_t S,
                                                         uint64_t D, uint64_t perCore, int32_t wideIds) {
  if (wideIds) {
    KernelSegmentSum<int64_t> op;
    op.Init(data, ids, out, N, S, D, perCore);
    op.Process();
  } else {
    KernelSegmentSum<int32_t> op;
    op.Init(data, ids, out, N, S, D, perCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *ids = &a->inputs[1], *o = &a->outputs[0];
  if (x->dtype != KOPE_F32 || o->dtype != KOPE_F32 || (ids->dtype != KOPE_I32 && ids->dtype != KOPE_I64)) return 1;
  const uint64_t N = (uint64_t)ids->numel, S = (uint64_t)o->shape[0], D = o->ndim > 1 ? (uint64_t)o->shape[1] : 1;
  if (S * D == 0) return 0;
  if (D > CHUNK) return 1;  // a row of the output must fit the UB chunk
  const uint32_t blockDim = S < MAX_CORES ? (uint32_t)S : MAX_CORES;  // segments per core
  const uint64_t perCore = (S + blockDim - 1) / blockDim;
  const int32_t wideIds = ids->dtype == KOPE_I64;
  GM_ADDR px = (GM_ADDR)x->data, pi = (GM_ADDR)ids->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(segment_sum_custom, blockDim, px, pi, po, N, S, D, perCore, wideIds);
#else
  segment_sum_custom<<<blockDim, nullptr, stream>>>(px, pi, po, N, S, D, perCore, wideIds);
#endif
  return 0;
}
