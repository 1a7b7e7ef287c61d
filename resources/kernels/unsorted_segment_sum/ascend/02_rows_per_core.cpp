// thought: split the data rows over the AI cores, the natural parallel axis: every core zeroes the output, then adds each of its rows into its segment in GM.
// flaw: a reduction across blocks without combining: every core zeroes the whole output before adding, so each core
// erases what the cores before it added (on a board they race); only one core's rows survive.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CHUNK = 8192;
constexpr uint32_t MAX_CORES = 40;

// Rows of data split over the cores: each core zeroes the output, then adds its rows into their segments.
template <typename TI> class KernelSegmentSum {
 public:
  __aicore__ inline KernelSegmentSum() {}
  __aicore__ inline void Init(GM_ADDR data, GM_ADDR ids, GM_ADDR out, uint64_t N, uint64_t S, uint64_t D, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= N ? 0 : (N - first_ < rowsPerCore ? N - first_ : rowsPerCore);
    S_ = S, D_ = D;
    xGm_.SetGlobalBuffer((__gm__ float*)data, N * D);
    iGm_.SetGlobalBuffer((__gm__ TI*)ids, N);
    oGm_.SetGlobalBuffer((__gm__ float*)out, S * D);
    pipe_.InitBuffer(buf_, CHUNK * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> z = buf_.Get<float>();
    Duplicate(z, 0.0f, CHUNK);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    for (uint64_t c = 0; c < S_ * D_; c += CHUNK) {  // zero the output
      const uint32_t n = S_ * D_ - c < CHUNK ? (uint32_t)(S_ * D_ - c) : CHUNK;
      DataCopyPad(oGm_[c], z, DataCopyExtParams{1, (uint32_t)(n * sizeof(float)), 0, 0, 0});
    }
    PipeBarrier<PIPE_ALL>();
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      const int64_t id = (int64_t)iGm_.GetValue(r);
      if (id < 0 || (uint64_t)id >= S_) continue;  // negative ids drop their rows
      for (uint64_t d = 0; d < D_; ++d) oGm_.SetValue(id * D_ + d, oGm_.GetValue(id * D_ + d) + xGm_.GetValue(r * D_ + d));
    }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> buf_;
  GlobalTensor<float> xGm_, oGm_;
  GlobalTensor<TI> iGm_;
  uint64_t first_ = 0, rows_ = 0, S_ = 1, D_ = 1;
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
  const uint32_t blockDim = N < MAX_CORES ? (N == 0 ? 1 : (uint32_t)N) : MAX_CORES;  // data rows per core
  const uint64_t perCore = N == 0 ? 1 : (N + blockDim - 1) / blockDim;
  const int32_t wideIds = ids->dtype == KOPE_I64;
  GM_ADDR px = (GM_ADDR)x->data, pi = (GM_ADDR)ids->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(segment_sum_custom, blockDim, px, pi, po, N, S, D, perCore, wideIds);
#else
  segment_sum_custom<<<blockDim, nullptr, stream>>>(px, pi, po, N, S, D, perCore, wideIds);
#endif
  return 0;
}
