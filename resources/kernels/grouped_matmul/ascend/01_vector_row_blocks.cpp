// thought: the grouped matmul cut into work items (a group's block of up to 16 rows x 256 columns) dealt round-robin to the AI cores, so empty and full groups balance; per item an fp32 accumulator tile in the UB starts from the bias, and 32-row tiles of weight[g] (one strided DataCopyPad each) stream through a double-buffered queue with the next tile's copy issued before the current one is used: acc[m] += x[m, k] * w[k] on the vector unit (Muls + Add over 256 lanes), each weight row used by all 16 rows; rows past the counts' sum are zeroed.
// thought: fp32, fp16 and bf16 (x, weight, bias and y of one dtype): 2-byte tiles are Cast to fp32 in the UB (CAST_NONE), x values read as scalars and widened, all accumulation in fp32, one CAST_RINT back to the dtype on the way out.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
// The vector unit, not the Cube: the CPU twin's AscendC has no Mmad/Fixpipe, so this kernel stays on the API it checks.
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MB = 16;   // rows of an item
constexpr uint32_t KB = 32;   // weight rows of a tile
constexpr uint32_t NT = 256;  // columns of an item (a multiple of 16: rows stay 32-byte aligned in fp32, fp16 and bf16)
constexpr uint32_t ZT = 8192; // bytes of the zero tile
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// y[start_g + i, n] = bias[g, n] + sum_k x[start_g + i, k] * weight[g, k, n], rows S.. of y are 0.
template <typename T> class KernelGroupedMatmul {
 public:
  __aicore__ inline KernelGroupedMatmul() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR groups, GM_ADDR y, uint64_t M, uint64_t K,
                              uint64_t N, uint32_t G) {
    M_ = M, K_ = K, N_ = N, G_ = G;
    xGm_.SetGlobalBuffer((__gm__ T*)x, M * K);
    wGm_.SetGlobalBuffer((__gm__ T*)w, (uint64_t)G * K * N);
    bGm_.SetGlobalBuffer((__gm__ T*)bias, (uint64_t)G * N);
    gGm_.SetGlobalBuffer((__gm__ int64_t*)groups, G);
    yGm_.SetGlobalBuffer((__gm__ T*)y, M * N);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, MB * RoundUp(KB * sizeof(T), 32));
    pipe_.InitBuffer(wQ_, BUFFER_NUM, KB * NT * sizeof(T));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, MB * NT * sizeof(T));
    pipe_.InitBuffer(bQ_, 1, NT * sizeof(T));
    pipe_.InitBuffer(wf_, KB * NT * sizeof(float));
    pipe_.InitBuffer(acc_, MB * NT * sizeof(float));
    pipe_.InitBuffer(bf_, NT * sizeof(float));
    pipe_.InitBuffer(tmp_, NT * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint64_t chunks = (N_ + NT - 1) / NT;
    uint64_t start = 0, item = 0;
    const uint64_t me = GetBlockIdx(), cores = GetBlockNum();
    for (uint32_t g = 0; g < G_; ++g) {
      const uint64_t cnt = (uint64_t)gGm_.GetValue(g);
      for (uint64_t m0 = 0; m0 < cnt; m0 += MB)
        for (uint64_t c = 0; c < chunks; ++c, ++item)
          if (item % cores == me) {
            const uint32_t mr = cnt - m0 < MB ? (uint32_t)(cnt - m0) : MB;
            const uint32_t nt = N_ - c * NT < NT ? (uint32_t)(N_ - c * NT) : NT;
            Item(g, start + m0, mr, c * NT, nt);
          }
      start += cnt;
    }
    ZeroRows(start);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t g, uint64_t row, uint32_t mr, uint64_t n0, uint32_t nt, uint64_t k0, uint32_t kb) {
    const uint32_t ntp = RoundUp(nt, 16);
    LocalTensor<T> xt = xQ_.template AllocTensor<T>();
    DataCopyPad(xt, xGm_[row * K_ + k0],
                DataCopyExtParams{(uint16_t)mr, (uint32_t)(kb * sizeof(T)), (uint32_t)((K_ - kb) * sizeof(T)), 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    xQ_.EnQue(xt);
    LocalTensor<T> wt = wQ_.template AllocTensor<T>();
    const uint32_t gap = (ntp * sizeof(T) - RoundUp(nt * sizeof(T), 32)) / 32;
    DataCopyPad(wt, wGm_[((uint64_t)g * K_ + k0) * N_ + n0],
                DataCopyExtParams{(uint16_t)kb, (uint32_t)(nt * sizeof(T)), (uint32_t)((N_ - nt) * sizeof(T)), gap, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    wQ_.EnQue(wt);
  }
  __aicore__ inline void Item(uint32_t g, uint64_t row, uint32_t mr, uint64_t n0, uint32_t nt) {
    const uint32_t ntp = RoundUp(nt, 16);
    LocalTensor<float> acc = acc_.Get<float>(), bf = bf_.Get<float>(), tmp = tmp_.Get<float>(), wf = wf_.Get<float>();
    // the bias chunk, once per item: every row's accumulator starts from it
    LocalTensor<T> bt = bQ_.template AllocTensor<T>();
    DataCopyPad(bt, bGm_[(uint64_t)g * N_ + n0], DataCopyExtParams{1, (uint32_t)(nt * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    bQ_.EnQue(bt);
    bt = bQ_.template DeQue<T>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(bf, bt.template ReinterpretCast<float>(), ntp);
    else Cast(bf, bt, RoundMode::CAST_NONE, ntp);
    PipeBarrier<PIPE_V>();
    bQ_.FreeTensor(bt);
    for (uint32_t m = 0; m < mr; ++m) DataCopy(acc[m * ntp], bf, ntp);
    PipeBarrier<PIPE_V>();
    const uint64_t tiles = (K_ + KB - 1) / KB;
    CopyIn(g, row, mr, n0, nt, 0, K_ < KB ? (uint32_t)K_ : KB);
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t k0 = t * KB;
      const uint32_t kb = K_ - k0 < KB ? (uint32_t)(K_ - k0) : KB;
      if (t + 1 < tiles) {
        const uint64_t k1 = k0 + KB;
        CopyIn(g, row, mr, n0, nt, k1, K_ - k1 < KB ? (uint32_t)(K_ - k1) : KB);
      }
      LocalTensor<T> xt = xQ_.template DeQue<T>(), wt = wQ_.template DeQue<T>();
      LocalTensor<float> w = wf;
      if constexpr (sizeof(T) == sizeof(float)) w = wt.template ReinterpretCast<float>();
      else Cast(wf, wt, RoundMode::CAST_NONE, kb * ntp);
      PipeBarrier<PIPE_V>();
      const uint32_t xstride = RoundUp(kb * sizeof(T), 32) / sizeof(T);  // x tile rows, padded to 32 bytes
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < mr; ++m)
        for (uint32_t k = 0; k < kb; ++k) {
          const float xv = (float)xt.GetValue(m * xstride + k);
          Muls(tmp, w[k * ntp], xv, nt);
          PipeBarrier<PIPE_V>();
          Add(acc[m * ntp], acc[m * ntp], tmp, nt);
          PipeBarrier<PIPE_V>();
        }
      xQ_.FreeTensor(xt);
      wQ_.FreeTensor(wt);
    }
    LocalTensor<T> o = oQ_.template AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(o.template ReinterpretCast<float>(), acc, mr * ntp);
    else Cast(o, acc, RoundMode::CAST_RINT, mr * ntp);
    oQ_.EnQue(o);
    o = oQ_.template DeQue<T>();
    const uint32_t gap = (ntp * sizeof(T) - RoundUp(nt * sizeof(T), 32)) / 32;
    DataCopyPad(yGm_[row * N_ + n0], o,
                DataCopyExtParams{(uint16_t)mr, (uint32_t)(nt * sizeof(T)), gap, (uint32_t)((N_ - nt) * sizeof(T)), 0});
    oQ_.FreeTensor(o);
  }
  // rows S.. of y: this core's share of the bytes, from a zero tile
  __aicore__ inline void ZeroRows(uint64_t S) {
    if (S >= M_) return;
    const uint64_t total = (M_ - S) * N_, cores = GetBlockNum();
    const uint64_t per = (total + cores - 1) / cores, from = GetBlockIdx() * per;
    if (from >= total) return;
    const uint64_t n = total - from < per ? total - from : per;
    LocalTensor<T> z = oQ_.template AllocTensor<T>();
    Duplicate(z.template ReinterpretCast<int32_t>(), (int32_t)0, (int32_t)(ZT / 4));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    const uint64_t step = ZT / sizeof(T);
    for (uint64_t i = 0; i < n; i += step) {
      const uint32_t len = n - i < step ? (uint32_t)(n - i) : (uint32_t)step;
      DataCopyPad(yGm_[S * N_ + from + i], z, DataCopyExtParams{1, (uint32_t)(len * sizeof(T)), 0, 0, 0});
    }
    oQ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, wQ_;
  TQue<QuePosition::VECIN, 1> bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  TBuf<QuePosition::VECCALC> wf_, acc_, bf_, tmp_;
  GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
  GlobalTensor<int64_t> gGm_;
  uint64_t M_ = 0, K_ = 0, N_ = 0;
  uint32_t G_ = 0;
};

template <typename T>
__aicore__ inline void RunGroupedMatmul(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR groups, GM_ADDR y, uint64_t M, uint64_t K,
                                        uint64_t N, uint32_t G) {
  KernelGroupedMatmul<T> op;
  op.Init(x, w, bias, groups, y, M, K, N, G);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (x, weight, bias and y share it).
extern "C" __global__ __aicore__ void grouped_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR groups, GM_ADDR y,
                                                            uint64_t M, uint64_t K, uint64_t N, uint32_t G, int32_t dt) {
  if (dt == 1) RunGroupedMatmul<half>(x, w, bias, groups, y, M, K, N, G);
  else if (dt == 2) RunGroupedMatmul<bfloat16_t>(x, w, bias, groups, y, M, K, N, G);
  else RunGroupedMatmul<float>(x, w, bias, groups, y, M, K, N, G);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *w = &a->inputs[1], *b = &a->inputs[2], *g = &a->inputs[3], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || w->dtype != x->dtype ||
      b->dtype != x->dtype || y->dtype != x->dtype || g->dtype != KOPE_I64 || x->ndim != 2 || w->ndim != 3)
    return 1;
  const uint64_t M = (uint64_t)x->shape[0], K = (uint64_t)x->shape[1], N = (uint64_t)w->shape[2];
  const uint32_t G = (uint32_t)w->shape[0];
  if (M == 0 || N == 0) return 0;
  if (K == 0) return 1;
  // items: about (M / MB + G) * ceil(N / NT); the cores take them round-robin
  const uint64_t items = (M / MB + G) * ((N + NT - 1) / NT);
  const uint32_t blockDim = items < MAX_CORES ? (uint32_t)items : MAX_CORES;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;
  GM_ADDR px = (GM_ADDR)x->data, pw = (GM_ADDR)w->data, pb = (GM_ADDR)b->data, pg = (GM_ADDR)g->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(grouped_matmul_custom, blockDim, px, pw, pb, pg, py, M, K, N, G, dt);
#else
  grouped_matmul_custom<<<blockDim, nullptr, stream>>>(px, pw, pb, pg, py, M, K, N, G, dt);
#endif
  return 0;
}
