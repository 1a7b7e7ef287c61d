// thought: rows per core and chunks of each row half, copied with DataCopy in whole 32-byte blocks (the row length rounded down to 8 floats) to stay on the fast copy path.
// flaw: rounding each half-row copy down to whole 32-byte blocks drops the last H % 8 columns of every row (all of them
// for H < 8): those outputs are never written.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 4096;     // floats per chunk of a row half: a, b and y queues double-buffered + 1 scratch = 112 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

class KernelSwiGlu {
 public:
  __aicore__ inline KernelSwiGlu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t rows, uint64_t H, uint64_t rowsPerCore) {
    const uint64_t first = GetBlockIdx() * rowsPerCore;
    rows_ = first >= rows ? 0 : (rows - first < rowsPerCore ? rows - first : rowsPerCore);
    H_ = H;
    xGm_.SetGlobalBuffer((__gm__ float*)x + first * 2 * H, rows_ * 2 * H);
    yGm_.SetGlobalBuffer((__gm__ float*)y + first * H, rows_ * H);
    pipe_.InitBuffer(aQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(yQ_, BUFFER_NUM, TILE * sizeof(float));
    pipe_.InitBuffer(tmp_, TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rows_; ++r)
      for (uint64_t c = 0; c < H_; c += TILE) {
        const uint32_t n = H_ - c < TILE ? (uint32_t)(H_ - c) : TILE;
        CopyIn(r * 2 * H_ + c, r * 2 * H_ + H_ + c, n);
        Compute(n);
        CopyOut(r * H_ + c, n);
      }
  }

 private:
  __aicore__ inline void Load(TQue<QuePosition::VECIN, BUFFER_NUM>& q, uint64_t off, uint32_t n) {
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm_[off], n / 8 * 8);  // DataCopy moves whole 32-byte blocks
    q.EnQue(t);
  }
  __aicore__ inline void CopyIn(uint64_t aOff, uint64_t bOff, uint32_t n) {
    Load(aQ_, aOff, n);  // a = x[r, c : c + n]
    Load(bQ_, bOff, n);  // b = x[r, H + c : H + c + n]
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> a = aQ_.DeQue<float>(), b = bQ_.DeQue<float>();
    LocalTensor<float> y = yQ_.AllocTensor<float>();
    LocalTensor<float> s = tmp_.Get<float>();
    const int32_t m = (int32_t)((n + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    Muls(s, a, -1.0f, m);
    Exp(s, s, m);
    Adds(s, s, 1.0f, m);   // 1 + exp(-a): inf for a = -inf or a large negative a
    Div(s, a, s, m);       // silu(a) = a / (1 + exp(-a)), ATen's form: -0 for a = -1e30, NaN for a = -inf
    Mul(y, s, b, m);       // then the IEEE product with b
    yQ_.EnQue<float>(y);
    aQ_.FreeTensor(a);
    bQ_.FreeTensor(b);
  }
  __aicore__ inline void CopyOut(uint64_t off, uint32_t n) {
    LocalTensor<float> y = yQ_.DeQue<float>();
    DataCopy(yGm_[off], y, n / 8 * 8);
    yQ_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> aQ_, bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
  TBuf<QuePosition::VECCALC> tmp_;
  GlobalTensor<float> xGm_, yGm_;
  uint64_t rows_ = 0, H_ = 0;
};

extern "C" __global__ __aicore__ void swi_glu_custom(GM_ADDR x, GM_ADDR y, uint64_t rows, uint64_t H, uint64_t rowsPerCore) {
  KernelSwiGlu op;
  op.Init(x, y, rows, H, rowsPerCore);
  op.Process();
}

// Host-side tiling: whole rows per core (x is [M, 2H], y is [M, H]).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->dtype != KOPE_F32 || y->dtype != KOPE_F32 || x->ndim != 2) return 1;
  const uint64_t rows = (uint64_t)x->shape[0], H = (uint64_t)x->shape[1] / 2;
  if (rows == 0 || H == 0) return 0;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(swi_glu_custom, blockDim, (GM_ADDR)x->data, (GM_ADDR)y->data, rows, H, rowsPerCore);
#else
  swi_glu_custom<<<blockDim, nullptr, stream>>>((GM_ADDR)x->data, (GM_ADDR)y->data, rows, H, rowsPerCore);
#endif
  return 0;
}
