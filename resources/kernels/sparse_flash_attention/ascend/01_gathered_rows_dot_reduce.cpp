// thought: sparse flash attention in MLA-absorb form is multi-query attention over the keys a query's index list selects: each AI core takes (batch, query, tile of 16 heads) units, all of which share the query's list; per chunk of 64 list entries the indices come into the UB, and the scalar unit gathers the rows of the terms (0 <= j <= the causal limit) as [kv | k_rope] rows (each part padded to 8 floats) into a double-buffered queue, compacted; a query row laid out the same way (pre-scaled) gets each score by one Mul and one ReduceSum, then an online softmax (ReduceMax, Adds, Exp, ReduceSum, rescale by exp(m_old - m_new)) and P.V over the kv part of the gathered rows; a query without terms writes 0; fp32, fp16 or bf16 values, int32 indices: 2-byte rows are gathered as they are (each part padded to 16 elements, 32 bytes), the chunk and the query tile are Cast to fp32 in the UB, everything is computed in fp32 exactly as the fp32 path does, and the output tile is Cast back (CAST_RINT) once before it leaves.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
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

// The UB bytes asked for with chunks of bk entries and tiles of bq rows, rows kp = cp + rp elements wide, elements of
// es bytes: the row queue in the input type, the fp32 working buffers, and for a 2-byte type the fp32 copy of the
// gathered rows and the staging of the query tile in and the output tile out.
static inline uint32_t ub_bytes(uint32_t bk, uint32_t bq, uint32_t cp, uint32_t kp, uint32_t es) {
  return es * BUFFER_NUM * bk * kp + 4 * (bq * kp + bq * cp + kp + cp + 2 * bk + bk * 8 + (kp > bk ? kp : bk) + 16) +
         (es < 4 ? 4 * bk * kp + es * bq * kp : 0);
}

template <typename T> class KernelSfa {
 public:
  __aicore__ inline KernelSfa() {}
  __aicore__ inline void Init(GM_ADDR q, GM_ADDR qr, GM_ADDR kv, GM_ADDR kr, GM_ADDR ix, GM_ADDR o, uint32_t B, uint32_t S, uint32_t H,
                              uint32_t L, uint32_t C, uint32_t R, uint32_t K, uint32_t BQ, uint32_t BK, uint32_t causal, float scale) {
    B_ = B, S_ = S, H_ = H, L_ = L, C_ = C, R_ = R, K_ = K, BQ_ = BQ, BK_ = BK, causal_ = causal, scale_ = scale;
    Cp_ = (C + A - 1) / A * A, Rp_ = (R + A - 1) / A * A, Kp_ = Cp_ + Rp_;  // parts padded to 32 bytes of T
    qGm_.SetGlobalBuffer((__gm__ T*)q, (uint64_t)B * S * H * C);
    qrGm_.SetGlobalBuffer((__gm__ T*)qr, (uint64_t)B * S * H * R);
    cGm_.SetGlobalBuffer((__gm__ T*)kv, (uint64_t)B * L * C);
    krGm_.SetGlobalBuffer((__gm__ T*)kr, (uint64_t)B * L * R);
    ixGm_.SetGlobalBuffer((__gm__ int32_t*)ix, (uint64_t)B * S * K);
    oGm_.SetGlobalBuffer((__gm__ T*)o, (uint64_t)B * S * H * C);
    pipe_.InitBuffer(kQ_, BUFFER_NUM, BK * Kp_ * sizeof(T));
    if constexpr (!IS_F32) {
      pipe_.InitBuffer(kf_, BK * Kp_ * sizeof(float));
      pipe_.InitBuffer(io_, BQ * Kp_ * sizeof(T));
    }
    pipe_.InitBuffer(qB_, BQ * Kp_ * sizeof(float));
    pipe_.InitBuffer(oB_, BQ * Cp_ * sizeof(float));
    pipe_.InitBuffer(prod_, Kp_ * sizeof(float));
    pipe_.InitBuffer(t_, Cp_ * sizeof(float));
    pipe_.InitBuffer(s_, BK * sizeof(float));
    pipe_.InitBuffer(st_, BK * 8 * sizeof(float));
    pipe_.InitBuffer(w_, (Kp_ > BK ? Kp_ : BK) * sizeof(float));
    pipe_.InitBuffer(r_, 16 * sizeof(float));
    pipe_.InitBuffer(ib_, BK * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    const uint32_t tiles = (H_ + BQ_ - 1) / BQ_;
    const uint64_t units = (uint64_t)B_ * S_ * tiles;
    for (uint64_t u = GetBlockIdx(); u < units; u += GetBlockNum()) Unit((uint32_t)(u / tiles), (uint32_t)(u % tiles) * BQ_);
  }

 private:
  // Heads [h0, h0 + nq) of query bs = b * S + s.
  __aicore__ inline void Unit(uint32_t bs, uint32_t h0) {
    const uint32_t nq = H_ - h0 < BQ_ ? H_ - h0 : BQ_;
    const uint64_t g0 = (uint64_t)bs * H_ + h0;
    LocalTensor<float> qb = qB_.Get<float>(), ob = oB_.Get<float>();
    if constexpr (IS_F32) {
      LoadRows(qb, qGm_[g0 * C_], qrGm_[g0 * R_], nq);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
    } else {  // the tile in its own type, then Cast to fp32 (the same layout: the parts are padded to 16 elements)
      LocalTensor<T> qs = io_.Get<T>();
      LoadRows(qs, qGm_[g0 * C_], qrGm_[g0 * R_], nq);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      Cast(qb, qs, RoundMode::CAST_NONE, nq * Kp_);
    }
    Muls(qb, qb, scale_, (int32_t)(nq * Kp_));
    Duplicate(ob, 0.0f, (int32_t)(nq * Cp_));
    float m[MAX_BQ], l[MAX_BQ];
    for (uint32_t r = 0; r < nq; ++r) m[r] = NEG_INF, l[r] = 0.0f;
    const uint32_t b = bs / S_, s = bs % S_;
    // Terms: 0 <= j <= lim, lim = L - S + s when causal (bottom-right), else L - 1; -1 pads the list.
    const int64_t lim = causal_ ? (int64_t)L_ - S_ + s : (int64_t)L_ - 1;
    const uint32_t nc = (K_ + BK_ - 1) / BK_;
    if (nc > 0) CopyIn(b, bs, 0, lim);
    for (uint32_t c = 0; c < nc; ++c) {
      LocalTensor<T> kq = kQ_.template DeQue<T>();
      const uint32_t n = n_[c & 1];
      if (c + 1 < nc) CopyIn(b, bs, c + 1, lim);  // the next chunk's rows stream in while this one is computed
      LocalTensor<float> kb;
      if constexpr (IS_F32) {
        kb = kq;
      } else {  // the gathered rows to fp32 once; the queue buffer goes back at once
        kb = kf_.Get<float>();
        if (n > 0) Cast(kb, kq, RoundMode::CAST_NONE, n * Kp_);
        kQ_.FreeTensor(kq);
      }
      if (n > 0)
        for (uint32_t r = 0; r < nq; ++r) Row(qb[r * Kp_], ob[r * Cp_], kb, n, m[r], l[r]);
      if constexpr (IS_F32) kQ_.FreeTensor(kq);
    }
    for (uint32_t r = 0; r < nq; ++r) Muls(ob[r * Cp_], ob[r * Cp_], l[r] == 0.0f ? 0.0f : 1.0f / l[r], (int32_t)Cp_);  // no term: 0
    if constexpr (IS_F32) {
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(oGm_[g0 * C_], ob, DataCopyExtParams{(uint16_t)nq, C_ * 4, 0, 0, 0});
    } else {  // rounded once to the output type
      LocalTensor<T> os = io_.Get<T>();
      Cast(os, ob, RoundMode::CAST_RINT, nq * Cp_);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(oGm_[g0 * C_], os, DataCopyExtParams{(uint16_t)nq, C_ * (uint32_t)sizeof(T), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
  }
  // Chunk c of query bs's list: the indices into the UB, then the terms' rows gathered, compacted, as [kv | k_rope].
  __aicore__ inline void CopyIn(uint32_t b, uint32_t bs, uint32_t c, int64_t lim) {
    const uint32_t t0 = c * BK_, ne = K_ - t0 < BK_ ? K_ - t0 : BK_;
    LocalTensor<int32_t> ib = ib_.Get<int32_t>();
    DataCopyPad(ib, ixGm_[(uint64_t)bs * K_ + t0], DataCopyExtParams{1, ne * 4, 0, 0, 0}, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    LocalTensor<T> kb = kQ_.template AllocTensor<T>();
    uint32_t n = 0;
    for (uint32_t t = 0; t < ne; ++t) {
      const int64_t j = ib.GetValue(t);
      if (j < 0 || j > lim) continue;
      const uint64_t row = (uint64_t)b * L_ + (uint64_t)j;
      LoadRows(kb[n * Kp_], cGm_[row * C_], krGm_[row * R_], 1);
      ++n;
    }
    n_[c & 1] = n;
    kQ_.EnQue(kb);
  }
  // n rows [c | r] from c's rows of C and r's rows of R, each part zero-padded to 32 bytes (8 floats, 16 halves).
  template <typename U>
  __aicore__ inline void LoadRows(const LocalTensor<U>& dst, const GlobalTensor<U>& c, const GlobalTensor<U>& r, uint32_t n) {
    constexpr uint32_t es = sizeof(U);
    DataCopyPad(dst, c, DataCopyExtParams{(uint16_t)n, C_ * es, 0, Rp_ * es / 32, 0},
                DataCopyPadExtParams<U>{true, 0, (uint8_t)(Cp_ - C_), U(0.0f)});
    DataCopyPad(dst[Cp_], r, DataCopyExtParams{(uint16_t)n, R_ * es, 0, Cp_ * es / 32, 0},
                DataCopyPadExtParams<U>{true, 0, (uint8_t)(Rp_ - R_), U(0.0f)});
  }
  // One row against the first lim keys of the block: scores, the online-softmax step, o += p ckv.
  __aicore__ inline void Row(const LocalTensor<float>& qrow, const LocalTensor<float>& orow, const LocalTensor<float>& kb,
                             uint32_t lim, float& m, float& l) {
    LocalTensor<float> prod = prod_.Get<float>(), s = s_.Get<float>(), st = st_.Get<float>(), w = w_.Get<float>(),
                       t = t_.Get<float>(), x = r_.Get<float>();
    const int32_t n = (int32_t)lim;
    for (uint32_t j = 0; j < lim; ++j) {
      Mul(prod, kb[j * Kp_], qrow, (int32_t)Kp_);
      ReduceSum(st[j * 8], prod, w, (int32_t)Kp_);
    }
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    for (uint32_t j = 0; j < lim; ++j) s.SetValue(j, st.GetValue(j * 8));
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
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
    Muls(orow, orow, alpha, (int32_t)Cp_);
    for (uint32_t j = 0; j < lim; ++j) {
      Muls(t, kb[j * Kp_], s.GetValue(j), (int32_t)Cp_);
      Add(orow, orow, t, (int32_t)Cp_);
    }
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> kQ_;
  TBuf<QuePosition::VECCALC> qB_, oB_, prod_, t_, s_, st_, w_, r_, ib_, kf_, io_;
  GlobalTensor<T> qGm_, qrGm_, cGm_, krGm_, oGm_;
  static constexpr bool IS_F32 = sizeof(T) == 4;
  static constexpr uint32_t A = 32 / sizeof(T);  // elements per 32 bytes
  GlobalTensor<int32_t> ixGm_;
  uint32_t n_[2] = {0, 0};  // terms gathered into the queue's two buffers
  uint32_t B_ = 0, S_ = 0, H_ = 0, L_ = 0, C_ = 1, R_ = 1, K_ = 0, Cp_ = 8, Rp_ = 8, Kp_ = 16, BQ_ = 1, BK_ = 8, causal_ = 0;
  float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void sparse_flash_attention_custom(GM_ADDR q, GM_ADDR qr, GM_ADDR kv, GM_ADDR kr, GM_ADDR ix, GM_ADDR o,
                                                                    uint32_t B, uint32_t S, uint32_t H, uint32_t L, uint32_t C,
                                                                    uint32_t R, uint32_t K, uint32_t BQ, uint32_t BK, uint32_t causal,
                                                                    float scale, uint32_t dt) {
  if (dt == 1) {
    KernelSfa<half> op;
    op.Init(q, qr, kv, kr, ix, o, B, S, H, L, C, R, K, BQ, BK, causal, scale);
    op.Process();
  } else if (dt == 2) {
    KernelSfa<bfloat16_t> op;
    op.Init(q, qr, kv, kr, ix, o, B, S, H, L, C, R, K, BQ, BK, causal, scale);
    op.Process();
  } else {
    KernelSfa<float> op;
    op.Init(q, qr, kv, kr, ix, o, B, S, H, L, C, R, K, BQ, BK, causal, scale);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *q = &a->inputs[0], *qr = &a->inputs[1], *kv = &a->inputs[2], *kr = &a->inputs[3], *ix = &a->inputs[4],
                    *o = &a->outputs[0];
  // dt: 0 fp32, 1 fp16, 2 bf16; every value tensor shares q's dtype.
  const uint32_t dt = q->dtype == KOPE_F32 ? 0 : q->dtype == KOPE_F16 ? 1 : q->dtype == KOPE_BF16 ? 2 : 3;
  if (dt == 3 || qr->dtype != q->dtype || kv->dtype != q->dtype || kr->dtype != q->dtype || o->dtype != q->dtype ||
      ix->dtype != KOPE_I32 || q->ndim != 4)
    return 1;
  const uint32_t es = dt == 0 ? 4 : 2, al = 32 / es;  // parts padded to 32 bytes of the value type
  const uint32_t B = (uint32_t)q->shape[0], S = (uint32_t)q->shape[1], H = (uint32_t)q->shape[2], C = (uint32_t)q->shape[3],
                 R = (uint32_t)qr->shape[3], L = (uint32_t)kv->shape[1], K = (uint32_t)ix->shape[2];
  if (o->numel == 0) return 0;
  const uint32_t causal = kope_attr_or(a, "causal", 1) != 0 ? 1 : 0;
  const float scale = (float)kope_attr_or(a, "scale", 0.07216878364870322);
  const uint32_t Cp = (C + al - 1) / al * al, Kp = Cp + (R + al - 1) / al * al;
  uint32_t BQ = MAX_BQ, BK = 64;
  while (BK > 8 && ub_bytes(BK, BQ, Cp, Kp, es) > UB_BUDGET) BK -= 8;
  while (BQ > 1 && ub_bytes(BK, BQ, Cp, Kp, es) > UB_BUDGET) --BQ;
  if (ub_bytes(BK, BQ, Cp, Kp, es) > UB_BUDGET) return 1;  // rows wider than the UB holds in this form
  const uint64_t units = (uint64_t)B * S * ((H + BQ - 1) / BQ);
  const uint32_t blockDim = units < MAX_CORES ? (uint32_t)units : MAX_CORES;
  GM_ADDR pq = (GM_ADDR)q->data, pqr = (GM_ADDR)qr->data, pkv = (GM_ADDR)kv->data, pkr = (GM_ADDR)kr->data, pix = (GM_ADDR)ix->data,
          po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(sparse_flash_attention_custom, blockDim, pq, pqr, pkv, pkr, pix, po, B, S, H, L, C, R, K, BQ, BK, causal, scale, dt);
#else
  sparse_flash_attention_custom<<<blockDim, nullptr, stream>>>(pq, pqr, pkv, pkr, pix, po, B, S, H, L, C, R, K, BQ, BK, causal, scale, dt);
#endif
  return 0;
}
