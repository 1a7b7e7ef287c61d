// thought: re-routing moves whole blocks of rows: a (rank, expert) block is contiguous in tokens and in the output, so after the offsets (a scalar prefix sum over the counts, kept in the UB) each AI core takes an equal share of output rows and streams the blocks that fall in it GM -> UB -> GM as raw bytes through a double-buffered queue (DataCopyPad, any length, so int8/fp16/fp32 rows of any width and bits copied exactly), then writes its rows' scales and gather indices and zeroes the rows past the counts' sum.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_BYTES = 32 * 1024;  // bytes of token rows per copy
constexpr uint32_t ROW_TILE = 2048;         // rows of scales / gather indices per copy
constexpr uint32_t MAX_BLOCKS = 8192;       // R * E the UB holds (counts and offsets: 64 KB)
constexpr uint32_t MAX_CORES = 40;

// Output row o of expert e, rank r comes from tokens row src[r, e] + j; blocks are taken expert-major. Each core owns
// output rows [o0, o1): the blocks intersecting it are copied in byte tiles; rows S.. (past the counts' sum) are 0.
class KernelReRouting {
 public:
  __aicore__ inline KernelReRouting() {}
  __aicore__ inline void Init(GM_ADDR tokens, GM_ADDR counts, GM_ADDR scales, GM_ADDR out, GM_ADDR outScales,
                              GM_ADDR gidx, GM_ADDR num, uint64_t A, uint64_t rowBytes, uint32_t R, uint32_t E,
                              uint64_t rowsPerCore) {
    A_ = A, rowBytes_ = rowBytes, R_ = R, E_ = E;
    o0_ = GetBlockIdx() * rowsPerCore;
    o1_ = o0_ >= A ? o0_ : (A - o0_ < rowsPerCore ? A : o0_ + rowsPerCore);
    tGm_.SetGlobalBuffer((__gm__ uint8_t*)tokens, A * rowBytes);
    oGm_.SetGlobalBuffer((__gm__ uint8_t*)out, A * rowBytes);
    cGm_.SetGlobalBuffer((__gm__ int32_t*)counts, (uint64_t)R * E);
    sGm_.SetGlobalBuffer((__gm__ uint32_t*)scales, A);
    osGm_.SetGlobalBuffer((__gm__ uint32_t*)outScales, A);
    gGm_.SetGlobalBuffer((__gm__ int32_t*)gidx, A);
    nGm_.SetGlobalBuffer((__gm__ int64_t*)num, E);
    pipe_.InitBuffer(dQ_, BUFFER_NUM, TILE_BYTES);
    pipe_.InitBuffer(sQ_, BUFFER_NUM, ROW_TILE * sizeof(uint32_t));
    pipe_.InitBuffer(gQ_, BUFFER_NUM, ROW_TILE * sizeof(int32_t));
    pipe_.InitBuffer(cnt_, MAX_BLOCKS * sizeof(int32_t));
    pipe_.InitBuffer(src_, MAX_BLOCKS * sizeof(int32_t));
    pipe_.InitBuffer(num_, ((E + 3) / 4 * 4) * sizeof(int64_t));
  }

  __aicore__ inline void Process() {
    // counts into the UB, source offsets by a scalar prefix sum in rank-major order
    const uint32_t nb = R_ * E_;
    LocalTensor<int32_t> cnt = cnt_.Get<int32_t>(), src = src_.Get<int32_t>();
    DataCopyPad(cnt, cGm_, DataCopyExtParams{1, nb * (uint32_t)sizeof(int32_t), 0, 0, 0},
                DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    int64_t s = 0;
    for (uint32_t i = 0; i < nb; ++i) {
      src.SetValue(i, (int32_t)s);
      s += cnt.GetValue(i);
    }
    const uint64_t S = (uint64_t)s;
    if (GetBlockIdx() == 0) WriteNum(cnt);
    if (o0_ >= o1_) return;
    // the blocks, expert-major; dst is where the block starts in the output
    uint64_t dst = 0;
    for (uint32_t e = 0; e < E_ && dst < o1_; ++e)
      for (uint32_t r = 0; r < R_ && dst < o1_; ++r) {
        const uint64_t c = (uint64_t)cnt.GetValue(r * E_ + e);
        const uint64_t lo = dst > o0_ ? dst : o0_, hi = dst + c < o1_ ? dst + c : o1_;
        if (lo < hi) CopyRows((uint64_t)src.GetValue(r * E_ + e) + (lo - dst), lo, hi - lo);
        dst += c;
      }
    // scales and gather indices of this core's rows, in row tiles
    for (uint64_t t = o0_; t < o1_; t += ROW_TILE) {
      const uint32_t n = o1_ - t < ROW_TILE ? (uint32_t)(o1_ - t) : ROW_TILE;
      Indices(cnt, src, t, n);
    }
    if (S < o1_) ZeroRows(S > o0_ ? S : o0_, o1_);
  }

 private:
  // Rows [from, from + n) of tokens to rows [to, to + n) of the output: one contiguous byte range.
  __aicore__ inline void CopyRows(uint64_t from, uint64_t to, uint64_t n) {
    const uint64_t bytes = n * rowBytes_;
    for (uint64_t b = 0; b < bytes; b += TILE_BYTES) {
      const uint32_t len = bytes - b < TILE_BYTES ? (uint32_t)(bytes - b) : TILE_BYTES;
      LocalTensor<uint8_t> d = dQ_.AllocTensor<uint8_t>();
      DataCopyPad(d, tGm_[from * rowBytes_ + b], DataCopyExtParams{1, len, 0, 0, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
      dQ_.EnQue(d);
      d = dQ_.DeQue<uint8_t>();
      DataCopyPad(oGm_[to * rowBytes_ + b], d, DataCopyExtParams{1, len, 0, 0, 0});
      dQ_.FreeTensor(d);
    }
  }
  // Output rows [t, t + n): where each came from (a walk over the blocks), its scale's bits and the index; -1 and 0
  // past the counts' sum.
  __aicore__ inline void Indices(const LocalTensor<int32_t>& cnt, const LocalTensor<int32_t>& src, uint64_t t, uint32_t n) {
    LocalTensor<uint32_t> sc = sQ_.AllocTensor<uint32_t>();
    LocalTensor<int32_t> gi = gQ_.AllocTensor<int32_t>();
    uint32_t e = 0, r = 0, i = 0;
    uint64_t dst = 0;
    while (i < n && e < E_) {  // blocks before row t are skipped; the one holding row t + i starts at or before it
      const uint64_t c = (uint64_t)cnt.GetValue(r * E_ + e), base = (uint64_t)src.GetValue(r * E_ + e);
      for (; i < n && t + i < dst + c; ++i) {
        const uint64_t from = base + (t + i - dst);
        gi.SetValue(i, (int32_t)from);
        sc.SetValue(i, sGm_.GetValue(from));
      }
      dst += c;
      if (++r == R_) r = 0, ++e;
    }
    for (; i < n; ++i) gi.SetValue(i, -1), sc.SetValue(i, 0u);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    sQ_.EnQue(sc);
    gQ_.EnQue(gi);
    sc = sQ_.DeQue<uint32_t>();
    gi = gQ_.DeQue<int32_t>();
    DataCopyPad(osGm_[t], sc, DataCopyExtParams{1, n * (uint32_t)sizeof(uint32_t), 0, 0, 0});
    DataCopyPad(gGm_[t], gi, DataCopyExtParams{1, n * (uint32_t)sizeof(int32_t), 0, 0, 0});
    sQ_.FreeTensor(sc);
    gQ_.FreeTensor(gi);
  }
  __aicore__ inline void ZeroRows(uint64_t from, uint64_t to) {
    const uint64_t bytes = (to - from) * rowBytes_;
    LocalTensor<uint8_t> z = dQ_.AllocTensor<uint8_t>();
    Duplicate(z.ReinterpretCast<int32_t>(), (int32_t)0, (int32_t)(TILE_BYTES / sizeof(int32_t)));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    for (uint64_t b = 0; b < bytes; b += TILE_BYTES) {
      const uint32_t len = bytes - b < TILE_BYTES ? (uint32_t)(bytes - b) : TILE_BYTES;
      DataCopyPad(oGm_[from * rowBytes_ + b], z, DataCopyExtParams{1, len, 0, 0, 0});
    }
    dQ_.FreeTensor(z);
  }
  __aicore__ inline void WriteNum(const LocalTensor<int32_t>& cnt) {
    LocalTensor<int64_t> num = num_.Get<int64_t>();
    for (uint32_t e = 0; e < E_; ++e) {
      int64_t v = 0;
      for (uint32_t r = 0; r < R_; ++r) v += cnt.GetValue(r * E_ + e);
      num.SetValue(e, v);
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyPad(nGm_, num, DataCopyExtParams{1, E_ * (uint32_t)sizeof(int64_t), 0, 0, 0});
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> dQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> sQ_, gQ_;
  TBuf<QuePosition::VECCALC> cnt_, src_, num_;
  GlobalTensor<uint8_t> tGm_, oGm_;
  GlobalTensor<int32_t> cGm_, gGm_;
  GlobalTensor<uint32_t> sGm_, osGm_;
  GlobalTensor<int64_t> nGm_;
  uint64_t A_ = 0, rowBytes_ = 0, o0_ = 0, o1_ = 0;
  uint32_t R_ = 1, E_ = 1;
};

extern "C" __global__ __aicore__ void moe_re_routing_custom(GM_ADDR tokens, GM_ADDR counts, GM_ADDR scales, GM_ADDR out,
                                                            GM_ADDR outScales, GM_ADDR gidx, GM_ADDR num, uint64_t A,
                                                            uint64_t rowBytes, uint32_t R, uint32_t E, uint64_t rowsPerCore) {
  KernelReRouting op;
  op.Init(tokens, counts, scales, out, outScales, gidx, num, A, rowBytes, R, E, rowsPerCore);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *t = &a->inputs[0], *c = &a->inputs[1], *s = &a->inputs[2];
  const kope_tensor *o = &a->outputs[0], *os = &a->outputs[1], *g = &a->outputs[2], *n = &a->outputs[3];
  if (t->ndim != 2 || c->ndim != 2 || c->dtype != KOPE_I32 || s->dtype != KOPE_F32 || o->dtype != t->dtype ||
      os->dtype != KOPE_F32 || g->dtype != KOPE_I32 || n->dtype != KOPE_I64)
    return 1;
  const uint64_t esize = t->dtype == KOPE_F32 ? 4 : (t->dtype == KOPE_F16 || t->dtype == KOPE_BF16) ? 2 : t->dtype == KOPE_I8 ? 1 : 0;
  if (esize == 0) return 1;
  const uint64_t A = (uint64_t)t->shape[0], H = (uint64_t)t->shape[1];
  const uint32_t R = (uint32_t)c->shape[0], E = (uint32_t)c->shape[1];
  if ((uint64_t)R * E > MAX_BLOCKS || R == 0 || E == 0) return 1;  // the counts must fit in the UB
  if (A == 0) return 0;
  const uint64_t rowsPerCore = (A + MAX_CORES - 1) / MAX_CORES;
  const uint32_t blockDim = (uint32_t)((A + rowsPerCore - 1) / rowsPerCore);
  const uint64_t rowBytes = H * esize;
  GM_ADDR pt = (GM_ADDR)t->data, pc = (GM_ADDR)c->data, ps = (GM_ADDR)s->data, po = (GM_ADDR)o->data;
  GM_ADDR pos = (GM_ADDR)os->data, pg = (GM_ADDR)g->data, pn = (GM_ADDR)n->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(moe_re_routing_custom, blockDim, pt, pc, ps, po, pos, pg, pn, A, rowBytes, R, E, rowsPerCore);
#else
  moe_re_routing_custom<<<blockDim, nullptr, stream>>>(pt, pc, ps, po, pos, pg, pn, A, rowBytes, R, E, rowsPerCore);
#endif
  return 0;
}
