// thought: gating rows are short (E logits), so each AI core copies a tile of many rows in one DataCopyPad (each row padded to 32 bytes in the UB), then per row: ReduceMax, Adds(-max), Exp, ReduceSum for the softmax denominator, and K rounds of ReduceMax with its index over the probabilities, the winner overwritten with -1 (below every probability, so -inf logits, whose weight is 0, still come after the others and no expert repeats); y = p / sum on the scalar unit; the row's K outputs go out in one copy per tile.
// thought: fp32, fp16 and bf16 logits (y in the same dtype): a 2-byte tile is Cast to fp32 in the UB (CAST_NONE) and the whole softmax and top-k run in fp32; each weight is rounded once (to nearest even) as it is stored into the fp16 or bf16 output tile.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_FLOATS = 8192;  // a row tile in fp32: RB rows of Ep floats
constexpr uint32_t MAX_E = 4096;
constexpr uint32_t MAX_K = 64;
constexpr uint32_t MAX_CORES = 40;

template <typename T> class KernelGatingTopK {
 public:
  __aicore__ inline KernelGatingTopK() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR expert, GM_ADDR row, uint64_t T_, uint32_t E, uint32_t K,
                              uint32_t Ep, uint32_t RB, uint64_t rowsPerCore) {
    Tn_ = T_, E_ = E, K_ = K, Ep_ = Ep, RB_ = RB;
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= T_ ? 0 : (T_ - first_ < rowsPerCore ? T_ - first_ : rowsPerCore);
    xGm_.SetGlobalBuffer((__gm__ T*)x, T_ * E);
    yGm_.SetGlobalBuffer((__gm__ T*)y, T_ * K);
    eGm_.SetGlobalBuffer((__gm__ int32_t*)expert, T_ * K);
    rGm_.SetGlobalBuffer((__gm__ int32_t*)row, T_ * K);
    const uint32_t outLen = (RB * K + 7) / 8 * 8;
    pipe_.InitBuffer(xQ_, BUFFER_NUM, RB * Ep * sizeof(T));
    pipe_.InitBuffer(yQ_, BUFFER_NUM, outLen * sizeof(T) + 32);
    pipe_.InitBuffer(eQ_, BUFFER_NUM, outLen * sizeof(int32_t));
    pipe_.InitBuffer(rQ_, BUFFER_NUM, outLen * sizeof(int32_t));
    pipe_.InitBuffer(f_, RB * Ep * sizeof(float));
    pipe_.InitBuffer(w_, (Ep + 64) * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    if (rows_ == 0) return;
    const uint64_t tiles = (rows_ + RB_ - 1) / RB_;
    CopyIn(0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(i + 1);  // the next tile's copy goes out before this one is computed
      Compute(i);
    }
  }

 private:
  __aicore__ inline uint32_t Rows(uint64_t i) const {
    const uint64_t left = rows_ - i * RB_;
    return left < RB_ ? (uint32_t)left : RB_;
  }
  __aicore__ inline void CopyIn(uint64_t i) {
    LocalTensor<T> x = xQ_.template AllocTensor<T>();
    const uint32_t rb = Rows(i);
    // rb rows of E elements, each padded to Ep in the UB
    DataCopyPad(x, xGm_[(first_ + i * RB_) * E_], DataCopyExtParams{(uint16_t)rb, (uint32_t)(E_ * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    xQ_.EnQue(x);
  }
  __aicore__ inline void Compute(uint64_t i) {
    const uint32_t rb = Rows(i);
    const uint64_t t0 = first_ + i * RB_;
    LocalTensor<T> x = xQ_.template DeQue<T>();
    LocalTensor<float> f = f_.Get<float>(), w = w_.Get<float>(), s = s_.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(f, x.template ReinterpretCast<float>(), rb * Ep_);
    else Cast(f, x, RoundMode::CAST_NONE, rb * Ep_);
    PipeBarrier<PIPE_V>();
    xQ_.FreeTensor(x);
    LocalTensor<T> y = yQ_.template AllocTensor<T>();
    LocalTensor<int32_t> ex = eQ_.template AllocTensor<int32_t>(), rw = rQ_.template AllocTensor<int32_t>();
    for (uint32_t r = 0; r < rb; ++r) {
      LocalTensor<float> p = f[r * Ep_];
      ReduceMax(s, p, w, (int32_t)E_);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      const float mx = s.GetValue(0);
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      Adds(p, p, -mx, (int32_t)E_);
      PipeBarrier<PIPE_V>();
      Exp(p, p, (int32_t)E_);
      PipeBarrier<PIPE_V>();
      ReduceSum(s, p, w, (int32_t)E_);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      const float sum = s.GetValue(0);
      for (uint32_t k = 0; k < K_; ++k) {
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        ReduceMax(s, p, w, (int32_t)E_, true);  // the largest probability and its index (first of equals)
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float v = s.GetValue(0);
        const uint32_t idx = s.template ReinterpretCast<uint32_t>().GetValue(1);  // the index's bits
        p.SetValue(idx, -1.0f);  // taken: below every probability
        y.SetValue(r * K_ + k, (T)(v / sum));
        ex.SetValue(r * K_ + k, (int32_t)idx);
        rw.SetValue(r * K_ + k, (int32_t)((uint64_t)k * Tn_ + t0 + r));
      }
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    yQ_.EnQue(y);
    eQ_.EnQue(ex);
    rQ_.EnQue(rw);
    y = yQ_.template DeQue<T>();
    ex = eQ_.template DeQue<int32_t>();
    rw = rQ_.template DeQue<int32_t>();
    const uint32_t n = rb * K_;
    DataCopyPad(yGm_[t0 * K_], y, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    DataCopyPad(eGm_[t0 * K_], ex, DataCopyExtParams{1, (uint32_t)(n * sizeof(int32_t)), 0, 0, 0});
    DataCopyPad(rGm_[t0 * K_], rw, DataCopyExtParams{1, (uint32_t)(n * sizeof(int32_t)), 0, 0, 0});
    yQ_.FreeTensor(y);
    eQ_.FreeTensor(ex);
    rQ_.FreeTensor(rw);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_, eQ_, rQ_;
  TBuf<QuePosition::VECCALC> f_, w_, s_;
  GlobalTensor<T> xGm_, yGm_;
  GlobalTensor<int32_t> eGm_, rGm_;
  uint64_t Tn_ = 0, first_ = 0, rows_ = 0;
  uint32_t E_ = 1, K_ = 1, Ep_ = 8, RB_ = 1;
};

template <typename T>
__aicore__ inline void RunGatingTopK(GM_ADDR x, GM_ADDR y, GM_ADDR expert, GM_ADDR row, uint64_t T_, uint32_t E, uint32_t K,
                                     uint32_t Ep, uint32_t RB, uint64_t rowsPerCore) {
  KernelGatingTopK<T> op;
  op.Init(x, y, expert, row, T_, E, K, Ep, RB, rowsPerCore);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (x and y share it).
extern "C" __global__ __aicore__ void moe_gating_top_k_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR expert, GM_ADDR row,
                                                                      uint64_t T, uint32_t E, uint32_t K, uint32_t Ep,
                                                                      uint32_t RB, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) RunGatingTopK<half>(x, y, expert, row, T, E, K, Ep, RB, rowsPerCore);
  else if (dt == 2) RunGatingTopK<bfloat16_t>(x, y, expert, row, T, E, K, Ep, RB, rowsPerCore);
  else RunGatingTopK<float>(x, y, expert, row, T, E, K, Ep, RB, rowsPerCore);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0], *ex = &a->outputs[1], *rw = &a->outputs[2];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || y->dtype != x->dtype ||
      ex->dtype != KOPE_I32 || rw->dtype != KOPE_I32 || x->ndim != 2 || y->ndim != 2)
    return 1;
  const uint64_t T = (uint64_t)x->shape[0];
  const uint32_t E = (uint32_t)x->shape[1], K = (uint32_t)y->shape[1];
  if (K > E || E > MAX_E || K > MAX_K) return 2;
  if (T == 0 || K == 0) return 0;
  const uint32_t perBlock = x->dtype == KOPE_F32 ? 8 : 16;  // elements in 32 bytes of the input
  const uint32_t Ep = (E + perBlock - 1) / perBlock * perBlock;
  uint32_t RB = TILE_FLOATS / Ep;
  RB = RB < 1 ? 1 : RB > 1024 / K ? 1024 / K : RB;  // the outputs' tiles stay at 1024 elements
  const uint64_t rowsPerCore = (T + MAX_CORES - 1) / MAX_CORES;
  const uint32_t blockDim = (uint32_t)((T + rowsPerCore - 1) / rowsPerCore);
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data, pe = (GM_ADDR)ex->data, pr = (GM_ADDR)rw->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(moe_gating_top_k_softmax_custom, blockDim, px, py, pe, pr, T, E, K, Ep, RB, rowsPerCore, dt);
#else
  moe_gating_top_k_softmax_custom<<<blockDim, nullptr, stream>>>(px, py, pe, pr, T, E, K, Ep, RB, rowsPerCore, dt);
#endif
  return 0;
}
