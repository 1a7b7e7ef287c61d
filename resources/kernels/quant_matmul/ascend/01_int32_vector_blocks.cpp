// thought: an exact int8 matmul on the vector unit: items of 16 rows x 256 columns dealt round-robin to the AI cores; 32-row int8 weight tiles (one strided DataCopyPad each) stream through a double-buffered queue with the next tile's copy issued first, widen int8 -> half -> int32 (exact) once per tile and are used by all 16 rows, acc[m] += x[m, k] * w[k] in int32 (Muls + Add, no rounding, no int16 saturation); the epilogue adds the int32 bias, converts once to fp32 and applies scale[n] (Mul) then pertoken_scale[m] (Muls), rounding once to the output's dtype.
// thought: the output may be fp32, fp16 or bf16: the epilogue is fp32 in the UB whatever it is, and one Cast (CAST_RINT) makes the fp16 or bf16 tile that goes out.
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
constexpr uint32_t KB = 32;   // weight rows of a tile (an x tile row is then exactly one 32-byte block)
constexpr uint32_t NT = 256;  // columns of an item (a multiple of 32: int8 rows stay 32-byte aligned)
constexpr uint32_t MAX_CORES = 40;

__aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// out[m, n] = (sum_k x1[m, k] x2[k, n] + bias[n]) * scale[n] * pertoken_scale[m]; TO is float, half or bfloat16_t.
template <typename TO> class KernelQuantMatmul {
 public:
  __aicore__ inline KernelQuantMatmul() {}
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR scale, GM_ADDR pts, GM_ADDR bias, GM_ADDR out, uint64_t M,
                              uint64_t K, uint64_t N) {
    M_ = M, K_ = K, N_ = N;
    xGm_.SetGlobalBuffer((__gm__ int8_t*)x1, M * K);
    wGm_.SetGlobalBuffer((__gm__ int8_t*)x2, K * N);
    sGm_.SetGlobalBuffer((__gm__ float*)scale, N);
    pGm_.SetGlobalBuffer((__gm__ float*)pts, M);
    bGm_.SetGlobalBuffer((__gm__ int32_t*)bias, N);
    oGm_.SetGlobalBuffer((__gm__ TO*)out, M * N);
    pipe_.InitBuffer(xQ_, BUFFER_NUM, MB * 32);
    pipe_.InitBuffer(wQ_, BUFFER_NUM, KB * NT);
    pipe_.InitBuffer(vQ_, 1, NT * sizeof(int32_t) * 2);  // bias and scale of the item's columns
    pipe_.InitBuffer(oQ_, BUFFER_NUM, MB * NT * sizeof(TO));
    pipe_.InitBuffer(wh_, KB * NT * sizeof(half));
    pipe_.InitBuffer(wi_, KB * NT * sizeof(int32_t));
    pipe_.InitBuffer(acc_, MB * NT * sizeof(int32_t));
    pipe_.InitBuffer(tmp_, NT * sizeof(int32_t));
    pipe_.InitBuffer(f_, MB * NT * sizeof(float));
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
    const uint32_t ntp = RoundUp(nt, 32);
    LocalTensor<int8_t> xt = xQ_.AllocTensor<int8_t>();
    DataCopyPad(xt, xGm_[m0 * K_ + k0], DataCopyExtParams{(uint16_t)mr, kb, (uint32_t)(K_ - kb), 0, 0},
                DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    xQ_.EnQue(xt);
    LocalTensor<int8_t> wt = wQ_.AllocTensor<int8_t>();
    DataCopyPad(wt, wGm_[k0 * N_ + n0], DataCopyExtParams{(uint16_t)kb, nt, (uint32_t)(N_ - nt), (ntp - RoundUp(nt, 32)) / 32, 0},
                DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
    wQ_.EnQue(wt);
  }
  __aicore__ inline void Item(uint64_t m0, uint32_t mr, uint64_t n0, uint32_t nt) {
    const uint32_t ntp = RoundUp(nt, 32);
    LocalTensor<int32_t> acc = acc_.Get<int32_t>(), tmp = tmp_.Get<int32_t>(), wi = wi_.Get<int32_t>();
    LocalTensor<half> wh = wh_.Get<half>();
    Duplicate(acc, (int32_t)0, (int32_t)(mr * ntp));
    PipeBarrier<PIPE_V>();
    const uint64_t tiles = (K_ + KB - 1) / KB;
    CopyIn(m0, mr, n0, nt, 0, K_ < KB ? (uint32_t)K_ : KB);
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t k0 = t * KB;
      const uint32_t kb = K_ - k0 < KB ? (uint32_t)(K_ - k0) : KB;
      if (t + 1 < tiles) CopyIn(m0, mr, n0, nt, k0 + KB, K_ - k0 - KB < KB ? (uint32_t)(K_ - k0 - KB) : KB);
      LocalTensor<int8_t> xt = xQ_.DeQue<int8_t>(), wt = wQ_.DeQue<int8_t>();
      Cast(wh, wt, RoundMode::CAST_NONE, kb * ntp);  // int8 -> half: exact
      PipeBarrier<PIPE_V>();
      Cast(wi, wh, RoundMode::CAST_RINT, kb * ntp);  // half -> int32: exact for integers
      PipeBarrier<PIPE_V>();
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t m = 0; m < mr; ++m)
        for (uint32_t k = 0; k < kb; ++k) {
          const int32_t xv = (int32_t)xt.GetValue(m * 32 + k);  // x tile rows are one 32-byte block each
          if (xv == 0) continue;
          Muls(tmp, wi[k * ntp], xv, nt);
          PipeBarrier<PIPE_V>();
          Add(acc[m * ntp], acc[m * ntp], tmp, nt);
          PipeBarrier<PIPE_V>();
        }
      xQ_.FreeTensor(xt);
      wQ_.FreeTensor(wt);
    }
    // epilogue: + bias (int32, exact), one conversion to fp32, * scale[n], * pertoken_scale[m]
    LocalTensor<int32_t> v = vQ_.AllocTensor<int32_t>();
    LocalTensor<float> sc = v[NT].template ReinterpretCast<float>();
    DataCopyPad(v, bGm_[n0], DataCopyExtParams{1, nt * (uint32_t)sizeof(int32_t), 0, 0, 0}, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    DataCopyPad(sc, sGm_[n0], DataCopyExtParams{1, nt * (uint32_t)sizeof(float), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
    vQ_.EnQue(v);
    v = vQ_.DeQue<int32_t>();
    sc = v[NT].template ReinterpretCast<float>();
    LocalTensor<float> f = f_.Get<float>();
    LocalTensor<TO> o = oQ_.template AllocTensor<TO>();
    for (uint32_t m = 0; m < mr; ++m) {
      const float p = pGm_.GetValue(m0 + m);
      Add(acc[m * ntp], acc[m * ntp], v, nt);
      PipeBarrier<PIPE_V>();
      Cast(f[m * ntp], acc[m * ntp], RoundMode::CAST_NONE, nt);
      PipeBarrier<PIPE_V>();
      Mul(f[m * ntp], f[m * ntp], sc, nt);
      PipeBarrier<PIPE_V>();
      Muls(f[m * ntp], f[m * ntp], p, nt);
      PipeBarrier<PIPE_V>();
    }
    vQ_.FreeTensor(v);
    if constexpr (sizeof(TO) == sizeof(float)) DataCopy(o.template ReinterpretCast<float>(), f, mr * ntp);
    else Cast(o, f, RoundMode::CAST_RINT, mr * ntp);
    oQ_.EnQue(o);
    o = oQ_.template DeQue<TO>();
    const uint32_t gap = (ntp * sizeof(TO) - RoundUp(nt * sizeof(TO), 32)) / 32;
    DataCopyPad(oGm_[m0 * N_ + n0], o,
                DataCopyExtParams{(uint16_t)mr, (uint32_t)(nt * sizeof(TO)), gap, (uint32_t)((N_ - nt) * sizeof(TO)), 0});
    oQ_.FreeTensor(o);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, wQ_;
  TQue<QuePosition::VECIN, 1> vQ_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> oQ_;
  TBuf<QuePosition::VECCALC> wh_, wi_, acc_, tmp_, f_;
  GlobalTensor<int8_t> xGm_, wGm_;
  GlobalTensor<float> sGm_, pGm_;
  GlobalTensor<int32_t> bGm_;
  GlobalTensor<TO> oGm_;
  uint64_t M_ = 0, K_ = 0, N_ = 0;
};

template <typename TO>
__aicore__ inline void RunQuantMatmul(GM_ADDR x1, GM_ADDR x2, GM_ADDR scale, GM_ADDR pts, GM_ADDR bias, GM_ADDR out,
                                      uint64_t M, uint64_t K, uint64_t N) {
  KernelQuantMatmul<TO> op;
  op.Init(x1, x2, scale, pts, bias, out, M, K, N);
  op.Process();
}

// dt: the output's dtype, 0 fp32, 1 fp16, 2 bf16.
extern "C" __global__ __aicore__ void quant_matmul_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR scale, GM_ADDR pts, GM_ADDR bias,
                                                          GM_ADDR out, uint64_t M, uint64_t K, uint64_t N, int32_t dt) {
  if (dt == 1) RunQuantMatmul<half>(x1, x2, scale, pts, bias, out, M, K, N);
  else if (dt == 2) RunQuantMatmul<bfloat16_t>(x1, x2, scale, pts, bias, out, M, K, N);
  else RunQuantMatmul<float>(x1, x2, scale, pts, bias, out, M, K, N);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x1 = &a->inputs[0], *x2 = &a->inputs[1], *o = &a->outputs[0];
  if (x1->dtype != KOPE_I8 || x2->dtype != KOPE_I8 || a->inputs[2].dtype != KOPE_F32 || a->inputs[3].dtype != KOPE_F32 ||
      a->inputs[4].dtype != KOPE_I32 || (o->dtype != KOPE_F32 && o->dtype != KOPE_F16 && o->dtype != KOPE_BF16) || x1->ndim != 2 ||
      x2->ndim != 2)
    return 1;
  const uint64_t M = (uint64_t)x1->shape[0], K = (uint64_t)x1->shape[1], N = (uint64_t)x2->shape[1];
  if (M == 0 || N == 0) return 0;
  if (K == 0) return 1;
  const uint64_t items = (M + MB - 1) / MB * ((N + NT - 1) / NT);
  const uint32_t blockDim = items < MAX_CORES ? (uint32_t)items : MAX_CORES;
  const int32_t dt = o->dtype == KOPE_F16 ? 1 : o->dtype == KOPE_BF16 ? 2 : 0;
  GM_ADDR p0 = (GM_ADDR)x1->data, p1 = (GM_ADDR)x2->data, p2 = (GM_ADDR)a->inputs[2].data, p3 = (GM_ADDR)a->inputs[3].data;
  GM_ADDR p4 = (GM_ADDR)a->inputs[4].data, p5 = (GM_ADDR)o->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(quant_matmul_custom, blockDim, p0, p1, p2, p3, p4, p5, M, K, N, dt);
#else
  quant_matmul_custom<<<blockDim, nullptr, stream>>>(p0, p1, p2, p3, p4, p5, M, K, N, dt);
#endif
  return 0;
}
