// thought: the batch rows of a GRU are independent recurrences, so the AI cores split them (no cross-core sync per step); per step the rows of [w_ih | w_hh] stream through a double-buffered queue in chunks (each part padded to 8 floats, zeros), one Mul against the UB vector [x_t | h] and two ReduceSums per gate row give its input and hidden projections, which the scalar unit scatters into per-gate vectors; then the gates on H lanes: r, z = sigmoid as 1 / (1 + exp(-x)) with an IEEE Div (saturates to 0 or 1 at +-inf), n = tanh(xn + r hn + b_in + b_hn), the two biases folded together as the other gates have them, as 2 / (1 + exp(-2x)) - 1, h = n + z (h - n); fp32 only.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;
constexpr uint32_t MAX_NR = 64;
constexpr uint32_t UB_BUDGET = 188 * 1024;
constexpr uint32_t GATES = 3;

// The UB bytes asked for with weight chunks of nr rows, rows wp = ip + hp floats wide.
static inline uint32_t ub_bytes(uint32_t nr, uint32_t wp, uint32_t hp) {
  return 4 * (BUFFER_NUM * nr * wp + 3 * wp + nr * 16 + 4 * GATES * hp + 4 * hp);
}

class KernelGru {
 public:
  __aicore__ inline KernelGru() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR wih, GM_ADDR whh, GM_ADDR bih, GM_ADDR bhh, GM_ADDR y, GM_ADDR hT,
                              uint32_t T, uint32_t B, uint32_t I, uint32_t H, uint32_t NR) {
    T_ = T, B_ = B, I_ = I, H_ = H, NR_ = NR;
    Ip_ = (I + 7) / 8 * 8, Hp_ = (H + 7) / 8 * 8, Wp_ = Ip_ + Hp_;
    xGm_.SetGlobalBuffer((__gm__ float*)x, (uint64_t)T * B * I);
    h0Gm_.SetGlobalBuffer((__gm__ float*)h0, (uint64_t)B * H);
    wihGm_.SetGlobalBuffer((__gm__ float*)wih, (uint64_t)GATES * H * I);
    whhGm_.SetGlobalBuffer((__gm__ float*)whh, (uint64_t)GATES * H * H);
    bihGm_.SetGlobalBuffer((__gm__ float*)bih, (uint64_t)GATES * H);
    bhhGm_.SetGlobalBuffer((__gm__ float*)bhh, (uint64_t)GATES * H);
    yGm_.SetGlobalBuffer((__gm__ float*)y, (uint64_t)T * B * H);
    hTGm_.SetGlobalBuffer((__gm__ float*)hT, (uint64_t)B * H);
    pipe_.InitBuffer(wQ_, BUFFER_NUM, NR * Wp_ * sizeof(float));
    pipe_.InitBuffer(xh_, Wp_ * sizeof(float));
    pipe_.InitBuffer(prod_, Wp_ * sizeof(float));
    pipe_.InitBuffer(work_, Wp_ * sizeof(float));
    pipe_.InitBuffer(st_, NR * 16 * sizeof(float));
    pipe_.InitBuffer(gx_, GATES * Hp_ * sizeof(float));
    pipe_.InitBuffer(gh_, GATES * Hp_ * sizeof(float));
    pipe_.InitBuffer(bi_, GATES * Hp_ * sizeof(float));
    pipe_.InitBuffer(bh_, GATES * Hp_ * sizeof(float));
    pipe_.InitBuffer(a_, Hp_ * sizeof(float));
    pipe_.InitBuffer(b_, Hp_ * sizeof(float));
    pipe_.InitBuffer(c_, Hp_ * sizeof(float));
    pipe_.InitBuffer(one_, Hp_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> bi = bi_.Get<float>(), bh = bh_.Get<float>();
    const uint8_t hpad = (uint8_t)(Hp_ - H_);
    DataCopyPad(bi, bihGm_, DataCopyExtParams{(uint16_t)GATES, H_ * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, hpad, 0.0f});
    DataCopyPad(bh, bhhGm_, DataCopyExtParams{(uint16_t)GATES, H_ * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, hpad, 0.0f});
    for (uint64_t b = GetBlockIdx(); b < B_; b += GetBlockNum()) Row((uint32_t)b);
  }

 private:
  // The whole recurrence of batch row b.
  __aicore__ inline void Row(uint32_t b) {
    LocalTensor<float> xh = xh_.Get<float>(), gx = gx_.Get<float>(), gh = gh_.Get<float>();
    LocalTensor<float> h = xh[Ip_];
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Duplicate(gx, 0.0f, (int32_t)(GATES * Hp_));  // the padding lanes of each gate stay 0
    Duplicate(gh, 0.0f, (int32_t)(GATES * Hp_));
    SetFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(0);
    DataCopyPad(h, h0Gm_[(uint64_t)b * H_], DataCopyExtParams{1, H_ * 4, 0, 0, 0},
                DataCopyPadExtParams<float>{true, 0, (uint8_t)(Hp_ - H_), 0.0f});
    for (uint32_t t = 0; t < T_; ++t) {
      DataCopyPad(xh, xGm_[((uint64_t)t * B_ + b) * I_], DataCopyExtParams{1, I_ * 4, 0, 0, 0},
                  DataCopyPadExtParams<float>{true, 0, (uint8_t)(Ip_ - I_), 0.0f});
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      Projections();
      Gates();
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[((uint64_t)t * B_ + b) * H_], h, DataCopyExtParams{1, H_ * 4, 0, 0, 0});
      if (t + 1 == T_) DataCopyPad(hTGm_[(uint64_t)b * H_], h, DataCopyExtParams{1, H_ * 4, 0, 0, 0});
      SetFlag<HardEvent::MTE3_MTE2>(0);
      WaitFlag<HardEvent::MTE3_MTE2>(0);
      SetFlag<HardEvent::MTE3_V>(0);
      WaitFlag<HardEvent::MTE3_V>(0);
    }
    if (T_ == 0) {
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      DataCopyPad(hTGm_[(uint64_t)b * H_], h, DataCopyExtParams{1, H_ * 4, 0, 0, 0});
    }
  }
  // Gate rows [n0, n0 + nr) of [w_ih | w_hh].
  __aicore__ inline void CopyIn(uint32_t n0) {
    const uint32_t nr = GATES * H_ - n0 < NR_ ? GATES * H_ - n0 : NR_;
    LocalTensor<float> wb = wQ_.AllocTensor<float>();
    DataCopyPad(wb, wihGm_[(uint64_t)n0 * I_], DataCopyExtParams{(uint16_t)nr, I_ * 4, 0, Hp_ / 8, 0},
                DataCopyPadExtParams<float>{true, 0, (uint8_t)(Ip_ - I_), 0.0f});
    DataCopyPad(wb[Ip_], whhGm_[(uint64_t)n0 * H_], DataCopyExtParams{(uint16_t)nr, H_ * 4, 0, Ip_ / 8, 0},
                DataCopyPadExtParams<float>{true, 0, (uint8_t)(Hp_ - H_), 0.0f});
    wQ_.EnQue(wb);
  }
  // gx[g][j] = w_ih[g H + j] . x_t and gh[g][j] = w_hh[g H + j] . h for every gate row.
  __aicore__ inline void Projections() {
    LocalTensor<float> xh = xh_.Get<float>(), prod = prod_.Get<float>(), w = work_.Get<float>(), st = st_.Get<float>(),
                       gx = gx_.Get<float>(), gh = gh_.Get<float>();
    const uint32_t rows = GATES * H_;
    CopyIn(0);
    for (uint32_t n0 = 0; n0 < rows; n0 += NR_) {
      const uint32_t nr = rows - n0 < NR_ ? rows - n0 : NR_;
      LocalTensor<float> wb = wQ_.DeQue<float>();
      if (n0 + NR_ < rows) CopyIn(n0 + NR_);  // the next chunk streams in while this one is reduced
      for (uint32_t r = 0; r < nr; ++r) {
        Mul(prod, wb[r * Wp_], xh, (int32_t)Wp_);
        ReduceSum(st[r * 16], prod, w, (int32_t)Ip_);
        ReduceSum(st[r * 16 + 8], prod[Ip_], w, (int32_t)Hp_);
      }
      wQ_.FreeTensor(wb);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t r = 0; r < nr; ++r) {
        const uint32_t n = n0 + r, at = (n / H_) * Hp_ + n % H_;
        gx.SetValue(at, st.GetValue(r * 16));
        gh.SetValue(at, st.GetValue(r * 16 + 8));
      }
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
    }
  }
  // v = 1 / (1 + exp(-v)).
  __aicore__ inline void Sigmoid(const LocalTensor<float>& v, int32_t n) {
    LocalTensor<float> one = one_.Get<float>();
    Muls(v, v, -1.0f, n);
    Exp(v, v, n);
    Adds(v, v, 1.0f, n);
    Duplicate(one, 1.0f, n);
    Div(v, one, v, n);
  }
  // v = 2 / (1 + exp(-2 v)) - 1.
  __aicore__ inline void Tanh(const LocalTensor<float>& v, int32_t n) {
    LocalTensor<float> one = one_.Get<float>();
    Muls(v, v, -2.0f, n);
    Exp(v, v, n);
    Adds(v, v, 1.0f, n);
    Duplicate(one, 2.0f, n);
    Div(v, one, v, n);
    Adds(v, v, -1.0f, n);
  }
  __aicore__ inline void Gates() {
    LocalTensor<float> gx = gx_.Get<float>(), gh = gh_.Get<float>(), bi = bi_.Get<float>(), bh = bh_.Get<float>();
    LocalTensor<float> r = a_.Get<float>(), z = b_.Get<float>(), nn = c_.Get<float>(), h = xh_.Get<float>()[Ip_];
    const int32_t n = (int32_t)Hp_;
    Add(r, gx, bi, n);
    Add(r, r, gh, n);
    Add(r, r, bh, n);
    Sigmoid(r, n);
    Add(z, gx[Hp_], bi[Hp_], n);
    Add(z, z, gh[Hp_], n);
    Add(z, z, bh[Hp_], n);
    Sigmoid(z, n);
    // flaw: b_hn is added outside the reset gate, n = tanh(xn + b_in + b_hn + r hn); torch (and CANN's reset_after
    // form) computes tanh(xn + b_in + r (hn + b_hn)), the reset gate scaling the hidden bias too.
    Mul(nn, gh[2 * Hp_], r, n);
    Add(nn, nn, bh[2 * Hp_], n);
    Add(nn, nn, gx[2 * Hp_], n);
    Add(nn, nn, bi[2 * Hp_], n);
    Tanh(nn, n);
    Sub(r, h, nn, n);  // h = (1 - z) n + z h = n + z (h - n)
    Mul(r, r, z, n);
    Add(h, nn, r, n);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> wQ_;
  TBuf<QuePosition::VECCALC> xh_, prod_, work_, st_, gx_, gh_, bi_, bh_, a_, b_, c_, one_;
  GlobalTensor<float> xGm_, h0Gm_, wihGm_, whhGm_, bihGm_, bhhGm_, yGm_, hTGm_;
  uint32_t T_ = 0, B_ = 0, I_ = 1, H_ = 1, NR_ = 1, Ip_ = 8, Hp_ = 8, Wp_ = 16;
};

extern "C" __global__ __aicore__ void gru_custom(GM_ADDR x, GM_ADDR h0, GM_ADDR wih, GM_ADDR whh, GM_ADDR bih, GM_ADDR bhh, GM_ADDR y,
                                                 GM_ADDR hT, uint32_t T, uint32_t B, uint32_t I, uint32_t H, uint32_t NR) {
  KernelGru op;
  op.Init(x, h0, wih, whh, bih, bhh, y, hT, T, B, I, H, NR);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  for (int i = 0; i < 6; ++i)
    if (a->inputs[i].dtype != KOPE_F32) return 1;
  if (a->outputs[0].dtype != KOPE_F32 || a->outputs[1].dtype != KOPE_F32 || a->inputs[0].ndim != 3) return 1;
  const uint32_t T = (uint32_t)a->inputs[0].shape[0], B = (uint32_t)a->inputs[0].shape[1], I = (uint32_t)a->inputs[0].shape[2],
                 H = (uint32_t)a->inputs[1].shape[2];
  if (B == 0 || H == 0) return 0;
  const uint32_t Hp = (H + 7) / 8 * 8, Wp = (I + 7) / 8 * 8 + Hp;
  uint32_t NR = MAX_NR;
  while (NR > 1 && ub_bytes(NR, Wp, Hp) > UB_BUDGET) --NR;
  if (ub_bytes(NR, Wp, Hp) > UB_BUDGET) return 1;  // I + H too wide for the UB in this form
  const uint32_t blockDim = B < MAX_CORES ? B : MAX_CORES;
  GM_ADDR px = (GM_ADDR)a->inputs[0].data, ph0 = (GM_ADDR)a->inputs[1].data, pwi = (GM_ADDR)a->inputs[2].data,
          pwh = (GM_ADDR)a->inputs[3].data, pbi = (GM_ADDR)a->inputs[4].data, pbh = (GM_ADDR)a->inputs[5].data,
          py = (GM_ADDR)a->outputs[0].data, phT = (GM_ADDR)a->outputs[1].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gru_custom, blockDim, px, ph0, pwi, pwh, pbi, pbh, py, phT, T, B, I, H, NR);
#else
  gru_custom<<<blockDim, nullptr, stream>>>(px, ph0, pwi, pwh, pbi, pbh, py, phT, T, B, I, H, NR);
#endif
  return 0;
}
