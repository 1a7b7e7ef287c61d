// thought: flash attention on the vector units: each AI core takes (head, 16-query tile) units in turn; per key block of up to 64 rows K and V stream in through double-buffered queues (rows padded to 8 floats by DataCopyPad), K is transposed once into the UB so a query's 64 scores are D Muls+Add over the block, then an online softmax (ReduceMax, Adds, Exp, ReduceSum, the running sum and output rescaled by exp(m_old - m_new)) and P.V as one Muls+Add per key over the padded output row; fp32 only.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
// The cube unit would do Q.K^T and P.V faster; this is the vector-only form that the CPU twin can check.
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;
constexpr uint32_t MAX_BQ = 16;
constexpr uint32_t UB_BUDGET = 188 * 1024;
constexpr float NEG_INF = -__builtin_inff();

// The UB bytes the kernel asks for with key blocks of bk rows and query tiles of bq rows of dp floats.
static inline uint32_t ub_bytes(uint32_t bk, uint32_t bq, uint32_t dp) {
  const uint32_t t = bk > dp ? bk : dp;
  return 4 * (2 * BUFFER_NUM * bk * dp + bk * dp + 2 * bq * dp + 2 * bk + t + 16);
}

class KernelMha {
 public:
  __aicore__ inline KernelMha() {}
  __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, uint32_t BH, uint32_t S, uint32_t L, uint32_t D,
                              uint32_t Dp, uint32_t BQ, uint32_t BK, uint32_t causal, float scale) {
    BH_ = BH, S_ = S, L_ = L, D_ = D, Dp_ = Dp, BQ_ = BQ, BK_ = BK, causal_ = causal, scale_ = scale;
    qGm_.SetGlobalBuffer((__gm__ float*)q, (uint64_t)BH * S * D);
    kGm_.SetGlobalBuffer((__gm__ float*)k, (uint64_t)BH * L * D);
    vGm_.SetGlobalBuffer((__gm__ float*)v, (uint64_t)BH * L * D);
    oGm_.SetGlobalBuffer((__gm__ float*)o, (uint64_t)BH * S * D);
    pipe_.InitBuffer(kQ_, BUFFER_NUM, BK * Dp * sizeof(float));
    pipe_.InitBuffer(vQ_, BUFFER_NUM, BK * Dp * sizeof(float));
    pipe_.InitBuffer(kt_, BK * Dp * sizeof(float));
    pipe_.InitBuffer(qB_, BQ * Dp * sizeof(float));
    pipe_.InitBuffer(oB_, BQ * Dp * sizeof(float));
    pipe_.InitBuffer(s_, BK * sizeof(float));
    pipe_.InitBuffer(w_, BK * sizeof(float));
    pipe_.InitBuffer(t_, (BK > Dp ? BK : Dp) * sizeof(float));
    pipe_.InitBuffer(r_, 16 * sizeof(float));
  }
  // Units (head, query tile) dealt round-robin, so causal tiles of every length spread over the cores.
  __aicore__ inline void Process() {
    const uint32_t tiles = (S_ + BQ_ - 1) / BQ_;
    const uint64_t units = (uint64_t)BH_ * tiles;
    for (uint64_t u = GetBlockIdx(); u < units; u += GetBlockNum()) Unit((uint32_t)(u / tiles), (uint32_t)(u % tiles) * BQ_);
  }

 private:
  __aicore__ inline void Unit(uint32_t bh, uint32_t i0) {
    const uint32_t nq = S_ - i0 < BQ_ ? S_ - i0 : BQ_;
    LocalTensor<float> qb = qB_.Get<float>(), ob = oB_.Get<float>();
    const uint8_t pad = (uint8_t)(Dp_ - D_);
    DataCopyPad(qb, qGm_[((uint64_t)bh * S_ + i0) * D_], DataCopyExtParams{(uint16_t)nq, D_ * 4, 0, 0, 0},
                DataCopyPadExtParams<float>{true, 0, pad, 0.0f});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(qb, qb, scale_, (int32_t)(nq * Dp_));
    Duplicate(ob, 0.0f, (int32_t)(nq * Dp_));
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    float m[MAX_BQ], l[MAX_BQ];
    for (uint32_t r = 0; r < nq; ++r) m[r] = NEG_INF, l[r] = 0.0f;
    const uint32_t jend = causal_ ? (i0 + nq < L_ ? i0 + nq : L_) : L_;  // causal: query i sees keys j <= i
    const uint32_t nb = (jend + BK_ - 1) / BK_;
    if (nb > 0) CopyIn(bh, 0, jend);
    for (uint32_t b = 0; b < nb; ++b) {
      const uint32_t j0 = b * BK_, nk = jend - j0 < BK_ ? jend - j0 : BK_;
      LocalTensor<float> kb = kQ_.DeQue<float>(), vb = vQ_.DeQue<float>();
      if (b + 1 < nb) CopyIn(bh, j0 + BK_, jend);  // the next block streams in while this one is computed
      Transpose(kb, nk);
      kQ_.FreeTensor(kb);
      for (uint32_t r = 0; r < nq; ++r) {
        const uint32_t i = i0 + r;
        const uint32_t lim = !causal_ ? nk : (i + 1 <= j0 ? 0 : (i + 1 - j0 < nk ? i + 1 - j0 : nk));
        if (lim > 0) Row(qb, ob, vb, r, lim, m[r], l[r]);
      }
      vQ_.FreeTensor(vb);
    }
    for (uint32_t r = 0; r < nq; ++r) Muls(ob[r * Dp_], ob[r * Dp_], 1.0f / l[r], (int32_t)Dp_);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(oGm_[((uint64_t)bh * S_ + i0) * D_], ob, DataCopyExtParams{(uint16_t)nq, D_ * 4, 0, 0, 0});
    SetFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
  }
  // Keys [j0, j0 + nk) of head bh, K and V rows padded to Dp with zeros.
  __aicore__ inline void CopyIn(uint32_t bh, uint32_t j0, uint32_t jend) {
    const uint32_t nk = jend - j0 < BK_ ? jend - j0 : BK_;
    const uint64_t off = ((uint64_t)bh * L_ + j0) * D_;
    const uint8_t pad = (uint8_t)(Dp_ - D_);
    LocalTensor<float> kb = kQ_.AllocTensor<float>(), vb = vQ_.AllocTensor<float>();
    DataCopyPad(kb, kGm_[off], DataCopyExtParams{(uint16_t)nk, D_ * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, pad, 0.0f});
    DataCopyPad(vb, vGm_[off], DataCopyExtParams{(uint16_t)nk, D_ * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, pad, 0.0f});
    kQ_.EnQue(kb);
    vQ_.EnQue(vb);
  }
  // Kt[d][j] = K[j][d] on the scalar unit, once per block for all the tile's queries.
  __aicore__ inline void Transpose(const LocalTensor<float>& kb, uint32_t nk) {
    LocalTensor<float> kt = kt_.Get<float>();
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    for (uint32_t j = 0; j < nk; ++j)
      for (uint32_t d = 0; d < D_; ++d) kt.SetValue(d * BK_ + j, kb.GetValue(j * Dp_ + d));
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
  }
  // One query row against the first lim keys of the block: scores, the online-softmax step, o += p V.
  __aicore__ inline void Row(const LocalTensor<float>& qb, const LocalTensor<float>& ob, const LocalTensor<float>& vb, uint32_t r,
                             uint32_t lim, float& m, float& l) {
    LocalTensor<float> kt = kt_.Get<float>(), s = s_.Get<float>(), w = w_.Get<float>(), t = t_.Get<float>(), x = r_.Get<float>();
    const int32_t n = (int32_t)lim;
    Muls(s, kt, qb.GetValue(r * Dp_), n);
    for (uint32_t d = 1; d < D_; ++d) {
      Muls(t, kt[d * BK_], qb.GetValue(r * Dp_ + d), n);
      Add(s, s, t, n);
    }
    ReduceMax(x, s, w, n);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float bm = x.GetValue(0);
    const float mnew = m != m ? m : (bm != bm ? bm : (bm > m ? bm : m));  // a NaN score makes the row NaN
    Adds(s, s, -mnew, n);
    Exp(s, s, n);
    ReduceSum(x, s, w, n);
    LocalTensor<float> a = x[8];
    Duplicate(a, m - mnew, 8);
    Exp(a, a, 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float alpha = a.GetValue(0);
    l = l * alpha + x.GetValue(0);
    m = mnew;
    LocalTensor<float> orow = ob[r * Dp_];
    Muls(orow, orow, alpha, (int32_t)Dp_);
    for (uint32_t j = 0; j < lim; ++j) {
      Muls(t, vb[j * Dp_], s.GetValue(j), (int32_t)Dp_);
      Add(orow, orow, t, (int32_t)Dp_);
    }
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> kQ_, vQ_;
  TBuf<QuePosition::VECCALC> kt_, qB_, oB_, s_, w_, t_, r_;
  GlobalTensor<float> qGm_, kGm_, vGm_, oGm_;
  uint32_t BH_ = 0, S_ = 0, L_ = 0, D_ = 1, Dp_ = 8, BQ_ = 1, BK_ = 8, causal_ = 0;
  float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void mha_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, uint32_t BH, uint32_t S, uint32_t L,
                                                 uint32_t D, uint32_t Dp, uint32_t BQ, uint32_t BK, uint32_t causal, float scale) {
  KernelMha op;
  op.Init(q, k, v, o, BH, S, L, D, Dp, BQ, BK, causal, scale);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *q = &a->inputs[0], *k = &a->inputs[1], *v = &a->inputs[2], *o = &a->outputs[0];
  if (q->dtype != KOPE_F32 || k->dtype != KOPE_F32 || v->dtype != KOPE_F32 || o->dtype != KOPE_F32 || q->ndim != 4) return 1;
  const uint32_t BH = (uint32_t)(q->shape[0] * q->shape[1]), S = (uint32_t)q->shape[2], D = (uint32_t)q->shape[3],
                 L = (uint32_t)k->shape[2];
  if (BH == 0 || S == 0) return 0;
  const uint32_t Dp = (D + 7) / 8 * 8;
  uint32_t BQ = MAX_BQ, BK = 64;
  while (BK > 8 && ub_bytes(BK, BQ, Dp) > UB_BUDGET) BK -= 8;
  while (BQ > 1 && ub_bytes(BK, BQ, Dp) > UB_BUDGET) --BQ;
  if (ub_bytes(BK, BQ, Dp) > UB_BUDGET) return 1;  // a head wider than the UB holds in this form
  const uint32_t causal = kope_attr_or(a, "causal", 0) != 0 ? 1 : 0;
  const float scale = 1.0f / __builtin_sqrtf((float)D);
  const uint64_t units = (uint64_t)BH * ((S + BQ - 1) / BQ);
  const uint32_t blockDim = units < MAX_CORES ? (uint32_t)units : MAX_CORES;
  GM_ADDR pq = (GM_ADDR)q->data, pk = (GM_ADDR)k->data, pv = (GM_ADDR)v->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(mha_custom, blockDim, pq, pk, pv, po, BH, S, L, D, Dp, BQ, BK, causal, scale);
#else
  mha_custom<<<blockDim, nullptr, stream>>>(pq, pk, pv, po, BH, S, L, D, Dp, BQ, BK, causal, scale);
#endif
  return 0;
}
