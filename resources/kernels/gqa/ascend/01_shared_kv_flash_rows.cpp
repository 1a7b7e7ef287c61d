// thought: grouped-query flash attention on the vector units: each AI core takes (query head, 16-query tile) units in turn and reads the key/value head h / G; per key block of up to 64 rows K and V stream in through double-buffered queues (rows padded to 8 floats by DataCopyPad), K is transposed once into the UB so a query's 64 scores are D Muls+Add over the block, then an online softmax (ReduceMax, Adds, Exp, ReduceSum, the running sum and output rescaled by exp(m_old - m_new)) and P.V as one Muls+Add per key over the padded output row; causal aligned to the bottom right (query i sees keys j <= L - S + i); fp32, fp16 and bf16: a 2-byte q, K, V come in as they are (rows padded to 16 elements, 32 bytes), q and V are Cast to fp32 in the UB (K is read into the transposed fp32 block on the scalar unit), everything is computed in fp32 exactly as the fp32 path does, and the output row is Cast back (CAST_RINT) once before it leaves.
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

// The UB bytes the kernel asks for with key blocks of bk rows and query tiles of bq rows of dp elements of es bytes:
// the K and V queues in the input type, the fp32 working buffers, and for a 2-byte type the fp32 copy of the V block
// and the staging of the q tile in and the output tile out.
static inline uint32_t ub_bytes(uint32_t bk, uint32_t bq, uint32_t dp, uint32_t es) {
  const uint32_t t = bk > dp ? bk : dp;
  return es * 2 * BUFFER_NUM * bk * dp + 4 * (bk * dp + 2 * bq * dp + 2 * bk + t + 16) + (es < 4 ? 4 * bk * dp + es * bq * dp : 0);
}

template <typename T> class KernelGqa {
 public:
  __aicore__ inline KernelGqa() {}
  __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, uint32_t BH, uint32_t S, uint32_t L, uint32_t D,
                              uint32_t Dp, uint32_t BQ, uint32_t BK, uint32_t G, float scale) {
    BH_ = BH, S_ = S, L_ = L, D_ = D, Dp_ = Dp, BQ_ = BQ, BK_ = BK, G_ = G, scale_ = scale;
    qGm_.SetGlobalBuffer((__gm__ T*)q, (uint64_t)BH * S * D);
    kGm_.SetGlobalBuffer((__gm__ T*)k, (uint64_t)(BH / G) * L * D);
    vGm_.SetGlobalBuffer((__gm__ T*)v, (uint64_t)(BH / G) * L * D);
    oGm_.SetGlobalBuffer((__gm__ T*)o, (uint64_t)BH * S * D);
    pipe_.InitBuffer(kQ_, BUFFER_NUM, BK * Dp * sizeof(T));
    pipe_.InitBuffer(vQ_, BUFFER_NUM, BK * Dp * sizeof(T));
    if constexpr (!IS_F32) {
      pipe_.InitBuffer(vf_, BK * Dp * sizeof(float));
      pipe_.InitBuffer(io_, BQ * Dp * sizeof(T));
    }
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
    if constexpr (IS_F32) {
      DataCopyPad(qb, qGm_[((uint64_t)bh * S_ + i0) * D_], DataCopyExtParams{(uint16_t)nq, D_ * 4, 0, 0, 0},
                  DataCopyPadExtParams<float>{true, 0, pad, 0.0f});
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
    } else {  // the tile in its own type (rows padded to Dp, a multiple of 16), then Cast to fp32
      LocalTensor<T> qs = io_.Get<T>();
      DataCopyPad(qs, qGm_[((uint64_t)bh * S_ + i0) * D_], DataCopyExtParams{(uint16_t)nq, D_ * (uint32_t)sizeof(T), 0, 0, 0},
                  DataCopyPadExtParams<T>{true, 0, pad, T(0.0f)});
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      Cast(qb, qs, RoundMode::CAST_NONE, nq * Dp_);
    }
    Muls(qb, qb, scale_, (int32_t)(nq * Dp_));
    Duplicate(ob, 0.0f, (int32_t)(nq * Dp_));
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    float m[MAX_BQ], l[MAX_BQ];
    for (uint32_t r = 0; r < nq; ++r) m[r] = NEG_INF, l[r] = 0.0f;
    const uint32_t off = L_ - S_;  // query i sits at position L - S + i and sees keys j <= L - S + i
    const uint32_t jend = i0 + nq + off < L_ ? i0 + nq + off : L_;
    const uint32_t nb = (jend + BK_ - 1) / BK_;
    if (nb > 0) CopyIn(bh / G_, 0, jend);
    for (uint32_t b = 0; b < nb; ++b) {
      const uint32_t j0 = b * BK_, nk = jend - j0 < BK_ ? jend - j0 : BK_;
      LocalTensor<T> kb = kQ_.template DeQue<T>(), vq = vQ_.template DeQue<T>();
      if (b + 1 < nb) CopyIn(bh / G_, j0 + BK_, jend);  // the next block streams in while this one is computed
      Transpose(kb, nk);
      kQ_.FreeTensor(kb);
      LocalTensor<float> vb;
      if constexpr (IS_F32) {
        vb = vq;
      } else {  // V to fp32 once per block; its queue buffer goes back at once
        vb = vf_.Get<float>();
        Cast(vb, vq, RoundMode::CAST_NONE, nk * Dp_);
        vQ_.FreeTensor(vq);
      }
      for (uint32_t r = 0; r < nq; ++r) {
        const uint32_t i = i0 + r + off;
        const uint32_t lim = i + 1 <= j0 ? 0 : (i + 1 - j0 < nk ? i + 1 - j0 : nk);
        if (lim > 0) Row(qb, ob, vb, r, lim, m[r], l[r]);
      }
      if constexpr (IS_F32) vQ_.FreeTensor(vq);
    }
    for (uint32_t r = 0; r < nq; ++r) Muls(ob[r * Dp_], ob[r * Dp_], 1.0f / l[r], (int32_t)Dp_);
    if constexpr (IS_F32) {
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(oGm_[((uint64_t)bh * S_ + i0) * D_], ob, DataCopyExtParams{(uint16_t)nq, D_ * 4, 0, 0, 0});
    } else {  // rounded once to the output type
      LocalTensor<T> os = io_.Get<T>();
      Cast(os, ob, RoundMode::CAST_RINT, nq * Dp_);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(oGm_[((uint64_t)bh * S_ + i0) * D_], os, DataCopyExtParams{(uint16_t)nq, D_ * (uint32_t)sizeof(T), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
  }
  // Keys [j0, j0 + nk) of key/value head kvh, K and V rows padded to Dp with zeros.
  __aicore__ inline void CopyIn(uint32_t kvh, uint32_t j0, uint32_t jend) {
    const uint32_t nk = jend - j0 < BK_ ? jend - j0 : BK_;
    const uint64_t off = ((uint64_t)kvh * L_ + j0) * D_;
    const uint8_t pad = (uint8_t)(Dp_ - D_);
    LocalTensor<T> kb = kQ_.template AllocTensor<T>(), vb = vQ_.template AllocTensor<T>();
    const DataCopyExtParams cp{(uint16_t)nk, D_ * (uint32_t)sizeof(T), 0, 0, 0};
    DataCopyPad(kb, kGm_[off], cp, DataCopyPadExtParams<T>{true, 0, pad, T(0.0f)});
    DataCopyPad(vb, vGm_[off], cp, DataCopyPadExtParams<T>{true, 0, pad, T(0.0f)});
    kQ_.EnQue(kb);
    vQ_.EnQue(vb);
  }
  // Kt[d][j] = K[j][d] on the scalar unit (as fp32), once per block for all the tile's queries.
  __aicore__ inline void Transpose(const LocalTensor<T>& kb, uint32_t nk) {
    LocalTensor<float> kt = kt_.Get<float>();
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    for (uint32_t j = 0; j < nk; ++j)
      for (uint32_t d = 0; d < D_; ++d) kt.SetValue(d * BK_ + j, static_cast<float>(kb.GetValue(j * Dp_ + d)));
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
  TBuf<QuePosition::VECCALC> kt_, qB_, oB_, s_, w_, t_, r_, vf_, io_;
  GlobalTensor<T> qGm_, kGm_, vGm_, oGm_;
  static constexpr bool IS_F32 = sizeof(T) == 4;
  uint32_t BH_ = 0, S_ = 0, L_ = 0, D_ = 1, Dp_ = 8, BQ_ = 1, BK_ = 8, G_ = 1;
  float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void gqa_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, uint32_t BH, uint32_t S, uint32_t L,
                                                 uint32_t D, uint32_t Dp, uint32_t BQ, uint32_t BK, uint32_t G, float scale,
                                                 uint32_t dt) {
  if (dt == 1) {
    KernelGqa<half> op;
    op.Init(q, k, v, o, BH, S, L, D, Dp, BQ, BK, G, scale);
    op.Process();
  } else if (dt == 2) {
    KernelGqa<bfloat16_t> op;
    op.Init(q, k, v, o, BH, S, L, D, Dp, BQ, BK, G, scale);
    op.Process();
  } else {
    KernelGqa<float> op;
    op.Init(q, k, v, o, BH, S, L, D, Dp, BQ, BK, G, scale);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *q = &a->inputs[0], *k = &a->inputs[1], *v = &a->inputs[2], *o = &a->outputs[0];
  // dt: 0 fp32, 1 fp16, 2 bf16; every tensor shares q's dtype.
  const uint32_t dt = q->dtype == KOPE_F32 ? 0 : q->dtype == KOPE_F16 ? 1 : q->dtype == KOPE_BF16 ? 2 : 3;
  if (dt == 3 || k->dtype != q->dtype || v->dtype != q->dtype || o->dtype != q->dtype || q->ndim != 4) return 1;
  const uint32_t es = dt == 0 ? 4 : 2, align = 32 / es;  // rows padded to 32 bytes of the input type
  const uint32_t BH = (uint32_t)(q->shape[0] * q->shape[1]), S = (uint32_t)q->shape[2], D = (uint32_t)q->shape[3],
                 L = (uint32_t)k->shape[2];
  if (BH == 0 || S == 0) return 0;
  const uint32_t HKV = (uint32_t)k->shape[1];
  if (HKV == 0 || q->shape[1] % HKV != 0 || L < S) return 1;
  const uint32_t G = (uint32_t)(q->shape[1] / HKV);
  const uint32_t Dp = (D + align - 1) / align * align;
  uint32_t BQ = MAX_BQ, BK = 64;
  while (BK > 8 && ub_bytes(BK, BQ, Dp, es) > UB_BUDGET) BK -= 8;
  while (BQ > 1 && ub_bytes(BK, BQ, Dp, es) > UB_BUDGET) --BQ;
  if (ub_bytes(BK, BQ, Dp, es) > UB_BUDGET) return 1;  // a head wider than the UB holds in this form
  const float scale = 1.0f / __builtin_sqrtf((float)D);
  const uint64_t units = (uint64_t)BH * ((S + BQ - 1) / BQ);
  const uint32_t blockDim = units < MAX_CORES ? (uint32_t)units : MAX_CORES;
  GM_ADDR pq = (GM_ADDR)q->data, pk = (GM_ADDR)k->data, pv = (GM_ADDR)v->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gqa_custom, blockDim, pq, pk, pv, po, BH, S, L, D, Dp, BQ, BK, G, scale, dt);
#else
  gqa_custom<<<blockDim, nullptr, stream>>>(pq, pk, pv, po, BH, S, L, D, Dp, BQ, BK, G, scale, dt);
#endif
  return 0;
}
