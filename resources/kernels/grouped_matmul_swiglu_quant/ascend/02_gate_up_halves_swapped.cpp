// thought: group row blocks round-robin over the AI cores, exact int32 sums of the gate and up halves on the vector unit per 128-column chunk, the fp32 SwiGLU steps into a row buffer, per-row requantisation by a true division; the gate taken from the right half of the projection and the up from the left, as a fused [up | gate] weight is often stored.
// flaw: the halves are swapped: CANN's SwiGLU takes the gate (the SiLU input) from the left half, columns 0..H-1, and
// multiplies by the right half; silu(right) * left differs wherever the halves differ.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
// The vector unit, not the Cube: the CPU twin's AscendC has no Mmad/Fixpipe, so this kernel stays on the API it checks.
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t KB = 32;            // weight rows of a tile (an x tile row is then one 32-byte block)
constexpr uint32_t NT = 128;           // gate (and up) columns of a chunk
constexpr uint32_t ACT_FLOATS = 8192;  // the block's SwiGLU rows in fp32: MB * Hp <= this
constexpr uint32_t MAX_MB = 16;
constexpr uint32_t MAX_H = 2048;
constexpr uint32_t ZT = 8192;          // bytes of the zero tile
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

class KernelGmmSwigluQuant {
 public:
  __aicore__ inline KernelGmmSwigluQuant() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR ws, GM_ADDR xs, GM_ADDR groups, GM_ADDR y, GM_ADDR ys,
                              uint64_t M, uint64_t K, uint64_t H, uint32_t E, uint32_t MB) {
    M_ = M, K_ = K, H_ = H, N_ = 2 * H, E_ = E, MB_ = MB;
    Hp_ = RoundUp((uint32_t)H, 64), Hy_ = RoundUp((uint32_t)H, 32);
    xGm_.SetGlobalBuffer((__gm__ int8_t*)x, M * K);
    wGm_.SetGlobalBuffer((__gm__ int8_t*)w, (uint64_t)E * K * N_);
    wsGm_.SetGlobalBuffer((__gm__ float*)ws, (uint64_t)E * N_);
    xsGm_.SetGlobalBuffer((__gm__ float*)xs, M);
    gGm_.SetGlobalBuffer((__gm__ int64_t*)groups, E);
    yGm_.SetGlobalBuffer((__gm__ int8_t*)y, M * H);
    ysGm_.SetGlobalBuffer((__gm__ float*)ys, M);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, MAX_MB * 32);
    pipe_.InitBuffer(gQ_, BUFFER_NUM, KB * NT);
    pipe_.InitBuffer(uQ_, BUFFER_NUM, KB * NT);
    pipe_.InitBuffer(vQ_, 1, 2 * NT * sizeof(float));
    pipe_.InitBuffer(yQ_, BUFFER_NUM, MB * Hy_ > ZT ? MB * Hy_ : ZT);
    pipe_.InitBuffer(ysQ_, 1, MAX_MB * sizeof(float) > ZT ? MAX_MB * sizeof(float) : ZT);
    pipe_.InitBuffer(wh_, KB * NT * sizeof(half));
    pipe_.InitBuffer(wiG_, KB * NT * sizeof(int32_t));
    pipe_.InitBuffer(wiU_, KB * NT * sizeof(int32_t));
    pipe_.InitBuffer(accG_, MAX_MB * NT * sizeof(int32_t));
    pipe_.InitBuffer(accU_, MAX_MB * NT * sizeof(int32_t));
    pipe_.InitBuffer(lf_, NT * sizeof(float));
    pipe_.InitBuffer(rf_, NT * sizeof(float));
    pipe_.InitBuffer(t_, NT * sizeof(float));
    pipe_.InitBuffer(act_, ACT_FLOATS * sizeof(float));
    pipe_.InitBuffer(qf_, MAX_H * sizeof(float));
    pipe_.InitBuffer(qi_, MAX_H * sizeof(int32_t));
    pipe_.InitBuffer(qh_, MAX_H * sizeof(half));
    pipe_.InitBuffer(work_, MAX_H * sizeof(float));
    pipe_.InitBuffer(s_, 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    uint64_t start = 0, item = 0;
    const uint64_t me = GetBlockIdx(), cores = GetBlockNum();
    for (uint32_t g = 0; g < E_; ++g) {
      const uint64_t cnt = (uint64_t)gGm_.GetValue(g);
      for (uint64_t m0 = 0; m0 < cnt; m0 += MB_, ++item)
        if (item % cores == me) Item(g, start + m0, cnt - m0 < MB_ ? (uint32_t)(cnt - m0) : MB_);
      start += cnt;
    }
    ZeroRows(start);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t g, uint64_t row, uint32_t mr, uint64_t n0, uint32_t nt, uint64_t k0, uint32_t kb) {
    LocalTensor<int8_t> xt = xQ_.AllocTensor<int8_t>();
    DataCopyPad(xt, xGm_[row * K_ + k0], DataCopyExtParams{(uint16_t)mr, kb, (uint32_t)(K_ - kb), 0, 0},
                DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    xQ_.EnQue(xt);
    const DataCopyExtParams p{(uint16_t)kb, nt, (uint32_t)(N_ - nt), 0, 0};  // nt int8 columns of kb weight rows
    LocalTensor<int8_t> gt = gQ_.AllocTensor<int8_t>();
    DataCopyPad(gt, wGm_[((uint64_t)g * K_ + k0) * N_ + H_ + n0], p, DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    gQ_.EnQue(gt);
    LocalTensor<int8_t> ut = uQ_.AllocTensor<int8_t>();
    DataCopyPad(ut, wGm_[((uint64_t)g * K_ + k0) * N_ + n0], p, DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    uQ_.EnQue(ut);
  }
  __aicore__ inline void Widen(const LocalTensor<int8_t>& q, const LocalTensor<int32_t>& wi, uint32_t n) {
    LocalTensor<half> wh = wh_.Get<half>();
    Cast(wh, q, RoundMode::CAST_NONE, n);  // int8 -> half: exact
    PipeBarrier<PIPE_V>();
    Cast(wi, wh, RoundMode::CAST_RINT, n);  // half -> int32: exact for integers
    PipeBarrier<PIPE_V>();
  }
  __aicore__ inline void Item(uint32_t g, uint64_t row, uint32_t mr) {
    LocalTensor<float> act = act_.Get<float>();
    for (uint64_t n0 = 0; n0 < H_; n0 += NT) {
      const uint32_t nt = H_ - n0 < NT ? (uint32_t)(H_ - n0) : NT, ntp = RoundUp(nt, 32);
      Chunk(g, row, mr, n0, nt, ntp, act);
    }
    Requantise(row, mr, act);
  }
  // gate and up columns [n0, n0 + nt): exact int32 sums, then the fp32 SwiGLU into act
  __aicore__ inline void Chunk(uint32_t g, uint64_t row, uint32_t mr, uint64_t n0, uint32_t nt, uint32_t ntp,
                               const LocalTensor<float>& act) {
    LocalTensor<int32_t> accG = accG_.Get<int32_t>(), accU = accU_.Get<int32_t>(), wiG = wiG_.Get<int32_t>(),
                         wiU = wiU_.Get<int32_t>();
    LocalTensor<int32_t> tmp = t_.Get<int32_t>();
    Duplicate(accG, (int32_t)0, (int32_t)(mr * ntp));
    Duplicate(accU, (int32_t)0, (int32_t)(mr * ntp));
    PipeBarrier<PIPE_V>();
    const uint64_t tiles = (K_ + KB - 1) / KB;
    CopyIn(g, row, mr, n0, nt, 0, K_ < KB ? (uint32_t)K_ : KB);
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t k0 = t * KB;
      const uint32_t kb = K_ - k0 < KB ? (uint32_t)(K_ - k0) : KB;
      if (t + 1 < tiles) CopyIn(g, row, mr, n0, nt, k0 + KB, K_ - k0 - KB < KB ? (uint32_t)(K_ - k0 - KB) : KB);
      LocalTensor<int8_t> xt = xQ_.DeQue<int8_t>(), gt = gQ_.DeQue<int8_t>(), ut = uQ_.DeQue<int8_t>();
      Widen(gt, wiG, kb * ntp);
      Widen(ut, wiU, kb * ntp);
      gQ_.FreeTensor(gt);
      uQ_.FreeTensor(ut);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < mr; ++m)
        for (uint32_t k = 0; k < kb; ++k) {
          const int32_t xv = (int32_t)xt.GetValue(m * 32 + k);
          if (xv == 0) continue;
          Muls(tmp, wiG[k * ntp], xv, nt);
          PipeBarrier<PIPE_V>();
          Add(accG[m * ntp], accG[m * ntp], tmp, nt);
          PipeBarrier<PIPE_V>();
          Muls(tmp, wiU[k * ntp], xv, nt);
          PipeBarrier<PIPE_V>();
          Add(accU[m * ntp], accU[m * ntp], tmp, nt);
          PipeBarrier<PIPE_V>();
        }
      xQ_.FreeTensor(xt);
    }
    // the chunk's weight scales: gate columns H + n0.., up columns n0..
    LocalTensor<float> v = vQ_.AllocTensor<float>();
    const DataCopyExtParams one{1, nt * (uint32_t)sizeof(float), 0, 0, 0};
    DataCopyPad(v, wsGm_[(uint64_t)g * N_ + H_ + n0], one, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(v[NT], wsGm_[(uint64_t)g * N_ + n0], one, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    vQ_.EnQue(v);
    v = vQ_.DeQue<float>();
    LocalTensor<float> lf = lf_.Get<float>(), rf = rf_.Get<float>(), e = t_.Get<float>();
    for (uint32_t m = 0; m < mr; ++m) {
      const float xsm = xsGm_.GetValue(row + m);
      LocalTensor<float> a = act[m * Hp_ + (uint32_t)n0];
      Cast(lf, accG[m * ntp], RoundMode::CAST_NONE, nt);  // (float)mm, rounded to nearest
      Cast(rf, accU[m * ntp], RoundMode::CAST_NONE, nt);
      PipeBarrier<PIPE_V>();
      Muls(lf, lf, xsm, nt);
      Muls(rf, rf, xsm, nt);
      PipeBarrier<PIPE_V>();
      Mul(lf, lf, v, nt);      // l = ((float)mm * x_scale) * w_scale
      Mul(rf, rf, v[NT], nt);  // r
      PipeBarrier<PIPE_V>();
      Muls(e, lf, -1.0f, nt);
      PipeBarrier<PIPE_V>();
      Exp(e, e, nt);
      PipeBarrier<PIPE_V>();
      Adds(e, e, 1.0f, nt);
      PipeBarrier<PIPE_V>();
      Div(a, lf, e, nt);  // l / (1 + e^-l): -0 where e^-l overflows
      PipeBarrier<PIPE_V>();
      Mul(a, a, rf, nt);
      PipeBarrier<PIPE_V>();
    }
    vQ_.FreeTensor(v);
  }
  // per row: scale = max |act| / 127, y = rint(act / scale) clamped to +-127
  __aicore__ inline void Requantise(uint64_t row, uint32_t mr, const LocalTensor<float>& act) {
    LocalTensor<float> qf = qf_.Get<float>(), work = work_.Get<float>(), s = s_.Get<float>();
    LocalTensor<int32_t> qi = qi_.Get<int32_t>();
    LocalTensor<half> qh = qh_.Get<half>();
    LocalTensor<int8_t> y = yQ_.AllocTensor<int8_t>();
    LocalTensor<float> ys = ysQ_.AllocTensor<float>();
    const int32_t H = (int32_t)H_;
    for (uint32_t m = 0; m < mr; ++m) {
      LocalTensor<float> a = act[m * Hp_];
      Abs(qf, a, H);
      PipeBarrier<PIPE_V>();
      ReduceMax(s, qf, work, H);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      const float scale = s.GetValue(0) / 127.0f;
      ys.SetValue(m, scale);
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      if (scale == 0.0f) {
        Duplicate(qh, (half)0.0f, H);
      } else {
        Duplicate(qf, scale, H);
        PipeBarrier<PIPE_V>();
        Div(qf, a, qf, H);  // a true division by the fp32 scale
        PipeBarrier<PIPE_V>();
        Mins(qf, qf, 127.0f, H);
        PipeBarrier<PIPE_V>();
        Maxs(qf, qf, -127.0f, H);
        PipeBarrier<PIPE_V>();
        Cast(qi, qf, RoundMode::CAST_RINT, H);  // half to even
        PipeBarrier<PIPE_V>();
        Cast(qh, qi, RoundMode::CAST_NONE, H);  // |q| <= 127: exact
      }
      PipeBarrier<PIPE_V>();
      Cast(y[m * Hy_], qh, RoundMode::CAST_NONE, H);
      PipeBarrier<PIPE_V>();
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    yQ_.EnQue(y);
    ysQ_.EnQue(ys);
    y = yQ_.DeQue<int8_t>();
    ys = ysQ_.DeQue<float>();
    DataCopyPad(yGm_[row * H_], y, DataCopyExtParams{(uint16_t)mr, (uint32_t)H_, 0, 0, 0});
    DataCopyPad(ysGm_[row], ys, DataCopyExtParams{1, mr * (uint32_t)sizeof(float), 0, 0, 0});
    yQ_.FreeTensor(y);
    ysQ_.FreeTensor(ys);
  }
  // rows S.. of y and y_scale: this core's share, from zero tiles
  __aicore__ inline void ZeroRows(uint64_t S) {
    if (S >= M_) return;
    const uint64_t cores = GetBlockNum(), me = GetBlockIdx();
    const uint64_t rows = M_ - S, per = (rows + cores - 1) / cores, r0 = S + me * per;
    if (me * per >= rows) return;
    const uint64_t nr = rows - me * per < per ? rows - me * per : per;
    LocalTensor<int8_t> z = yQ_.AllocTensor<int8_t>();
    LocalTensor<float> zs = ysQ_.AllocTensor<float>();
    Duplicate(z.ReinterpretCast<int32_t>(), (int32_t)0, (int32_t)(ZT / 4));
    Duplicate(zs, 0.0f, (int32_t)(ZT / 4));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    const uint64_t bytes = nr * H_;
    for (uint64_t b = 0; b < bytes; b += ZT) {
      const uint32_t len = bytes - b < ZT ? (uint32_t)(bytes - b) : ZT;
      DataCopyPad(yGm_[r0 * H_ + b], z, DataCopyExtParams{1, len, 0, 0, 0});
    }
    for (uint64_t i = 0; i < nr; i += ZT / 4) {
      const uint32_t len = nr - i < ZT / 4 ? (uint32_t)(nr - i) : ZT / 4;
      DataCopyPad(ysGm_[r0 + i], zs, DataCopyExtParams{1, len * (uint32_t)sizeof(float), 0, 0, 0});
    }
    yQ_.FreeTensor(z);
    ysQ_.FreeTensor(zs);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, gQ_, uQ_;
  TQue<QuePosition::VECIN, 1> vQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
  TQue<QuePosition::VECOUT, 1> ysQ_;
  TBuf<QuePosition::VECCALC> wh_, wiG_, wiU_, accG_, accU_, lf_, rf_, t_, act_, qf_, qi_, qh_, work_, s_;
  GlobalTensor<int8_t> xGm_, wGm_, yGm_;
  GlobalTensor<float> wsGm_, xsGm_, ysGm_;
  GlobalTensor<int64_t> gGm_;
  uint64_t M_ = 0, K_ = 0, H_ = 0, N_ = 0;
  uint32_t E_ = 0, MB_ = 1, Hp_ = 64, Hy_ = 32;
};

extern "C" __global__ __aicore__ void gmm_swiglu_quant_custom(GM_ADDR x, GM_ADDR w, GM_ADDR ws, GM_ADDR xs, GM_ADDR groups,
                                                              GM_ADDR y, GM_ADDR ys, uint64_t M, uint64_t K, uint64_t H,
                                                              uint32_t E, uint32_t MB) {
  KernelGmmSwigluQuant op;
  op.Init(x, w, ws, xs, groups, y, ys, M, K, H, E, MB);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *w = &a->inputs[1], *y = &a->outputs[0];
  if (x->dtype != KOPE_I8 || w->dtype != KOPE_I8 || a->inputs[2].dtype != KOPE_F32 || a->inputs[3].dtype != KOPE_F32 ||
      a->inputs[4].dtype != KOPE_I64 || y->dtype != KOPE_I8 || a->outputs[1].dtype != KOPE_F32 || x->ndim != 2 ||
      w->ndim != 3 || w->shape[2] % 2 != 0)
    return 1;
  const uint64_t M = (uint64_t)x->shape[0], K = (uint64_t)x->shape[1], H = (uint64_t)w->shape[2] / 2;
  const uint32_t E = (uint32_t)w->shape[0];
  if (H > MAX_H || K == 0 || H == 0) return 1;  // the row buffers hold H <= 2048
  if (M == 0) return 0;
  const uint32_t Hp = ((uint32_t)H + 63) / 64 * 64;
  uint32_t MB = ACT_FLOATS / Hp;
  MB = MB > MAX_MB ? MAX_MB : MB < 1 ? 1 : MB;
  const uint64_t items = M / MB + E;
  const uint32_t blockDim = items < MAX_CORES ? (uint32_t)items : MAX_CORES;
  GM_ADDR p[7];
  for (int i = 0; i < 5; ++i) p[i] = (GM_ADDR)a->inputs[i].data;
  p[5] = (GM_ADDR)y->data;
  p[6] = (GM_ADDR)a->outputs[1].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(gmm_swiglu_quant_custom, blockDim, p[0], p[1], p[2], p[3], p[4], p[5], p[6], M, K, H, E, MB);
#else
  gmm_swiglu_quant_custom<<<blockDim, nullptr, stream>>>(p[0], p[1], p[2], p[3], p[4], p[5], p[6], M, K, H, E, MB);
#endif
  return 0;
}
