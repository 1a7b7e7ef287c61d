// thought: collapse the permutation on the host (axes of length 1 dropped, neighbours that stay neighbours merged) into a 4-D view; where the innermost axis stays innermost the rows are copied as strided DataCopyPad bursts through the UB, otherwise each core takes square tiles of (output's inner axis x input's inner axis), loads a tile as one strided burst, transposes it in the UB and stores it as one strided burst; values move as raw bits (4, 2 or 1 byte), so every dtype and every special value is exact.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_BYTES = 32 * 1024;  // one UB tile: 4 of them (in and out, double-buffered) use 128 KB
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// y = x.permute(q) on the collapsed 4-D view L[0..3] (leading axes of length 1 where fewer were left). T is the
// element's bits (uint32_t, uint16_t, uint8_t). Mode "rows" (q[3] == 3): output rows of L[3] elements are input
// rows; mode "tiles": T_ x T_ tiles of input axes q[3] (rows) and 3 (columns) are transposed in the UB.
template <typename T> class KernelTranspose {
 public:
  __aicore__ inline KernelTranspose() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const int64_t* L, const int64_t* q, uint32_t tile) {
    for (int k = 0; k < 4; ++k) L_[k] = L[k], q_[k] = q[k];
    is_[3] = 1;
    for (int k = 2; k >= 0; --k) is_[k] = is_[k + 1] * L_[k + 1];
    for (int k = 0; k < 4; ++k) M_[k] = L_[q_[k]];
    os_[3] = 1;
    for (int k = 2; k >= 0; --k) os_[k] = os_[k + 1] * M_[k + 1];
    const uint64_t total = (uint64_t)(is_[0] * L_[0]);
    xGm_.SetGlobalBuffer((__gm__ T*)x, total);
    yGm_.SetGlobalBuffer((__gm__ T*)y, total);
    tile_ = tile;
    pipe_.InitBuffer(inQ_, BUFFER_NUM, TILE_BYTES);
    pipe_.InitBuffer(outQ_, BUFFER_NUM, TILE_BYTES);
  }

  __aicore__ inline void Process() {
    if (q_[3] == 3) Rows();
    else Tiles();
  }

 private:
  // ---- rows: the innermost axis stays innermost -------------------------------------------------------------
  __aicore__ inline void Rows() {
    const uint64_t rowLen = (uint64_t)L_[3], rows = (uint64_t)(M_[0] * M_[1] * M_[2]);
    if (rowLen * sizeof(T) <= TILE_BYTES) {
      const uint32_t rowPad = Pad32((uint32_t)(rowLen * sizeof(T)));
      // Short rows: R whole output rows per unit (contiguous in y), loaded as bursts along output axis 2.
      const uint64_t R = TILE_BYTES / rowPad, units = (rows + R - 1) / R;
      uint64_t u0, u1;
      Share(units, u0, u1);
      for (uint64_t u = u0; u < u1; ++u) {
        const uint64_t r0 = u * R, n = rows - r0 < R ? rows - r0 : R;
        LocalTensor<T> in = inQ_.template AllocTensor<T>();
        for (uint64_t r = r0; r < r0 + n;) {
          const uint64_t j2 = r % M_[2], j1 = r / M_[2] % M_[1], j0 = r / M_[2] / M_[1];
          const uint64_t run = (M_[2] - j2) < (r0 + n - r) ? (M_[2] - j2) : (r0 + n - r);  // rows along axis 2
          const uint64_t src = j0 * is_[q_[0]] + j1 * is_[q_[1]] + j2 * is_[q_[2]];
          DataCopyPad(in[(uint32_t)((r - r0) * rowPad / sizeof(T))], xGm_[src],
                      DataCopyExtParams{(uint16_t)run, (uint32_t)(rowLen * sizeof(T)),
                                        (uint32_t)((is_[q_[2]] - rowLen) * sizeof(T)), 0, 0},
                      DataCopyPadExtParams<T>{false, 0, 0, 0});
          r += run;
        }
        inQ_.EnQue(in);
        Move((uint32_t)(n * rowPad / sizeof(T)));
        LocalTensor<T> out = outQ_.template DeQue<T>();
        DataCopyPad(yGm_[r0 * rowLen], out, DataCopyExtParams{(uint16_t)n, (uint32_t)(rowLen * sizeof(T)), 0, 0, 0});
        outQ_.FreeTensor(out);
      }
    } else {
      // Long rows: chunks of TILE_BYTES, contiguous on both sides.
      const uint64_t chunk = TILE_BYTES / sizeof(T), per = (rowLen + chunk - 1) / chunk, units = rows * per;
      uint64_t u0, u1;
      Share(units, u0, u1);
      for (uint64_t u = u0; u < u1; ++u) {
        const uint64_t r = u / per, c0 = u % per * chunk, n = rowLen - c0 < chunk ? rowLen - c0 : chunk;
        const uint64_t j2 = r % M_[2], j1 = r / M_[2] % M_[1], j0 = r / M_[2] / M_[1];
        const uint64_t src = j0 * is_[q_[0]] + j1 * is_[q_[1]] + j2 * is_[q_[2]] + c0;
        LocalTensor<T> in = inQ_.template AllocTensor<T>();
        DataCopyPad(in, xGm_[src], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ_.EnQue(in);
        Move(Pad32((uint32_t)(n * sizeof(T))) / sizeof(T));
        LocalTensor<T> out = outQ_.template DeQue<T>();
        DataCopyPad(yGm_[r * rowLen + c0], out, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
        outQ_.FreeTensor(out);
      }
    }
  }

  // The loaded tile to the out queue (a UB-to-UB copy of whole 32-byte blocks).
  __aicore__ inline void Move(uint32_t count) {
    LocalTensor<T> in = inQ_.template DeQue<T>();
    LocalTensor<T> out = outQ_.template AllocTensor<T>();
    DataCopy(out, in, count);
    outQ_.EnQue(out);
    inQ_.FreeTensor(in);
  }

  // ---- tiles: the innermost axis moves --------------------------------------------------------------------------
  __aicore__ inline void Tiles() {
    int ka = 0;  // the output position of input axis 3
    for (int k = 0; k < 3; ++k)
      if (q_[k] == 3) ka = k;
    int k1 = -1, k2 = -1;  // the two other output positions, in order
    for (int k = 0; k < 3; ++k)
      if (k != ka) {
        if (k1 < 0) k1 = k;
        else k2 = k;
      }
    const int64_t b = q_[3];
    const uint64_t tb = (L_[b] + tile_ - 1) / tile_, ta = (L_[3] + tile_ - 1) / tile_;
    const uint64_t units = (uint64_t)M_[k1] * M_[k2] * tb * ta;
    uint64_t u0, u1;
    Share(units, u0, u1);
    for (uint64_t u = u0; u < u1; ++u) {
      uint64_t v = u;
      const uint64_t ia = v % ta;
      v /= ta;
      const uint64_t ib = v % tb;
      v /= tb;
      const uint64_t o2 = v % M_[k2], o1 = v / M_[k2];
      const uint64_t nb = L_[b] - ib * tile_ < tile_ ? L_[b] - ib * tile_ : tile_;
      const uint64_t na = L_[3] - ia * tile_ < tile_ ? L_[3] - ia * tile_ : tile_;
      const uint64_t src = o1 * is_[q_[k1]] + o2 * is_[q_[k2]] + ib * tile_ * is_[b] + ia * tile_;
      const uint64_t dst = o1 * os_[k1] + o2 * os_[k2] + ia * tile_ * os_[ka] + ib * tile_;
      // CopyIn: nb input rows of na elements, is_[b] apart.
      LocalTensor<T> in = inQ_.template AllocTensor<T>();
      DataCopyPad(in, xGm_[src],
                  DataCopyExtParams{(uint16_t)nb, (uint32_t)(na * sizeof(T)), (uint32_t)((is_[b] - na) * sizeof(T)), 0, 0},
                  DataCopyPadExtParams<T>{false, 0, 0, 0});
      inQ_.EnQue(in);
      // Compute: out[j][i] = in[i][j] in the UB (rows padded to 32 bytes on both sides).
      in = inQ_.template DeQue<T>();
      LocalTensor<T> out = outQ_.template AllocTensor<T>();
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      const uint32_t pa = Pad32((uint32_t)(na * sizeof(T))) / sizeof(T), pb = Pad32((uint32_t)(nb * sizeof(T))) / sizeof(T);
      for (uint32_t i = 0; i < (uint32_t)nb; ++i)
        for (uint32_t j = 0; j < (uint32_t)na; ++j) out.SetValue(j * pb + i, in.GetValue(i * pa + j));
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      outQ_.EnQue(out);
      inQ_.FreeTensor(in);
      // CopyOut: na output rows of nb elements, os_[ka] apart.
      out = outQ_.template DeQue<T>();
      DataCopyPad(yGm_[dst], out,
                  DataCopyExtParams{(uint16_t)na, (uint32_t)(nb * sizeof(T)), 0, (uint32_t)((os_[ka] - nb) * sizeof(T)), 0});
      outQ_.FreeTensor(out);
    }
  }

  // This core's share [u0, u1) of `units` work units.
  __aicore__ inline void Share(uint64_t units, uint64_t& u0, uint64_t& u1) {
    const uint64_t cores = GetBlockNum(), per = (units + cores - 1) / cores;
    u0 = GetBlockIdx() * per;
    u1 = u0 + per < units ? u0 + per : units;
    if (u0 > u1) u0 = u1;
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
  GlobalTensor<T> xGm_, yGm_;
  int64_t L_[4], q_[4], is_[4], M_[4], os_[4];
  uint32_t tile_ = 64;
};

template <typename T>
__aicore__ inline void RunTranspose(GM_ADDR x, GM_ADDR y, const int64_t* L, const int64_t* q, uint32_t tile) {
  KernelTranspose<T> op;
  op.Init(x, y, L, q, tile);
  op.Process();
}

extern "C" __global__ __aicore__ void transpose_custom(GM_ADDR x, GM_ADDR y, int64_t L0, int64_t L1, int64_t L2,
                                                       int64_t L3, int64_t q0, int64_t q1, int64_t q2, int64_t q3,
                                                       int32_t elemBytes) {
  const int64_t L[4] = {L0, L1, L2, L3}, q[4] = {q0, q1, q2, q3};
  if (elemBytes == 4) RunTranspose<uint32_t>(x, y, L, q, 64);  // 64 x 64 x 4 = 16 KB tiles
  else if (elemBytes == 2) RunTranspose<uint16_t>(x, y, L, q, 128);
  else RunTranspose<uint8_t>(x, y, L, q, 128);
}

// The permutation p of shape s with axes of length 1 dropped and output-neighbours that are input-neighbours
// merged, as a 4-D view L (leading 1s) with permutation q (leading axes kept in place).
static void Collapse(const int64_t* s, const int64_t* p, int64_t* L, int64_t* q) {
  int64_t ax[4], n = 0;  // the kept input axes in output order
  for (int j = 0; j < 4; ++j)
    if (s[p[j]] != 1) ax[n++] = p[j];
  int64_t gFirst[4], gLen[4], g = 0;  // output-order groups: first input axis, merged length
  for (int j = 0; j < n; ++j) {
    bool merge = false;
    if (j > 0) {  // the previous kept output axis is the next-lower kept input axis
      int64_t prev = -1;
      for (int k = 0; k < n; ++k)
        if (ax[k] < ax[j] && ax[k] > prev) prev = ax[k];
      merge = prev == ax[j - 1];
    }
    if (merge) gLen[g - 1] *= s[ax[j]];
    else gFirst[g] = ax[j], gLen[g] = s[ax[j]], ++g;
  }
  for (int k = 0; k < 4; ++k) L[k] = 1, q[k] = k;
  const int64_t lead = 4 - g;
  for (int j = 0; j < g; ++j) {
    int64_t rank = 0;  // the group's place in input order
    for (int k = 0; k < g; ++k) rank += gFirst[k] < gFirst[j];
    L[lead + rank] = gLen[j];
    q[lead + j] = lead + rank;
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->ndim != 4 || y->ndim != 4 || x->dtype != y->dtype) return 1;
  const int32_t eb = x->dtype == KOPE_F32 ? 4 : (x->dtype == KOPE_F16 || x->dtype == KOPE_BF16) ? 2
                   : (x->dtype == KOPE_I8 || x->dtype == KOPE_U8) ? 1 : 0;
  if (eb == 0) return 1;
  int64_t p[4];
  int seen = 0;
  for (int k = 0; k < 4; ++k) {
    static const char* const names[4] = {"p0", "p1", "p2", "p3"};
    p[k] = (int64_t)kope_attr_or(a, names[k], k);
    if (p[k] < 0 || p[k] > 3 || ((seen >> p[k]) & 1)) return 2;
    seen |= 1 << p[k];
  }
  for (int k = 0; k < 4; ++k)
    if (y->shape[k] != x->shape[p[k]]) return 3;
  if (x->numel == 0) return 0;
  int64_t L[4], q[4];
  Collapse(x->shape, p, L, q);
  // Work units: a few per core; tiny tensors take fewer cores.
  const int64_t units = x->numel / 4096 + 1;
  const uint32_t blockDim = (uint32_t)(units < (int64_t)MAX_CORES ? units : MAX_CORES);
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(transpose_custom, blockDim, px, py, L[0], L[1], L[2], L[3], q[0], q[1], q[2], q[3], eb);
#else
  transpose_custom<<<blockDim, nullptr, stream>>>(px, py, L[0], L[1], L[2], L[3], q[0], q[1], q[2], q[3], eb);
#endif
  return 0;
}
