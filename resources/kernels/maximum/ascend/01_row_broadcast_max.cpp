// thought: maximum with broadcasting by rows: whole output rows per AI core, each row in chunks; an operand whose row is the output's streams in with DataCopyPad, a broadcast one is a single GetValue then Duplicate; one vector Max (NaN-propagating, as torch.maximum) per chunk; fp32, fp16, int32 and bf16 through one template; bf16 chunks (which Atlas A2's vector unit takes only in Cast) are Cast to fp32 in the UB, maxed there and Cast back (CAST_RINT: exact, a max of bf16 values is one of them, NaN stays NaN).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 4096;     // elements of a row chunk
constexpr uint32_t ALIGN = 128;     // elements per 256-byte repeat for 2-byte types (a multiple of it for 4-byte ones)
constexpr uint32_t MAX_CORES = 40;

template <typename T> struct IsBf16 { static constexpr bool value = false; };
template <> struct IsBf16<bfloat16_t> { static constexpr bool value = true; };

// out[m, n] = max(a[m or 0, n or 0], b[m or 0, n or 0]); a broadcast side is one scalar per row, Duplicated.
template <typename T> class KernelMaximum {
 public:
  __aicore__ inline KernelMaximum() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint64_t M, uint64_t N, uint64_t a1, uint64_t a2,
                              uint64_t b1, uint64_t b2, uint64_t rowsPerCore) {
    const uint64_t first = GetBlockIdx() * rowsPerCore;
    first_ = first;
    rows_ = first >= M ? 0 : (M - first < rowsPerCore ? M - first : rowsPerCore);
    N_ = N, a1_ = a1, a2_ = a2, b1_ = b1, b2_ = b2;
    aGm_.SetGlobalBuffer((__gm__ T*)a, a1 * a2);
    bGm_.SetGlobalBuffer((__gm__ T*)b, b1 * b2);
    oGm_.SetGlobalBuffer((__gm__ T*)out, M * N);
    pipe_.InitBuffer(aQ_, BUFFER_NUM, TILE * sizeof(T));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, TILE * sizeof(T));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, TILE * sizeof(T));
    if constexpr (IsBf16<T>::value) pipe_.InitBuffer(f_, 2 * TILE * sizeof(float));  // the two chunks in fp32
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r)
      for (uint64_t c = 0; c < N_; c += TILE) {
        const uint32_t n = N_ - c < TILE ? (uint32_t)(N_ - c) : TILE;
        const int32_t m = (int32_t)((n + ALIGN - 1) / ALIGN * ALIGN);
        LocalTensor<T> x = Row(aQ_, aGm_, a1_ == 1 ? 0 : r, a2_, c, n, m);
        LocalTensor<T> y = Row(bQ_, bGm_, b1_ == 1 ? 0 : r, b2_, c, n, m);
        LocalTensor<T> o = oQ_.template AllocTensor<T>();
        if constexpr (IsBf16<T>::value) {  // bf16: Cast to fp32, Max there, Cast back (exact)
          LocalTensor<float> fx = f_.Get<float>(), fy = fx[TILE];
          Cast(fx, x, RoundMode::CAST_NONE, m);
          Cast(fy, y, RoundMode::CAST_NONE, m);
          Max(fx, fx, fy, m);
          Cast(o, fx, RoundMode::CAST_RINT, m);
        } else {
          Max(o, x, y, m);  // the vector max propagates NaN, as torch.maximum does
        }
        oQ_.EnQue(o);
        aQ_.FreeTensor(x);
        bQ_.FreeTensor(y);
        o = oQ_.template DeQue<T>();
        DataCopyPad(oGm_[r * N_ + c], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
        oQ_.FreeTensor(o);
      }
  }

 private:
  // Columns [c, c + n) of row `row` of a [rows, cols] operand, cols being N or 1 (then one value, broadcast).
  __aicore__ inline LocalTensor<T> Row(TQue<QuePosition::VECIN, BUFFER_NUM>& q, GlobalTensor<T>& g, uint64_t row,
                                       uint64_t cols, uint64_t c, uint32_t n, int32_t m) {
    LocalTensor<T> t = q.template AllocTensor<T>();
    if (cols == 1) {
      const T v = g.GetValue(row);
      Duplicate(t, v, m);
    } else {
      DataCopyPad(t, g[row * cols + c], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    }
    q.EnQue(t);
    return q.template DeQue<T>();
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> aQ_, bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  TBuf<QuePosition::VECCALC> f_;
  GlobalTensor<T> aGm_, bGm_, oGm_;
  uint64_t first_ = 0, rows_ = 0, N_ = 0, a1_ = 1, a2_ = 1, b1_ = 1, b2_ = 1;
};

template <typename T>
__aicore__ inline void RunMaximum(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint64_t M, uint64_t N, uint64_t a1, uint64_t a2,
                                  uint64_t b1, uint64_t b2, uint64_t rowsPerCore) {
  KernelMaximum<T> op;
  op.Init(a, b, out, M, N, a1, a2, b1, b2, rowsPerCore);
  op.Process();
}

// kind: 0 fp32, 1 fp16, 2 int32, 3 bf16.
extern "C" __global__ __aicore__ void maximum_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint64_t M, uint64_t N, uint64_t a1,
                                                     uint64_t a2, uint64_t b1, uint64_t b2, uint64_t rowsPerCore, int32_t kind) {
  if (kind == 0) RunMaximum<float>(a, b, out, M, N, a1, a2, b1, b2, rowsPerCore);
  else if (kind == 1) RunMaximum<half>(a, b, out, M, N, a1, a2, b1, b2, rowsPerCore);
  else if (kind == 2) RunMaximum<int32_t>(a, b, out, M, N, a1, a2, b1, b2, rowsPerCore);
  else RunMaximum<bfloat16_t>(a, b, out, M, N, a1, a2, b1, b2, rowsPerCore);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->inputs[1], *o = &a->outputs[0];
  const int32_t dt = o->dtype;
  if (x->dtype != dt || y->dtype != dt || x->ndim != 2 || y->ndim != 2 || o->ndim != 2) return 1;
  const int32_t kind = dt == KOPE_F32 ? 0 : dt == KOPE_F16 ? 1 : dt == KOPE_I32 ? 2 : dt == KOPE_BF16 ? 3 : -1;
  if (kind < 0) return 1;
  const uint64_t M = (uint64_t)o->shape[0], N = (uint64_t)o->shape[1];
  if (M == 0 || N == 0) return 0;
  const uint32_t blockDim = M < MAX_CORES ? (uint32_t)M : MAX_CORES;
  const uint64_t rowsPerCore = (M + blockDim - 1) / blockDim;
  const uint64_t a1 = (uint64_t)x->shape[0], a2 = (uint64_t)x->shape[1], b1 = (uint64_t)y->shape[0], b2 = (uint64_t)y->shape[1];
  GM_ADDR pa = (GM_ADDR)x->data, pb = (GM_ADDR)y->data, po = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(maximum_custom, blockDim, pa, pb, po, M, N, a1, a2, b1, b2, rowsPerCore, kind);
#else
  maximum_custom<<<blockDim, nullptr, stream>>>(pa, pb, po, M, N, a1, a2, b1, b2, rowsPerCore, kind);
#endif
  return 0;
}
