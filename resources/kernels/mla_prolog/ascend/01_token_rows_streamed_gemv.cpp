// thought: every projection here is x @ W with W stored [in, out], so a token's output row is a sum of W's rows scaled by the input's elements: the AI cores take tokens in turn, and per token each weight streams row-chunk by row-chunk through a double-buffered queue (rows zero-padded to 8 floats) into one Muls+Add per row on the whole output width (the scale read on the scalar unit); the RMS norms are Mul+ReduceSum over exactly the row, rstd by a vector Sqrt and an IEEE Div; the RoPE slices start at unaligned offsets (n F + D, C), so the rotate-half is done on the scalar unit into padded rows that leave in one DataCopyPad; fp32, fp16 and bf16: 2-byte data come in as they are (rows padded to 16 elements, 32 bytes), each input row and each weight chunk is Cast to fp32 in the UB, everything is computed in fp32 exactly as the fp32 path does, and each output row is Cast back (CAST_RINT) once before it leaves.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;
constexpr uint32_t UB_BUDGET = 188 * 1024;
constexpr uint32_t CHUNK_BYTES = 16 * 1024;  // a weight chunk, at least one padded row

// n padded to 32 bytes of an es-byte type (8 floats, 16 halves): the padded width of every row, fp32 or input type.
static inline uint32_t padw(uint32_t n, uint32_t es) {
  const uint32_t a = 32 / es;
  return (n + a - 1) / a * a;
}
// The widest padded row the kernel works on.
static inline uint32_t widest(uint32_t Q, uint32_t NF, uint32_t C, uint32_t CR, uint32_t es) {
  uint32_t w = padw(Q, es);
  if (padw(NF, es) > w) w = padw(NF, es);
  if (padw(CR, es) > w) w = padw(CR, es);
  if (padw(C, es) > w) w = padw(C, es);
  return w;
}
// The UB bytes asked for: the x row, the cq, q_c|q_r and kv accumulators, the q_nope row, the rope rows, gammas,
// sin and cos, two temporaries of the widest row (all fp32), two weight chunks (chunk bytes of fp32 rows, in the input
// type); for a 2-byte type also the fp32 chunk the weights are Cast into and the staging row for inputs and outputs.
static inline uint32_t ub_bytes(uint32_t E, uint32_t Q, uint32_t NF, uint32_t C, uint32_t CR, uint32_t N, uint32_t R, uint32_t chunk,
                                uint32_t es) {
  const uint32_t w = widest(Q, NF, C, CR, es);
  uint32_t io = padw(E, es) > w ? padw(E, es) : w;
  if (N * padw(R, es) > io) io = N * padw(R, es);
  return 4 * (padw(E, es) + padw(Q, es) + padw(NF, es) + padw(CR, es) + padw(C, es) + N * padw(R, es) + padw(R, es) + padw(Q, es) +
              padw(C, es) + 2 * padw(R, es) + 2 * w + 16) +
         BUFFER_NUM * (chunk / 4 * es) + (es < 4 ? chunk + io * es : 0);
}

struct Dims {
  uint32_t T, E, Q, N, D, R, C, F, CR, chunk;
  float eps_cq, eps_ckv;
};

template <typename T> class KernelMlaProlog {
 public:
  __aicore__ inline KernelMlaProlog() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR wdq, GM_ADDR gcq, GM_ADDR wuq, GM_ADDR wuk, GM_ADDR wkv, GM_ADDR gckv, GM_ADDR sn, GM_ADDR cs,
                              GM_ADDR qn, GM_ADDR qr, GM_ADDR kc, GM_ADDR kr, const Dims& d) {
    d_ = d;
    const uint32_t NF = d.N * d.F;
    xGm_.SetGlobalBuffer((__gm__ T*)x, (uint64_t)d.T * d.E);
    wdqGm_.SetGlobalBuffer((__gm__ T*)wdq, (uint64_t)d.E * d.Q);
    gcqGm_.SetGlobalBuffer((__gm__ T*)gcq, d.Q);
    wuqGm_.SetGlobalBuffer((__gm__ T*)wuq, (uint64_t)d.Q * NF);
    wukGm_.SetGlobalBuffer((__gm__ T*)wuk, (uint64_t)d.N * d.D * d.C);
    wkvGm_.SetGlobalBuffer((__gm__ T*)wkv, (uint64_t)d.E * d.CR);
    gckvGm_.SetGlobalBuffer((__gm__ T*)gckv, d.C);
    sinGm_.SetGlobalBuffer((__gm__ T*)sn, (uint64_t)d.T * d.R);
    cosGm_.SetGlobalBuffer((__gm__ T*)cs, (uint64_t)d.T * d.R);
    qnGm_.SetGlobalBuffer((__gm__ T*)qn, (uint64_t)d.T * d.N * d.C);
    qrGm_.SetGlobalBuffer((__gm__ T*)qr, (uint64_t)d.T * d.N * d.R);
    kcGm_.SetGlobalBuffer((__gm__ T*)kc, (uint64_t)d.T * d.C);
    krGm_.SetGlobalBuffer((__gm__ T*)kr, (uint64_t)d.T * d.R);
    const uint32_t w = widest(d.Q, NF, d.C, d.CR, ES);
    pipe_.InitBuffer(wQ_, BUFFER_NUM, d.chunk / 4 * ES);  // chunk / 4 elements of T: the rows of one fp32 chunk
    pipe_.InitBuffer(x_, P(d.E) * 4);
    pipe_.InitBuffer(cq_, P(d.Q) * 4);
    pipe_.InitBuffer(qcr_, P(NF) * 4);
    pipe_.InitBuffer(kv_, P(d.CR) * 4);
    pipe_.InitBuffer(qn_, P(d.C) * 4);
    pipe_.InitBuffer(qrb_, d.N * P(d.R) * 4);
    pipe_.InitBuffer(krb_, P(d.R) * 4);
    pipe_.InitBuffer(gcq_, P(d.Q) * 4);
    pipe_.InitBuffer(gckv_, P(d.C) * 4);
    pipe_.InitBuffer(sin_, P(d.R) * 4);
    pipe_.InitBuffer(cos_, P(d.R) * 4);
    pipe_.InitBuffer(tmp_, w * 4);
    pipe_.InitBuffer(work_, w * 4);
    pipe_.InitBuffer(s_, 16 * 4);
    if constexpr (!IS_F32) {
      uint32_t io = P(d.E) > w ? P(d.E) : w;
      if (d.N * P(d.R) > io) io = d.N * P(d.R);
      pipe_.InitBuffer(wf_, d.chunk);
      pipe_.InitBuffer(io_, io * ES);
    }
  }
  __aicore__ inline void Process() {
    LocalTensor<float> gq = gcq_.Get<float>(), gk = gckv_.Get<float>();
    if constexpr (IS_F32) {
      DataCopyPad(gq, gcqGm_, DataCopyExtParams{1, d_.Q * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, (uint8_t)(P(d_.Q) - d_.Q), 0.0f});
      DataCopyPad(gk, gckvGm_, DataCopyExtParams{1, d_.C * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, (uint8_t)(P(d_.C) - d_.C), 0.0f});
    } else {
      In(gq, gcqGm_, d_.Q);
      In(gk, gckvGm_, d_.C);
    }
    for (uint64_t t = GetBlockIdx(); t < d_.T; t += GetBlockNum()) Token((uint32_t)t);
  }

 private:
  __aicore__ inline void Sync() {  // every pipe done before the scalar unit or a copy reads what another wrote
    PipeBarrier<PIPE_ALL>();
  }
  __aicore__ inline void Token(uint32_t t) {
    const uint32_t NF = d_.N * d_.F, Rp = P(d_.R);
    LocalTensor<float> x = x_.Get<float>(), cq = cq_.Get<float>(), qcr = qcr_.Get<float>(), kv = kv_.Get<float>(), qn = qn_.Get<float>(),
                       qrb = qrb_.Get<float>(), krb = krb_.Get<float>(), sn = sin_.Get<float>(), cs = cos_.Get<float>();
    Sync();
    if constexpr (IS_F32) {
      DataCopyPad(x, xGm_[(uint64_t)t * d_.E], DataCopyExtParams{1, d_.E * 4, 0, 0, 0},
                  DataCopyPadExtParams<float>{true, 0, (uint8_t)(P(d_.E) - d_.E), 0.0f});
      DataCopyPad(sn, sinGm_[(uint64_t)t * d_.R], DataCopyExtParams{1, d_.R * 4, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
      DataCopyPad(cs, cosGm_[(uint64_t)t * d_.R], DataCopyExtParams{1, d_.R * 4, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    } else {
      In(x, xGm_[(uint64_t)t * d_.E], d_.E);
      In(sn, sinGm_[(uint64_t)t * d_.R], d_.R);
      In(cs, cosGm_[(uint64_t)t * d_.R], d_.R);
    }
    Sync();
    // c^Q = RmsNorm(x W_DQ) * gamma_cq
    Gemv(cq, wdqGm_, 0, d_.E, d_.Q, x, 0);
    Norm(cq, d_.Q, gcq_.Get<float>(), d_.eps_cq);
    // [q^C | q^R'] for all heads = c^Q W_UQ_QR
    Gemv(qcr, wuqGm_, 0, d_.Q, NF, cq, 0);
    // q_nope[t, n] = q^C_n W_UK[n]
    for (uint32_t n = 0; n < d_.N; ++n) {
      Gemv(qn, wukGm_, (uint64_t)n * d_.D * d_.C, d_.D, d_.C, qcr, n * d_.F);
      Out(qnGm_[((uint64_t)t * d_.N + n) * d_.C], qn, 1, d_.C);
    }
    // q_rope[t, n] = RoPE(q^R'_n), every head into one padded block, out in one copy
    Sync();
    for (uint32_t n = 0; n < d_.N; ++n) Rope(qrb, n * Rp, qcr, n * d_.F + d_.D, sn, cs);
    Out(qrGm_[(uint64_t)t * d_.N * d_.R], qrb, d_.N, d_.R);
    // [k_c | k_r'] = x W_DKV_KR; k_r = RoPE(k_r') first (the norm scales the padded row in place), then k_c = RmsNorm * gamma_ckv
    Gemv(kv, wkvGm_, 0, d_.E, d_.CR, x, 0);
    Sync();
    Rope(krb, 0, kv, d_.C, sn, cs);
    Out(krGm_[(uint64_t)t * d_.R], krb, 1, d_.R);
    Norm(kv, d_.C, gckv_.Get<float>(), d_.eps_ckv);
    Out(kcGm_[(uint64_t)t * d_.C], kv, 1, d_.C);
  }
  // dst[0, P(n)) = the n values at src as fp32, the padding zero: in the input type through the staging row, then Cast.
  __aicore__ inline void In(const LocalTensor<float>& dst, const GlobalTensor<T>& src, uint32_t n) {
    LocalTensor<T> io = io_.Get<T>();
    Sync();
    DataCopyPad(io, src, DataCopyExtParams{1, n * ES, 0, 0, 0}, DataCopyPadExtParams<T>{true, 0, (uint8_t)(P(n) - n), T(0.0f)});
    Sync();
    Cast(dst, io, RoundMode::CAST_NONE, P(n));
    Sync();
  }
  // rows rows of n values (row stride P(n) in the UB) out to dst; a 2-byte type rounded once (CAST_RINT) on the way.
  __aicore__ inline void Out(const GlobalTensor<T>& dst, const LocalTensor<float>& src, uint32_t rows, uint32_t n) {
    Sync();
    if constexpr (IS_F32) {
      DataCopyPad(dst, src, DataCopyExtParams{(uint16_t)rows, n * 4, 0, 0, 0});
    } else {
      LocalTensor<T> io = io_.Get<T>();
      Cast(io, src, RoundMode::CAST_RINT, rows == 1 ? n : rows * P(n));
      Sync();
      DataCopyPad(dst, io, DataCopyExtParams{(uint16_t)rows, n * ES, 0, 0, 0});
      Sync();
    }
  }
  // Rows [r0, r0 + nr) of the [rows, w] weight at base, each padded to wp with zeros.
  __aicore__ inline void CopyIn(const GlobalTensor<T>& W, uint64_t base, uint32_t r0, uint32_t nr, uint32_t w) {
    LocalTensor<T> wb = wQ_.template AllocTensor<T>();
    DataCopyPad(wb, W[base + (uint64_t)r0 * w], DataCopyExtParams{(uint16_t)nr, w * ES, 0, 0, 0},
                DataCopyPadExtParams<T>{true, 0, (uint8_t)(P(w) - w), T(0.0f)});
    wQ_.EnQue(wb);
  }
  // acc[0, w) = sum_r coef[off + r] W[base + r w .. + w) over rows r < rows.
  __aicore__ inline void Gemv(const LocalTensor<float>& acc, const GlobalTensor<T>& W, uint64_t base, uint32_t rows, uint32_t w,
                              const LocalTensor<float>& coef, uint32_t off) {
    const uint32_t wp = P(w), per = d_.chunk / (wp * 4);
    LocalTensor<float> tmp = tmp_.Get<float>();
    Sync();
    Duplicate(acc, 0.0f, (int32_t)wp);
    if (rows == 0) return;
    CopyIn(W, base, 0, rows < per ? rows : per, w);
    for (uint32_t r0 = 0; r0 < rows; r0 += per) {
      const uint32_t nr = rows - r0 < per ? rows - r0 : per;
      LocalTensor<T> wq = wQ_.template DeQue<T>();
      if (r0 + per < rows) CopyIn(W, base, r0 + per, rows - r0 - per < per ? rows - r0 - per : per, w);  // the next chunk streams in
      LocalTensor<float> wb;
      if constexpr (IS_F32) {
        wb = wq;
      } else {  // the chunk to fp32 once; its queue buffer goes back at once
        wb = wf_.Get<float>();
        Cast(wb, wq, RoundMode::CAST_NONE, nr * wp);
        wQ_.FreeTensor(wq);
      }
      for (uint32_t r = 0; r < nr; ++r) {
        Muls(tmp, wb[r * wp], coef.GetValue(off + r0 + r), (int32_t)wp);
        Add(acc, acc, tmp, (int32_t)wp);
      }
      if constexpr (IS_F32) wQ_.FreeTensor(wq);
    }
  }
  // v[0, n) = v / sqrt(mean(v^2) + eps) * gamma.
  __aicore__ inline void Norm(const LocalTensor<float>& v, uint32_t n, const LocalTensor<float>& gamma, float eps) {
    LocalTensor<float> tmp = tmp_.Get<float>(), w = work_.Get<float>(), s = s_.Get<float>();
    Mul(tmp, v, v, (int32_t)n);
    ReduceSum(s, tmp, w, (int32_t)n);
    Sync();
    s.SetValue(0, s.GetValue(0) / (float)n + eps);
    Sync();
    Sqrt(s, s, 8);
    Duplicate(s[8], 1.0f, 8);
    Div(s, s[8], s, 8);
    Sync();
    const float rstd = s.GetValue(0);
    Muls(v, v, rstd, (int32_t)P(n));
    Mul(v, v, gamma, (int32_t)P(n));
  }
  // dst[doff + i] = v[i] cos[i] + rotate_half(v)[i] sin[i], v = src[soff .. soff + R), on the scalar unit.
  __aicore__ inline void Rope(LocalTensor<float> dst, uint32_t doff, const LocalTensor<float>& src, uint32_t soff,
                              const LocalTensor<float>& sn, const LocalTensor<float>& cs) {
    const uint32_t h = d_.R / 2;
    for (uint32_t i = 0; i < d_.R; ++i) {
      const float rot = i < h ? -src.GetValue(soff + i + h) : src.GetValue(soff + i - h);
      dst.SetValue(doff + i, src.GetValue(soff + i) * cs.GetValue(i) + rot * sn.GetValue(i));
    }
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> wQ_;
  TBuf<QuePosition::VECCALC> x_, cq_, qcr_, kv_, qn_, qrb_, krb_, gcq_, gckv_, sin_, cos_, tmp_, work_, s_, wf_, io_;
  static constexpr bool IS_F32 = sizeof(T) == 4;
  static constexpr uint32_t ES = sizeof(T);
  // n padded to 32 bytes of T: every fp32 row is as wide as its input-type row, so one Cast converts a block of rows.
  static __aicore__ inline uint32_t P(uint32_t n) { return padw(n, ES); }
  GlobalTensor<T> xGm_, wdqGm_, gcqGm_, wuqGm_, wukGm_, wkvGm_, gckvGm_, sinGm_, cosGm_, qnGm_, qrGm_, kcGm_, krGm_;
  Dims d_{};
};

extern "C" __global__ __aicore__ void mla_prolog_custom(GM_ADDR x, GM_ADDR wdq, GM_ADDR gcq, GM_ADDR wuq, GM_ADDR wuk, GM_ADDR wkv, GM_ADDR gckv,
                                                        GM_ADDR sn, GM_ADDR cs, GM_ADDR qn, GM_ADDR qr, GM_ADDR kc, GM_ADDR kr, uint32_t T,
                                                        uint32_t E, uint32_t Q, uint32_t N, uint32_t D, uint32_t R, uint32_t C,
                                                        uint32_t chunk, float eps_cq, float eps_ckv, uint32_t dt) {
  const Dims d{T, E, Q, N, D, R, C, D + R, C + R, chunk, eps_cq, eps_ckv};
  if (dt == 1) {
    KernelMlaProlog<half> op;
    op.Init(x, wdq, gcq, wuq, wuk, wkv, gckv, sn, cs, qn, qr, kc, kr, d);
    op.Process();
  } else if (dt == 2) {
    KernelMlaProlog<bfloat16_t> op;
    op.Init(x, wdq, gcq, wuq, wuk, wkv, gckv, sn, cs, qn, qr, kc, kr, d);
    op.Process();
  } else {
    KernelMlaProlog<float> op;
    op.Init(x, wdq, gcq, wuq, wuk, wkv, gckv, sn, cs, qn, qr, kc, kr, d);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  // dt: 0 fp32, 1 fp16, 2 bf16; every tensor shares x's dtype.
  const int xt = a->inputs[0].dtype;
  const uint32_t dt = xt == KOPE_F32 ? 0 : xt == KOPE_F16 ? 1 : xt == KOPE_BF16 ? 2 : 3;
  if (dt == 3) return 1;
  for (int i = 0; i < 9; ++i)
    if (a->inputs[i].dtype != xt) return 1;
  for (int i = 0; i < 4; ++i)
    if (a->outputs[i].dtype != xt) return 1;
  const uint32_t es = dt == 0 ? 4 : 2;
  Dims d{};
  d.T = (uint32_t)a->inputs[0].shape[0], d.E = (uint32_t)a->inputs[0].shape[1], d.Q = (uint32_t)a->inputs[1].shape[1];
  d.N = (uint32_t)a->inputs[4].shape[0], d.D = (uint32_t)a->inputs[4].shape[1], d.C = (uint32_t)a->inputs[4].shape[2];
  d.R = (uint32_t)a->inputs[7].shape[1], d.CR = (uint32_t)a->inputs[5].shape[1];
  d.F = d.N ? (uint32_t)(a->inputs[3].shape[1] / d.N) : 0;
  d.eps_cq = (float)kope_attr_or(a, "eps_cq", 1e-5), d.eps_ckv = (float)kope_attr_or(a, "eps_ckv", 1e-5);
  if (d.T == 0) return 0;
  if (d.N == 0 || d.F != d.D + d.R || d.CR != d.C + d.R || d.R % 2 != 0) return 1;
  const uint32_t w = widest(d.Q, d.N * d.F, d.C, d.CR, es);
  d.chunk = w * 4 > CHUNK_BYTES ? w * 4 : CHUNK_BYTES;
  if (ub_bytes(d.E, d.Q, d.N * d.F, d.C, d.CR, d.N, d.R, d.chunk, es) > UB_BUDGET) return 1;  // rows wider than the UB holds in this form
  const uint32_t blockDim = d.T < MAX_CORES ? d.T : MAX_CORES;
  GM_ADDR p[13];
  for (int i = 0; i < 9; ++i) p[i] = (GM_ADDR)a->inputs[i].data;
  for (int i = 0; i < 4; ++i) p[9 + i] = (GM_ADDR)a->outputs[i].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(mla_prolog_custom, blockDim, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], d.T, d.E, d.Q,
              d.N, d.D, d.R, d.C, d.chunk, d.eps_cq, d.eps_ckv, dt);
#else
  mla_prolog_custom<<<blockDim, nullptr, stream>>>(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], d.T, d.E,
                                                   d.Q, d.N, d.D, d.R, d.C, d.chunk, d.eps_cq, d.eps_ckv, dt);
#endif
  return 0;
}
