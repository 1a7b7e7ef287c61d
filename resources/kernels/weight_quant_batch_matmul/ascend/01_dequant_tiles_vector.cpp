// thought: weight-only int8: the weight is read once per 16-row block as int8 (half the bytes of fp16), dequantised in the UB per 32 x 256 tile (int8 -> half -> fp32, + offset, * scale, vector ops amortised over the block's 16 rows) and used by all 16 rows with fp32 accumulation (Muls + Add on the vector unit); items of 16 rows x 256 columns round-robin over the AI cores, the next weight tile's copy issued before the current one is used; bias added at the end, one rounding to the output dtype.
// thought: fp16 and bf16 (x, scale, offset, bias and out of one dtype): the 2-byte data are Cast to fp32 in the UB (CAST_NONE; x values widened as scalars), everything computed in fp32, one CAST_RINT back to fp16 or bf16 on the way out.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
// The vector unit, not the Cube: the CPU twin's AscendC has no Mmad/Fixpipe, so this kernel stays on the API it checks.
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MB = 16;   // rows of an item
constexpr uint32_t KB = 32;   // weight rows of a tile
constexpr uint32_t NT = 256;  // columns of an item (a multiple of 32: int8 weight rows stay 32-byte aligned)
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// out[m, n] = bias[n] + sum_k x[m, k] * (weight[k, n] + offset[n]) * scale[n]; x, scale, offset, bias and out are T
// (half or bfloat16_t), the weight int8.
template <typename T> class KernelWeightQuantMatmul {
 public:
  __aicore__ inline KernelWeightQuantMatmul() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR offset, GM_ADDR bias, GM_ADDR out, uint64_t M,
                              uint64_t K, uint64_t N) {
    M_ = M, K_ = K, N_ = N;
    xGm_.SetGlobalBuffer((__gm__ T*)x, M * K);
    wGm_.SetGlobalBuffer((__gm__ int8_t*)w, K * N);
    sGm_.SetGlobalBuffer((__gm__ T*)scale, N);
    fGm_.SetGlobalBuffer((__gm__ T*)offset, N);
    bGm_.SetGlobalBuffer((__gm__ T*)bias, N);
    oGm_.SetGlobalBuffer((__gm__ T*)out, M * N);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, MB * RoundUp(KB * sizeof(T), 32));
    pipe_.InitBuffer(wQ_, BUFFER_NUM, KB * NT);
    pipe_.InitBuffer(vQ_, 1, 3 * NT * sizeof(T));  // scale, offset, bias of the item's columns
    pipe_.InitBuffer(oQ_, BUFFER_NUM, MB * NT * sizeof(T));
    pipe_.InitBuffer(wh_, KB * NT * sizeof(half));
    pipe_.InitBuffer(wf_, KB * NT * sizeof(float));
    pipe_.InitBuffer(acc_, MB * NT * sizeof(float));
    pipe_.InitBuffer(tmp_, NT * sizeof(float));
    pipe_.InitBuffer(v_, 3 * NT * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint64_t chunks = (N_ + NT - 1) / NT, blocks = (M_ + MB - 1) / MB;
    for (uint64_t item = GetBlockIdx(); item < chunks * blocks; item += GetBlockNum()) {
      const uint64_t m0 = item / chunks * MB, n0 = item % chunks * NT;
      Item(m0, M_ - m0 < MB ? (uint32_t)(M_ - m0) : MB, n0, N_ - n0 < NT ? (uint32_t)(N_ - n0) : NT);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t m0, uint32_t mr, uint64_t n0, uint32_t nt, uint64_t k0, uint32_t kb) {
    LocalTensor<T> xt = xQ_.template AllocTensor<T>();
    DataCopyPad(xt, xGm_[m0 * K_ + k0],
                DataCopyExtParams{(uint16_t)mr, (uint32_t)(kb * sizeof(T)), (uint32_t)((K_ - kb) * sizeof(T)), 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    xQ_.EnQue(xt);
    LocalTensor<int8_t> wt = wQ_.template AllocTensor<int8_t>();
    DataCopyPad(wt, wGm_[k0 * N_ + n0], DataCopyExtParams{(uint16_t)kb, nt, (uint32_t)(N_ - nt), 0, 0},
                DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    wQ_.EnQue(wt);
  }
  __aicore__ inline void Item(uint64_t m0, uint32_t mr, uint64_t n0, uint32_t nt) {
    const uint32_t ntp = RoundUp(nt, 32);  // an int8 weight row padded to 32 bytes
    LocalTensor<float> acc = acc_.Get<float>(), tmp = tmp_.Get<float>(), wf = wf_.Get<float>(), v = v_.Get<float>();
    LocalTensor<half> wh = wh_.Get<half>();
    LocalTensor<float> sf = v, of = v[NT], bf = v[2 * NT];
    // the columns' scale, offset and bias, once per item, in fp32
    LocalTensor<T> vh = vQ_.template AllocTensor<T>();
    const DataCopyExtParams one{1, (uint32_t)(nt * sizeof(T)), 0, 0, 0};
    DataCopyPad(vh, sGm_[n0], one, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(vh[NT], fGm_[n0], one, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(vh[2 * NT], bGm_[n0], one, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    vQ_.EnQue(vh);
    vh = vQ_.template DeQue<T>();
    Cast(v, vh, RoundMode::CAST_NONE, 3 * NT);
    PipeBarrier<PIPE_V>();
    vQ_.FreeTensor(vh);
    for (uint32_t m = 0; m < mr; ++m) DataCopy(acc[m * ntp], bf, ntp);  // every row starts from the bias
    PipeBarrier<PIPE_V>();
    const uint64_t tiles = (K_ + KB - 1) / KB;
    CopyIn(m0, mr, n0, nt, 0, K_ < KB ? (uint32_t)K_ : KB);
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t k0 = t * KB;
      const uint32_t kb = K_ - k0 < KB ? (uint32_t)(K_ - k0) : KB;
      if (t + 1 < tiles) CopyIn(m0, mr, n0, nt, k0 + KB, K_ - k0 - KB < KB ? (uint32_t)(K_ - k0 - KB) : KB);
      LocalTensor<T> xt = xQ_.template DeQue<T>();
      LocalTensor<int8_t> wt = wQ_.template DeQue<int8_t>();
      Cast(wh, wt, RoundMode::CAST_NONE, kb * ntp);  // int8 -> half: exact
      PipeBarrier<PIPE_V>();
      Cast(wf, wh, RoundMode::CAST_NONE, kb * ntp);  // half -> fp32: exact
      PipeBarrier<PIPE_V>();
      for (uint32_t k = 0; k < kb; ++k) {  // W = (w + offset) * scale, in fp32
        Add(wf[k * ntp], wf[k * ntp], of, nt);
        PipeBarrier<PIPE_V>();
        Mul(wf[k * ntp], wf[k * ntp], sf, nt);
      }
      PipeBarrier<PIPE_V>();
      wQ_.FreeTensor(wt);
      const uint32_t xstride = RoundUp(kb * sizeof(T), 32) / sizeof(T);  // x tile rows, padded to 32 bytes
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < mr; ++m)
        for (uint32_t k = 0; k < kb; ++k) {
          const float xv = (float)xt.GetValue(m * xstride + k);
          Muls(tmp, wf[k * ntp], xv, nt);
          PipeBarrier<PIPE_V>();
          Add(acc[m * ntp], acc[m * ntp], tmp, nt);
          PipeBarrier<PIPE_V>();
        }
      xQ_.FreeTensor(xt);
    }
    // out rows padded to 16 2-byte elements (32 bytes) in the UB
    const uint32_t ohp = RoundUp(nt, 16);
    LocalTensor<T> o = oQ_.template AllocTensor<T>();
    for (uint32_t m = 0; m < mr; ++m) Cast(o[m * ohp], acc[m * ntp], RoundMode::CAST_RINT, ohp);
    oQ_.EnQue(o);
    o = oQ_.template DeQue<T>();
    DataCopyPad(oGm_[m0 * N_ + n0], o,
                DataCopyExtParams{(uint16_t)mr, (uint32_t)(nt * sizeof(T)), 0, (uint32_t)((N_ - nt) * sizeof(T)), 0});
    oQ_.FreeTensor(o);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, wQ_;
  TQue<QuePosition::VECIN, 1> vQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  TBuf<QuePosition::VECCALC> wh_, wf_, acc_, tmp_, v_;
  GlobalTensor<T> xGm_, sGm_, fGm_, bGm_, oGm_;
  GlobalTensor<int8_t> wGm_;
  uint64_t M_ = 0, K_ = 0, N_ = 0;
};

extern "C" __global__ __aicore__ void weight_quant_batch_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR offset,
                                                                       GM_ADDR bias, GM_ADDR out, uint64_t M, uint64_t K,
                                                                       uint64_t N, int32_t isBf16) {
  if (isBf16) {
    KernelWeightQuantMatmul<bfloat16_t> op;
    op.Init(x, w, scale, offset, bias, out, M, K, N);
    op.Process();
  } else {
    KernelWeightQuantMatmul<half> op;
    op.Init(x, w, scale, offset, bias, out, M, K, N);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *w = &a->inputs[1], *o = &a->outputs[0];
  const int dt = x->dtype;  // fp16 or bf16, shared by x, scale, offset, bias and out
  if ((dt != KOPE_F16 && dt != KOPE_BF16) || w->dtype != KOPE_I8 || a->inputs[2].dtype != dt || a->inputs[3].dtype != dt ||
      a->inputs[4].dtype != dt || o->dtype != dt || x->ndim != 2 || w->ndim != 2)
    return 1;
  const uint64_t M = (uint64_t)x->shape[0], K = (uint64_t)x->shape[1], N = (uint64_t)w->shape[1];
  if (M == 0 || N == 0) return 0;
  if (K == 0) return 1;
  const uint64_t items = (M + MB - 1) / MB * ((N + NT - 1) / NT);
  const uint32_t blockDim = items < MAX_CORES ? (uint32_t)items : MAX_CORES;
  const int32_t isBf16 = dt == KOPE_BF16;
  GM_ADDR p[6];
  for (int i = 0; i < 5; ++i) p[i] = (GM_ADDR)a->inputs[i].data;
  p[5] = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(weight_quant_batch_matmul_custom, blockDim, p[0], p[1], p[2], p[3], p[4], p[5], M, K, N, isBf16);
#else
  weight_quant_batch_matmul_custom<<<blockDim, nullptr, stream>>>(p[0], p[1], p[2], p[3], p[4], p[5], M, K, N, isBf16);
#endif
  return 0;
}
