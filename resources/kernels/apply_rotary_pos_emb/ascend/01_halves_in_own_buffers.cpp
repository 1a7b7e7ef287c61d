// thought: rotate-half RoPE per row of q and k (rows split over the AI cores, q rows then k rows, the position s from the row index): each half of x, cos and sin moves into its own aligned UB tensor with DataCopyPad, since H floats need not be whole 32-byte blocks, so rotate_half is only a choice of operands: o1 = x1 c1 + (-x2) s1, o2 = x2 c2 + x1 s2, the composite's IEEE order.
// thought: q, k, cos, sin and the outputs are fp32, fp16 or bf16 (one dtype): fp16 and bf16 halves land in their own T tensors, are Cast to fp32 in the UB (CAST_NONE, exact), rotated in fp32 exactly as the fp32 path does, and Cast back once (CAST_RINT) for the copy out; the half row then holds 2048 elements so the fp32 and T tensors fit the UB together.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t HMAX = 4096;     // elements of a half row (H) held in the UB: fp32 9 x 16 KB
constexpr uint32_t HMAX16 = 2048;   // ... fp16/bf16: 9 fp32 x 8 KB + 6 T x 4 KB
constexpr uint32_t VEC_ALIGN = 64;
constexpr uint32_t MAX_CORES = 40;

// out = x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x[H:], x[:H]), per row of D = 2H: the two halves
// of x, cos and sin each move into their own aligned UB tensor with DataCopyPad (H * 4 bytes need not be a
// multiple of 32), so the rotation is a choice of operands, not a data movement.
template <typename T> class KernelRope {
  static constexpr uint32_t HM = sizeof(T) == sizeof(float) ? HMAX : HMAX16;

 public:
  __aicore__ inline KernelRope() {}
  __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR cos, GM_ADDR sin, GM_ADDR qo, GM_ADDR ko, uint64_t B, uint64_t S,
                              uint64_t N, uint64_t NK, uint64_t H, uint64_t rowsPerCore) {
    const uint64_t rows = B * S * (N + NK);
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= rows ? 0 : (rows - first_ < rowsPerCore ? rows - first_ : rowsPerCore);
    S_ = S, N_ = N, NK_ = NK, H_ = H, qRows_ = B * S * N;
    qGm_.SetGlobalBuffer((__gm__ T*)q, B * S * N * 2 * H);
    kGm_.SetGlobalBuffer((__gm__ T*)k, B * S * NK * 2 * H);
    qoGm_.SetGlobalBuffer((__gm__ T*)qo, B * S * N * 2 * H);
    koGm_.SetGlobalBuffer((__gm__ T*)ko, B * S * NK * 2 * H);
    cGm_.SetGlobalBuffer((__gm__ T*)cos, S * 2 * H);
    sGm_.SetGlobalBuffer((__gm__ T*)sin, S * 2 * H);
    pipe_.InitBuffer(buf_, 9 * HM * sizeof(float));  // x1 x2 c1 c2 s1 s2 o1 o2 t
    if constexpr (sizeof(T) != sizeof(float)) pipe_.InitBuffer(raw_, 6 * HM * sizeof(T));  // the T halves, then the T outputs
  }
  __aicore__ inline void Process() {
    for (uint64_t r = first_; r < first_ + rows_; ++r) {
      const bool isQ = r < qRows_;
      const uint64_t rr = isQ ? r : r - qRows_;              // the row within q or k: ((b * S + s) * heads + h)
      const uint64_t s = (rr / (isQ ? N_ : NK_)) % S_;
      Row(isQ ? qGm_ : kGm_, isQ ? qoGm_ : koGm_, rr * 2 * H_, s * 2 * H_);
    }
  }

 private:
  __aicore__ inline void Half(const LocalTensor<T>& t, const GlobalTensor<T>& g, uint64_t off) {
    DataCopyPad(t, g[off], DataCopyExtParams{1, (uint32_t)(H_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
  }
  __aicore__ inline void Row(const GlobalTensor<T>& x, const GlobalTensor<T>& out, uint64_t xo, uint64_t co) {
    LocalTensor<float> all = buf_.Get<float>();
    LocalTensor<float> x1 = all, x2 = all[HM], c1 = all[2 * HM], c2 = all[3 * HM], s1 = all[4 * HM],
                       s2 = all[5 * HM], o1 = all[6 * HM], o2 = all[7 * HM], t = all[8 * HM];
    const int32_t m = (int32_t)((H_ + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN);
    LocalTensor<T> r1, r2;  // what goes out: o1 and o2 themselves (fp32), or their T copies
    if constexpr (sizeof(T) == sizeof(float)) {
      Half(x1, x, xo);
      Half(x2, x, xo + H_);
      Half(c1, cGm_, co);
      Half(c2, cGm_, co + H_);
      Half(s1, sGm_, co);
      Half(s2, sGm_, co + H_);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      r1 = o1, r2 = o2;
    } else {  // fp16/bf16: the halves in T, Cast to fp32 (exact)
      LocalTensor<T> raw = raw_.Get<T>();
      Half(raw, x, xo);
      Half(raw[HM], x, xo + H_);
      Half(raw[2 * HM], cGm_, co);
      Half(raw[3 * HM], cGm_, co + H_);
      Half(raw[4 * HM], sGm_, co);
      Half(raw[5 * HM], sGm_, co + H_);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      for (uint32_t i = 0; i < 6; ++i) Cast(all[i * HM], raw[i * HM], RoundMode::CAST_NONE, m);
      r1 = raw, r2 = raw[HM];
    }
    Mul(o1, x1, c1, m);       // first half: x1 * cos1 + (-x2) * sin1
    Muls(t, x2, -1.0f, m);
    Mul(t, t, s1, m);
    Add(o1, o1, t, m);
    Mul(o2, x2, c2, m);       // second half: x2 * cos2 + x1 * sin2
    Mul(t, x1, s2, m);
    Add(o2, o2, t, m);
    if constexpr (sizeof(T) != sizeof(float)) {  // round once to T, into the x halves' T space (read already)
      Cast(r1, o1, RoundMode::CAST_RINT, m);
      Cast(r2, o2, RoundMode::CAST_RINT, m);
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(out[xo], r1, DataCopyExtParams{1, (uint32_t)(H_ * sizeof(T)), 0, 0, 0});
    DataCopyPad(out[xo + H_], r2, DataCopyExtParams{1, (uint32_t)(H_ * sizeof(T)), 0, 0, 0});
    SetFlag<HardEvent::MTE3_MTE2>(0);  // the next row's loads reuse the buffers
    WaitFlag<HardEvent::MTE3_MTE2>(0);
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> buf_, raw_;
  GlobalTensor<T> qGm_, kGm_, qoGm_, koGm_, cGm_, sGm_;
  uint64_t first_ = 0, rows_ = 0, S_ = 1, N_ = 1, NK_ = 1, H_ = 1, qRows_ = 0;
};

extern "C" __global__ __aicore__ void rope_custom(GM_ADDR q, GM_ADDR k, GM_ADDR cos, GM_ADDR sin, GM_ADDR qo, GM_ADDR ko, uint64_t B,
                                                  uint64_t S, uint64_t N, uint64_t NK, uint64_t H, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelRope<half> op;
    op.Init(q, k, cos, sin, qo, ko, B, S, N, NK, H, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelRope<bfloat16_t> op;
    op.Init(q, k, cos, sin, qo, ko, B, S, N, NK, H, rowsPerCore);
    op.Process();
  } else {
    KernelRope<float> op;
    op.Init(q, k, cos, sin, qo, ko, B, S, N, NK, H, rowsPerCore);
    op.Process();
  }
}

// q [B, S, N, D], k [B, S, NK, D], cos and sin [S, D], D = 2H (layout BSND); all six tensors fp32, fp16 or bf16
// (dt 0, 1, 2), one dtype.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int dtype = a->inputs[0].dtype;
  const int32_t dt = dtype == KOPE_F32 ? 0 : dtype == KOPE_F16 ? 1 : dtype == KOPE_BF16 ? 2 : -1;
  if (dt < 0) return 1;
  for (int i = 0; i < 4; ++i)
    if (a->inputs[i].dtype != dtype) return 1;
  for (int i = 0; i < 2; ++i)
    if (a->outputs[i].dtype != dtype) return 1;
  const kope_tensor *q = &a->inputs[0], *k = &a->inputs[1];
  if (q->ndim != 4 || k->ndim != 4 || q->shape[3] % 2 != 0 || q->shape[3] / 2 > (dt == 0 ? HMAX : HMAX16)) return 1;
  const uint64_t B = (uint64_t)q->shape[0], S = (uint64_t)q->shape[1], N = (uint64_t)q->shape[2], NK = (uint64_t)k->shape[2];
  const uint64_t H = (uint64_t)q->shape[3] / 2, rows = B * S * (N + NK);
  if (rows == 0 || H == 0) return 0;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
  GM_ADDR pq = (GM_ADDR)q->data, pk = (GM_ADDR)k->data, pc = (GM_ADDR)a->inputs[2].data, ps = (GM_ADDR)a->inputs[3].data;
  GM_ADDR pqo = (GM_ADDR)a->outputs[0].data, pko = (GM_ADDR)a->outputs[1].data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(rope_custom, blockDim, pq, pk, pc, ps, pqo, pko, B, S, N, NK, H, rowsPerCore, dt);
#else
  rope_custom<<<blockDim, nullptr, stream>>>(pq, pk, pc, ps, pqo, pko, B, S, N, NK, H, rowsPerCore, dt);
#endif
  return 0;
}
