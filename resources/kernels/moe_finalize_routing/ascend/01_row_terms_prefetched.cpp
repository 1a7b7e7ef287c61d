// thought: finalize routing is a gather-and-sum per token row: whole rows per AI core, each row in chunks; the chunk's K + 1 term pairs (skip1 and skip2, then expanded_x's row src_to_dst[k * N + i] with bias row expert_idx[i, k]) stream through two double-buffered queues with the next pair's copy issued before the current one is added, so MTE2 runs ahead of the vector unit; fp32 accumulation (fp16 and bf16 rows Cast up to fp32 in the UB, CAST_NONE), one cast (CAST_RINT) and DataCopyPad out.
// thought: fp32, fp16 and bf16 (expanded_x, skips, bias and out of one dtype; scales fp32); a chunk is 4096 elements, so the 2-byte paths use less UB than the fp32 one.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CH = 4096;       // elements of a row chunk: 2 x 2 input + 2 output buffers + 3 fp32 = 144 KB (fp32)
constexpr uint32_t MAX_CORES = 40;

// out[i, h] = skip1[i, h] + skip2[i, h] + sum_k scales[i, k] * (x[src_to_dst[k * N + i], h] + bias[expert_idx[i, k], h]).
template <typename T> class KernelFinalizeRouting {
 public:
  __aicore__ inline KernelFinalizeRouting() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR skip1, GM_ADDR skip2, GM_ADDR bias, GM_ADDR scales, GM_ADDR rows,
                              GM_ADDR experts, GM_ADDR out, uint64_t N, uint64_t H, uint64_t E, uint64_t K,
                              uint64_t rowsPerCore) {
    N_ = N, H_ = H, K_ = K;
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= N ? 0 : (N - first_ < rowsPerCore ? N - first_ : rowsPerCore);
    xGm_.SetGlobalBuffer((__gm__ T*)x, N * K * H);
    s1Gm_.SetGlobalBuffer((__gm__ T*)skip1, N * H);
    s2Gm_.SetGlobalBuffer((__gm__ T*)skip2, N * H);
    bGm_.SetGlobalBuffer((__gm__ T*)bias, E * H);
    scGm_.SetGlobalBuffer((__gm__ float*)scales, N * K);
    rGm_.SetGlobalBuffer((__gm__ int32_t*)rows, N * K);
    eGm_.SetGlobalBuffer((__gm__ int32_t*)experts, N * K);
    oGm_.SetGlobalBuffer((__gm__ T*)out, N * H);
    pipe_.InitBuffer(aQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(bQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(oQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(acc_, CH * sizeof(float));
    pipe_.InitBuffer(fa_, CH * sizeof(float));
    pipe_.InitBuffer(fb_, CH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t i = first_; i < first_ + rows_; ++i)
      for (uint64_t c = 0; c < H_; c += CH) {
        const uint32_t n = H_ - c < CH ? (uint32_t)(H_ - c) : CH;
        // term -1: the two skips; term k: x row and bias row, scaled. The copy of term j + 1 goes out before term j
        // is added (two buffers per queue).
        Load(i, c, n, -1);
        for (int64_t j = -1; j < (int64_t)K_; ++j) {
          if (j + 1 < (int64_t)K_) Load(i, c, n, j + 1);
          Accumulate(i, n, j);
        }
        Store(i * H_ + c, n);
      }
  }

 private:
  __aicore__ inline void Load(uint64_t i, uint64_t c, uint32_t n, int64_t j) {
    uint64_t pa, pb;
    GlobalTensor<T> ga, gb;
    if (j < 0) {
      ga = s1Gm_, gb = s2Gm_, pa = pb = i * H_ + c;
    } else {
      const uint64_t r = (uint64_t)rGm_.GetValue((uint64_t)j * N_ + i), e = (uint64_t)eGm_.GetValue(i * K_ + (uint64_t)j);
      ga = xGm_, gb = bGm_, pa = r * H_ + c, pb = e * H_ + c;
    }
    LocalTensor<T> a = aQ_.template AllocTensor<T>(), b = bQ_.template AllocTensor<T>();
    DataCopyPad(a, ga[pa], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(b, gb[pb], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    aQ_.EnQue(a);
    bQ_.EnQue(b);
  }
  __aicore__ inline void Accumulate(uint64_t i, uint32_t n, int64_t j) {
    LocalTensor<T> a = aQ_.template DeQue<T>(), b = bQ_.template DeQue<T>();
    LocalTensor<float> acc = acc_.Get<float>(), fa = fa_.Get<float>(), fb = fb_.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      if (j < 0) {
        Add(acc, a.template ReinterpretCast<float>(), b.template ReinterpretCast<float>(), n);
      } else {
        Add(fa, a.template ReinterpretCast<float>(), b.template ReinterpretCast<float>(), n);
        PipeBarrier<PIPE_V>();
        Muls(fa, fa, scGm_.GetValue(i * K_ + (uint64_t)j), n);
        PipeBarrier<PIPE_V>();
        Add(acc, acc, fa, n);
      }
    } else {
      Cast(fa, a, RoundMode::CAST_NONE, n);
      Cast(fb, b, RoundMode::CAST_NONE, n);
      PipeBarrier<PIPE_V>();
      if (j < 0) {
        Add(acc, fa, fb, n);
      } else {
        Add(fa, fa, fb, n);
        PipeBarrier<PIPE_V>();
        Muls(fa, fa, scGm_.GetValue(i * K_ + (uint64_t)j), n);
        PipeBarrier<PIPE_V>();
        Add(acc, acc, fa, n);
      }
    }
    PipeBarrier<PIPE_V>();
    aQ_.FreeTensor(a);
    bQ_.FreeTensor(b);
  }
  __aicore__ inline void Store(uint64_t off, uint32_t n) {
    LocalTensor<float> acc = acc_.Get<float>();
    LocalTensor<T> o = oQ_.template AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(o.template ReinterpretCast<float>(), acc, (n + 7) / 8 * 8);
    else Cast(o, acc, RoundMode::CAST_RINT, n);
    oQ_.EnQue(o);
    o = oQ_.template DeQue<T>();
    DataCopyPad(oGm_[off], o, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    oQ_.FreeTensor(o);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> aQ_, bQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  TBuf<QuePosition::VECCALC> acc_, fa_, fb_;
  GlobalTensor<T> xGm_, s1Gm_, s2Gm_, bGm_, oGm_;
  GlobalTensor<float> scGm_;
  GlobalTensor<int32_t> rGm_, eGm_;
  uint64_t N_ = 0, H_ = 0, K_ = 0, first_ = 0, rows_ = 0;
};

template <typename T>
__aicore__ inline void RunFinalizeRouting(GM_ADDR x, GM_ADDR skip1, GM_ADDR skip2, GM_ADDR bias, GM_ADDR scales, GM_ADDR rows,
                                          GM_ADDR experts, GM_ADDR out, uint64_t N, uint64_t H, uint64_t E, uint64_t K,
                                          uint64_t rowsPerCore) {
  KernelFinalizeRouting<T> op;
  op.Init(x, skip1, skip2, bias, scales, rows, experts, out, N, H, E, K, rowsPerCore);
  op.Process();
}

// dt: 0 fp32, 1 fp16, 2 bf16 (expanded_x, skip1, skip2, bias and out share it; scales stay fp32).
extern "C" __global__ __aicore__ void moe_finalize_routing_custom(GM_ADDR x, GM_ADDR skip1, GM_ADDR skip2, GM_ADDR bias,
                                                                  GM_ADDR scales, GM_ADDR rows, GM_ADDR experts, GM_ADDR out,
                                                                  uint64_t N, uint64_t H, uint64_t E, uint64_t K,
                                                                  uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) RunFinalizeRouting<half>(x, skip1, skip2, bias, scales, rows, experts, out, N, H, E, K, rowsPerCore);
  else if (dt == 2) RunFinalizeRouting<bfloat16_t>(x, skip1, skip2, bias, scales, rows, experts, out, N, H, E, K, rowsPerCore);
  else RunFinalizeRouting<float>(x, skip1, skip2, bias, scales, rows, experts, out, N, H, E, K, rowsPerCore);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *s1 = &a->inputs[1], *b = &a->inputs[3], *sc = &a->inputs[4];
  const kope_tensor *r = &a->inputs[5], *e = &a->inputs[6], *o = &a->outputs[0];
  const int dtype = x->dtype;
  if ((dtype != KOPE_F32 && dtype != KOPE_F16 && dtype != KOPE_BF16) || o->dtype != dtype || s1->dtype != dtype ||
      a->inputs[2].dtype != dtype || b->dtype != dtype || sc->dtype != KOPE_F32 || r->dtype != KOPE_I32 ||
      e->dtype != KOPE_I32 || s1->ndim != 2)
    return 1;
  const uint64_t N = (uint64_t)s1->shape[0], H = (uint64_t)s1->shape[1], E = (uint64_t)b->shape[0], K = (uint64_t)sc->shape[1];
  if (N == 0 || H == 0) return 0;
  const uint64_t rowsPerCore = (N + MAX_CORES - 1) / MAX_CORES;
  const uint32_t blockDim = (uint32_t)((N + rowsPerCore - 1) / rowsPerCore);
  const int32_t dt = dtype == KOPE_F16 ? 1 : dtype == KOPE_BF16 ? 2 : 0;
  GM_ADDR p[8];
  for (int i = 0; i < 7; ++i) p[i] = (GM_ADDR)a->inputs[i].data;
  p[7] = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(moe_finalize_routing_custom, blockDim, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], N, H, E, K, rowsPerCore, dt);
#else
  moe_finalize_routing_custom<<<blockDim, nullptr, stream>>>(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], N, H, E, K,
                                                             rowsPerCore, dt);
#endif
  return 0;
}
