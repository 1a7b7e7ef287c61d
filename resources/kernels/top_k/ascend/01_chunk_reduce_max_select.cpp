// thought: rows split over the AI cores; a row streams through the UB in chunks widened to fp32, each placed after the running best K (values and int64 indices) in one work tensor, and K rounds of ReduceMax with calIndex (NaN first, as the vector unit's max lets a NaN win) each take the largest and mask it with -inf, which leaves the new best K in descending order; ties may come out in any order (the task accepts any index of an equal value), and the rare rounds whose maximum is -inf scan for an untaken -inf on the scalar unit.
// thought: x and values are fp32, fp16 or bf16 (one dtype): fp16 and bf16 chunks are Cast to fp32 in the UB (CAST_NONE, exact), selected in fp32, and the best K Cast back (CAST_RINT, exact: they came from T).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 8192;      // row elements per chunk
constexpr uint32_t MAXK = 1024;    // the largest K handled
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CORES = 40;

template <typename T> class KernelTopK {
 public:
  __aicore__ inline KernelTopK() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t R, uint64_t N, uint32_t K, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= R ? 0 : (R - first_ < rowsPerCore ? R - first_ : rowsPerCore);
    N_ = N, K_ = K, Kp_ = (K + 7) / 8 * 8;
    xGm_.SetGlobalBuffer((__gm__ T*)x, R * N);
    vGm_.SetGlobalBuffer((__gm__ T*)values, R * K);
    iGm_.SetGlobalBuffer((__gm__ int64_t*)indices, R * K);
    pipe_.InitBuffer(inQ_, BUFFER_NUM, CH * sizeof(T));
    pipe_.InitBuffer(work_, (Kp_ + CH) * sizeof(float));
    pipe_.InitBuffer(tmp_, (Kp_ + CH) * sizeof(float));
    pipe_.InitBuffer(red_, 64 * sizeof(float));
    pipe_.InitBuffer(bestI_, Kp_ * sizeof(int64_t));
    pipe_.InitBuffer(newV_, Kp_ * sizeof(float));
    pipe_.InitBuffer(newI_, Kp_ * sizeof(int64_t));
    pipe_.InitBuffer(taken_, Kp_ * sizeof(uint32_t));
    pipe_.InitBuffer(vQ_, 1, Kp_ * sizeof(T));
    pipe_.InitBuffer(iQ_, 1, Kp_ * sizeof(int64_t));
  }

  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      LocalTensor<float> w = work_.Get<float>();
      for (uint64_t c = 0; c < N_; c += CH) {
        const uint32_t n = N_ - c < CH ? (uint32_t)(N_ - c) : CH;
        LocalTensor<T> in = inQ_.template AllocTensor<T>();
        DataCopyPad(in, xGm_[r * N_ + c], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        inQ_.EnQue(in);
        in = inQ_.template DeQue<T>();
        if constexpr (sizeof(T) == sizeof(float)) Adds(w[Kp_], in.template ReinterpretCast<float>(), 0.0f, n);
        else Cast(w[Kp_], in, RoundMode::CAST_NONE, n);
        inQ_.FreeTensor(in);
        // The first chunk alone; later ones with the best K in front (slots K..Kp hold -inf and are never taken).
        Select(c == 0 ? Kp_ : 0, c == 0 ? n : Kp_ + n, c);
      }
      // CopyOut: the best K, descending.
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      LocalTensor<T> v = vQ_.template AllocTensor<T>();
      if constexpr (sizeof(T) == sizeof(float)) Adds(v.template ReinterpretCast<float>(), w, 0.0f, K_);
      else Cast(v, w, RoundMode::CAST_RINT, K_);  // exact: the values came from T
      vQ_.EnQue(v);
      v = vQ_.template DeQue<T>();
      DataCopyPad(vGm_[r * K_], v, DataCopyExtParams{1, (uint32_t)(K_ * sizeof(T)), 0, 0, 0});
      vQ_.FreeTensor(v);
      LocalTensor<int64_t> bi = bestI_.Get<int64_t>();
      LocalTensor<int64_t> io = iQ_.template AllocTensor<int64_t>();
      for (uint32_t k = 0; k < K_; ++k) io.SetValue(k, bi.GetValue(k));
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      iQ_.EnQue(io);
      io = iQ_.template DeQue<int64_t>();
      DataCopyPad(iGm_[r * K_], io, DataCopyExtParams{1, (uint32_t)(K_ * sizeof(int64_t)), 0, 0, 0});
      iQ_.FreeTensor(io);
      SetFlag<HardEvent::MTE3_S>(0);
      WaitFlag<HardEvent::MTE3_S>(0);
    }
  }

 private:
  // K rounds over work[start, start + len): take the maximum, mask it with -inf. Position p < Kp is best slot p
  // (its index in bestI_), p >= Kp is element c + p - Kp of the row. The new best K go to work[0, K) and bestI_.
  __aicore__ inline void Select(uint32_t start, uint32_t len, uint64_t c) {
    LocalTensor<float> w = work_.Get<float>(), t = tmp_.Get<float>(), red = red_.Get<float>(), nv = newV_.Get<float>();
    LocalTensor<int64_t> bi = bestI_.Get<int64_t>(), ni = newI_.Get<int64_t>();
    LocalTensor<uint32_t> taken = taken_.Get<uint32_t>();
    const float ninf = -__builtin_inff();
    for (uint32_t k = 0; k < K_; ++k) {
      ReduceMax(red, w[start], t, (int32_t)len, true);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      const float v = red.GetValue(0);
      uint32_t p = start + red.template ReinterpretCast<uint32_t>().GetValue(1);
      if (v == ninf) {  // only -inf left: the first untaken -inf element (not a padding slot)
        for (uint32_t q = start; q < start + len; ++q) {
          if (q >= K_ && q < Kp_) continue;
          if (!(w.GetValue(q) == ninf)) continue;
          bool used = false;
          for (uint32_t j = 0; j < k; ++j) used = used || taken.GetValue(j) == q;
          if (!used) {
            p = q;
            break;
          }
        }
      }
      taken.SetValue(k, p);
      nv.SetValue(k, v);
      ni.SetValue(k, p < Kp_ ? bi.GetValue(p) : (int64_t)(c + p - Kp_));
      w.SetValue(p, ninf);
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
    }
    for (uint32_t k = 0; k < K_; ++k) {
      w.SetValue(k, nv.GetValue(k));
      bi.SetValue(k, ni.GetValue(k));
    }
    for (uint32_t k = K_; k < Kp_; ++k) w.SetValue(k, ninf);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
  TQue<QuePosition::VECOUT, 1> vQ_, iQ_;
  TBuf<QuePosition::VECCALC> work_, tmp_, red_, bestI_, newV_, newI_, taken_;
  GlobalTensor<T> xGm_, vGm_;
  GlobalTensor<int64_t> iGm_;
  uint64_t first_ = 0, rows_ = 0, N_ = 1;
  uint32_t K_ = 1, Kp_ = 8;
};

extern "C" __global__ __aicore__ void top_k_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint64_t R, uint64_t N,
                                                   uint32_t K, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelTopK<half> op;
    op.Init(x, values, indices, R, N, K, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelTopK<bfloat16_t> op;
    op.Init(x, values, indices, R, N, K, rowsPerCore);
    op.Process();
  } else {
    KernelTopK<float> op;
    op.Init(x, values, indices, R, N, K, rowsPerCore);
    op.Process();
  }
}

// x and values fp32, fp16 or bf16 (dt 0, 1, 2), one dtype; indices int64.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *v = &a->outputs[0], *ix = &a->outputs[1];
  const int32_t dt = x->dtype == KOPE_F32 ? 0 : x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0 || v->dtype != x->dtype || ix->dtype != KOPE_I64 || x->ndim != 2) return 1;
  const uint64_t R = (uint64_t)x->shape[0], N = (uint64_t)x->shape[1];
  const uint32_t K = (uint32_t)v->shape[1];
  if (K > N || K > MAXK) return 2;
  if (R == 0 || K == 0) return 0;
  const uint32_t blockDim = R < MAX_CORES ? (uint32_t)R : MAX_CORES;
  const uint64_t rowsPerCore = (R + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, pv = (GM_ADDR)v->data, pi = (GM_ADDR)ix->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(top_k_custom, blockDim, px, pv, pi, R, N, K, rowsPerCore, dt);
#else
  top_k_custom<<<blockDim, nullptr, stream>>>(px, pv, pi, R, N, K, rowsPerCore, dt);
#endif
  return 0;
}
