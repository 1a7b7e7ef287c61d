// thought: resolve TensorFlow's begins, ends and masks on the host; each output row (the innermost axis) reads one contiguous input span (|s3| (n - 1) + 1 elements, whichever the stride's sign), so a core loads its rows' spans with DataCopyPad, picks every s3-th element in the UB (a UB-to-UB copy where s3 is 1) and stores a group of whole output rows as one burst; rows too long for the UB go in chunks; values move as raw bits (4, 2 or 1 byte), so every dtype and special value is exact.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t IN_BYTES = 48 * 1024;   // input spans of a unit
constexpr uint32_t OUT_BYTES = 16 * 1024;  // its output rows: (48 + 16) x 2 = 128 KB of the UB
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t Pad32(uint64_t bytes) { return (uint32_t)((bytes + 31) / 32 * 32); }

// y[j0, j1, j2, j3] = x[b0 + j0 s0, ..., b3 + j3 s3] with x [D0..D3], y [O0..O3]; T the element's bits.
template <typename T> class KernelStridedSlice {
 public:
  __aicore__ inline KernelStridedSlice() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const int64_t* D, const int64_t* b, const int64_t* s, const int64_t* O) {
    for (int k = 0; k < 4; ++k) b_[k] = b[k], s_[k] = s[k], O_[k] = O[k];
    is_[3] = 1;
    for (int k = 2; k >= 0; --k) is_[k] = is_[k + 1] * D[k + 1];
    xGm_.SetGlobalBuffer((__gm__ T*)x, (uint64_t)(is_[0] * D[0]));
    yGm_.SetGlobalBuffer((__gm__ T*)y, (uint64_t)(O[0] * O[1] * O[2] * O[3]));
    pipe_.InitBuffer(inQ_, BUFFER_NUM, IN_BYTES);
    pipe_.InitBuffer(outQ_, BUFFER_NUM, OUT_BYTES);
  }

  __aicore__ inline void Process() {
    const int64_t step = s_[3] < 0 ? -s_[3] : s_[3], rows = O_[0] * O_[1] * O_[2], rowLen = O_[3];
    // Chunk: output elements per piece of a row, bounded by the out tile and by its input span in the in tile.
    int64_t C = (int64_t)(OUT_BYTES / sizeof(T));
    const int64_t bySpan = ((int64_t)(IN_BYTES / sizeof(T)) - 32) / step + 1;
    if (bySpan < C) C = bySpan;
    if (rowLen < C) C = rowLen;
    const int64_t pieces = (rowLen + C - 1) / C;
    const int64_t span = step * (C - 1) + 1;
    // Whole rows (one piece each) are grouped G to a unit; longer rows go one piece per unit.
    int64_t G = 1;
    if (pieces == 1) {
      const int64_t gOut = OUT_BYTES / Pad32(C * sizeof(T)), gIn = IN_BYTES / Pad32(span * sizeof(T));
      G = gOut < gIn ? gOut : gIn;
    }
    const int64_t units = pieces == 1 ? (rows + G - 1) / G : rows * pieces;
    const int64_t cores = GetBlockNum(), per = (units + cores - 1) / cores;
    const int64_t u0 = GetBlockIdx() * per, u1 = u0 + per < units ? u0 + per : units;
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t r0 = pieces == 1 ? u * G : u / pieces, c0 = pieces == 1 ? 0 : u % pieces * C;
      const int64_t nr = pieces == 1 ? (rows - r0 < G ? rows - r0 : G) : 1;
      const int64_t n = rowLen - c0 < C ? rowLen - c0 : C;  // output elements per row in this unit
      const int64_t sp = step * (n - 1) + 1;                 // their input span
      const uint32_t pin = Pad32(sp * sizeof(T)) / sizeof(T), pout = Pad32(n * sizeof(T)) / sizeof(T);
      // CopyIn: each row's span.
      LocalTensor<T> in = inQ_.template AllocTensor<T>();
      for (int64_t i = 0; i < nr; ++i) {
        const int64_t r = r0 + i;
        const int64_t j2 = r % O_[2], j1 = r / O_[2] % O_[1], j0 = r / O_[2] / O_[1];
        const int64_t first = b_[3] + c0 * s_[3], last = first + (n - 1) * s_[3];
        const int64_t lo = first < last ? first : last;
        const int64_t src = (b_[0] + j0 * s_[0]) * is_[0] + (b_[1] + j1 * s_[1]) * is_[1] + (b_[2] + j2 * s_[2]) * is_[2] + lo;
        DataCopyPad(in[(uint32_t)(i * pin)], xGm_[(uint64_t)src], DataCopyExtParams{1, (uint32_t)(sp * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
      }
      inQ_.EnQue(in);
      // Compute: every step-th element of each span (from its far end where s3 < 0).
      in = inQ_.template DeQue<T>();
      LocalTensor<T> out = outQ_.template AllocTensor<T>();
      if (s_[3] == 1) {
        DataCopy(out, in, (uint32_t)(nr * pout));  // spans are the rows: pin == pout
      } else {
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        const int64_t from = s_[3] > 0 ? 0 : sp - 1, d = s_[3];
        for (int64_t i = 0; i < nr; ++i)
          for (int64_t j = 0; j < n; ++j) out.SetValue((uint32_t)(i * pout + j), in.GetValue((uint32_t)(i * pin + from + j * d)));
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
      }
      outQ_.EnQue(out);
      inQ_.FreeTensor(in);
      // CopyOut: the unit's rows (or piece) are contiguous in y.
      out = outQ_.template DeQue<T>();
      DataCopyPad(yGm_[(uint64_t)(r0 * rowLen + c0)], out, DataCopyExtParams{(uint16_t)nr, (uint32_t)(n * sizeof(T)), 0, 0, 0});
      outQ_.FreeTensor(out);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
  GlobalTensor<T> xGm_, yGm_;
  int64_t b_[4], s_[4], O_[4], is_[4];
};

template <typename T>
__aicore__ inline void RunSlice(GM_ADDR x, GM_ADDR y, const int64_t* D, const int64_t* b, const int64_t* s, const int64_t* O) {
  KernelStridedSlice<T> op;
  op.Init(x, y, D, b, s, O);
  op.Process();
}

extern "C" __global__ __aicore__ void strided_slice_custom(GM_ADDR x, GM_ADDR y, int64_t D0, int64_t D1, int64_t D2, int64_t D3,
                                                           int64_t b0, int64_t b1, int64_t b2, int64_t b3, int64_t s0,
                                                           int64_t s1, int64_t s2, int64_t s3, int64_t O0, int64_t O1,
                                                           int64_t O2, int64_t O3, int32_t elemBytes) {
  const int64_t D[4] = {D0, D1, D2, D3}, b[4] = {b0, b1, b2, b3}, s[4] = {s0, s1, s2, s3}, O[4] = {O0, O1, O2, O3};
  if (elemBytes == 4) RunSlice<uint32_t>(x, y, D, b, s, O);
  else if (elemBytes == 2) RunSlice<uint16_t>(x, y, D, b, s, O);
  else RunSlice<uint8_t>(x, y, D, b, s, O);
}

// TensorFlow's begin and length of one axis (begin_mask and end_mask only); -1 where the stride is 0.
static int64_t AxisRange(int64_t dim, double bd, double ed, int64_t s, int bm, int em, int64_t* begin) {
  if (s == 0) return -1;
  int64_t b = (int64_t)bd, e = (int64_t)ed;
  const int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
  if (bm) b = s > 0 ? 0 : dim - 1;
  else {
    if (b < 0) b += dim;
    b = b < lo ? lo : (b > hi ? hi : b);
  }
  if (em) e = s > 0 ? dim : -1;
  else {
    if (e < 0) e += dim;
    e = e < lo ? lo : (e > hi ? hi : e);
  }
  *begin = b;
  const int64_t span = s > 0 ? e - b : b - e, step = s > 0 ? s : -s;
  return span <= 0 ? 0 : (span + step - 1) / step;
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->ndim != 4 || y->ndim != 4 || x->dtype != y->dtype) return 1;
  const int32_t eb = x->dtype == KOPE_F32 ? 4 : (x->dtype == KOPE_F16 || x->dtype == KOPE_BF16) ? 2
                   : (x->dtype == KOPE_I8 || x->dtype == KOPE_U8) ? 1 : 0;
  if (eb == 0) return 1;
  static const char* const bn[4] = {"b0", "b1", "b2", "b3"}, * const en[4] = {"e0", "e1", "e2", "e3"},
                           * const sn[4] = {"s0", "s1", "s2", "s3"};
  const int bmask = (int)kope_attr_or(a, "begin_mask", 0), emask = (int)kope_attr_or(a, "end_mask", 0);
  int64_t b[4], s[4];
  for (int k = 0; k < 4; ++k) {
    s[k] = (int64_t)kope_attr_or(a, sn[k], 1);
    const int64_t n = AxisRange(x->shape[k], kope_attr_or(a, bn[k], 0), kope_attr_or(a, en[k], 1e18), s[k],
                                (bmask >> k) & 1, (emask >> k) & 1, &b[k]);
    if (n < 0) return 2;
    if (n != y->shape[k]) return 3;
  }
  if (y->numel == 0) return 0;
  const int64_t units = y->numel / 2048 + 1;
  const uint32_t blockDim = (uint32_t)(units < (int64_t)MAX_CORES ? units : MAX_CORES);
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
  const int64_t* D = x->shape;
  const int64_t* O = y->shape;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(strided_slice_custom, blockDim, px, py, D[0], D[1], D[2], D[3], b[0], b[1], b[2], b[3], s[0], s[1], s[2], s[3],
              O[0], O[1], O[2], O[3], eb);
#else
  strided_slice_custom<<<blockDim, nullptr, stream>>>(px, py, D[0], D[1], D[2], D[3], b[0], b[1], b[2], b[3], s[0], s[1],
                                                      s[2], s[3], O[0], O[1], O[2], O[3], eb);
#endif
  return 0;
}
