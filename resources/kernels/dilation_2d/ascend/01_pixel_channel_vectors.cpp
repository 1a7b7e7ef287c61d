// thought: NHWC dilation by output rows (n, oh) over the AI cores, the channels as vectors: each input row the window touches moves in with one DataCopyPad of W blocks of C elements, each pixel padded to 32 bytes in the UB so every pixel's channel vector is an aligned operand (fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB), the filter likewise once per core; per output pixel and in-bounds tap the vector unit adds the filter's channel vector and takes the running Max (started at -inf), and the row leaves in one padded-block copy (fp16 and bf16 Cast back once, CAST_RINT). TensorFlow's SAME padding computed on the host.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t ROW = 8192;      // elements of one padded row (W or OW pixels of S channels) in the UB
constexpr uint32_t FILT = 4096;     // elements of the padded filter (KH KW taps of S channels)
constexpr uint32_t MAX_CORES = 40;

// S: a pixel's channel stride in the UB, C rounded up to 32 bytes of T.
template <typename T> class KernelDilation {
 public:
  __aicore__ inline KernelDilation() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR y, uint64_t N, uint64_t H, uint64_t W, uint64_t C, uint64_t KH,
                              uint64_t KW, uint64_t OH, uint64_t OW, uint64_t sh, uint64_t sw, uint64_t rh, uint64_t rw,
                              uint64_t pt, uint64_t pl, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= N * OH ? 0 : (N * OH - first_ < rowsPerCore ? N * OH - first_ : rowsPerCore);
    H_ = H, W_ = W, C_ = C, KH_ = KH, KW_ = KW, OH_ = OH, OW_ = OW, sh_ = sh, sw_ = sw, rh_ = rh, rw_ = rw, pt_ = pt, pl_ = pl;
    S_ = (uint32_t)((C * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    xGm_.SetGlobalBuffer((__gm__ T*)x, N * H * W * C);
    fGm_.SetGlobalBuffer((__gm__ T*)f, KH * KW * C);
    yGm_.SetGlobalBuffer((__gm__ T*)y, N * OH * OW * C);
    pipe_.InitBuffer(inQ_, 2, ROW * sizeof(T));
    pipe_.InitBuffer(acc_, ROW * sizeof(float));
    pipe_.InitBuffer(ff_, FILT * sizeof(float));
    pipe_.InitBuffer(tmp_, 64 * 1024 / 8);  // one pixel's channel sum: S floats (S <= ROW / W)
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe_.InitBuffer(xf_, ROW * sizeof(float));
      pipe_.InitBuffer(outT_, ROW * sizeof(T));
      pipe_.InitBuffer(fT_, FILT * sizeof(T));
    }
  }
  __aicore__ inline void Process() {
    if (rows_ == 0) return;
    LoadFilter();
    LocalTensor<float> acc = acc_.Get<float>(), ff = ff_.Get<float>(), t = tmp_.Get<float>();
    const int32_t C = (int32_t)C_;
    for (uint64_t row = first_; row < first_ + rows_; ++row) {
      const uint64_t n = row / OH_, oh = row % OH_;
      Duplicate(acc, -__builtin_inff(), (int32_t)(OW_ * S_));
      for (uint64_t kh = 0; kh < KH_; ++kh) {
        const int64_t h = (int64_t)(oh * sh_ + kh * rh_) - (int64_t)pt_;
        if (h < 0 || h >= (int64_t)H_) continue;
        LocalTensor<float> xr = LoadRow(n, (uint64_t)h);
        for (uint64_t ow = 0; ow < OW_; ++ow) {
          LocalTensor<float> a = acc[(uint32_t)(ow * S_)];
          for (uint64_t kw = 0; kw < KW_; ++kw) {
            const int64_t w = (int64_t)(ow * sw_ + kw * rw_) - (int64_t)pl_;
            if (w < 0 || w >= (int64_t)W_) continue;
            Add(t, xr[(uint32_t)w * S_], ff[(uint32_t)(kh * KW_ + kw) * S_], C);
            PipeBarrier<PIPE_V>();
            Max(a, a, t, C);
            PipeBarrier<PIPE_V>();
          }
        }
        if constexpr (sizeof(T) == sizeof(float)) inQ_.FreeTensor(xin_);
      }
      StoreRow(acc, row);
    }
  }

 private:
  __aicore__ inline void LoadFilter() {
    const uint16_t taps = (uint16_t)(KH_ * KW_);
    LocalTensor<float> ff = ff_.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      DataCopyPad(ff, fGm_, DataCopyExtParams{taps, (uint32_t)(C_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    } else {
      LocalTensor<T> ft = fT_.Get<T>();
      DataCopyPad(ft, fGm_, DataCopyExtParams{taps, (uint32_t)(C_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      Cast(ff, ft, RoundMode::CAST_NONE, (uint32_t)taps * S_);
    }
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
  }
  // Input row (n, h): W pixels, each at S floats in the UB. In fp32 the queue's buffer itself (freed by the caller).
  __aicore__ inline LocalTensor<float> LoadRow(uint64_t n, uint64_t h) {
    LocalTensor<T> xb = inQ_.template AllocTensor<T>();
    DataCopyPad(xb, xGm_[(n * H_ + h) * W_ * C_], DataCopyExtParams{(uint16_t)W_, (uint32_t)(C_ * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    inQ_.EnQue(xb);
    xb = inQ_.template DeQue<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      xin_ = xb;
      return xb.template ReinterpretCast<float>();
    } else {
      LocalTensor<float> xf = xf_.Get<float>();
      Cast(xf, xb, RoundMode::CAST_NONE, (uint32_t)(W_ * S_));
      PipeBarrier<PIPE_V>();
      inQ_.FreeTensor(xb);
      return xf;
    }
  }
  __aicore__ inline void StoreRow(const LocalTensor<float>& acc, uint64_t row) {
    const DataCopyExtParams out{(uint16_t)OW_, (uint32_t)(C_ * sizeof(T)), 0, 0, 0};
    if constexpr (sizeof(T) == sizeof(float)) {
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[row * OW_ * C_], acc.template ReinterpretCast<T>(), out);
    } else {
      LocalTensor<T> o = outT_.Get<T>();
      Cast(o, acc, RoundMode::CAST_RINT, (uint32_t)(OW_ * S_));
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[row * OW_ * C_], o, out);
    }
    SetFlag<HardEvent::MTE3_V>(0);  // the next row's Duplicate may not overwrite acc before it is out
    WaitFlag<HardEvent::MTE3_V>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQ_;
  TBuf<QuePosition::VECCALC> acc_, ff_, tmp_, xf_, outT_, fT_;
  GlobalTensor<T> xGm_, fGm_, yGm_;
  LocalTensor<T> xin_;
  uint64_t first_ = 0, rows_ = 0, H_ = 1, W_ = 1, C_ = 1, KH_ = 1, KW_ = 1, OH_ = 1, OW_ = 1;
  uint64_t sh_ = 1, sw_ = 1, rh_ = 1, rw_ = 1, pt_ = 0, pl_ = 0;
  uint32_t S_ = 8;
};

extern "C" __global__ __aicore__ void dilation_2d_custom(GM_ADDR x, GM_ADDR f, GM_ADDR y, uint64_t N, uint64_t H, uint64_t W,
                                                         uint64_t C, uint64_t KH, uint64_t KW, uint64_t OH, uint64_t OW,
                                                         uint64_t sh, uint64_t sw, uint64_t rh, uint64_t rw, uint64_t pt,
                                                         uint64_t pl, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelDilation<half> op;
    op.Init(x, f, y, N, H, W, C, KH, KW, OH, OW, sh, sw, rh, rw, pt, pl, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelDilation<bfloat16_t> op;
    op.Init(x, f, y, N, H, W, C, KH, KW, OH, OW, sh, sw, rh, rw, pt, pl, rowsPerCore);
    op.Process();
  } else {
    KernelDilation<float> op;
    op.Init(x, f, y, N, H, W, C, KH, KW, OH, OW, sh, sw, rh, rw, pt, pl, rowsPerCore);
    op.Process();
  }
}

// TensorFlow's padding before the first element of an axis (0 for VALID).
static uint64_t PadBefore(uint64_t L, uint64_t O, uint64_t K, uint64_t s, uint64_t r, int same) {
  if (!same) return 0;
  const int64_t total = (int64_t)((O - 1) * s + (K - 1) * r + 1) - (int64_t)L;
  return total > 0 ? (uint64_t)(total / 2) : 0;
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *f = &a->inputs[1], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || f->dtype != x->dtype || y->dtype != x->dtype || x->ndim != 4 ||
      f->ndim != 3 || y->ndim != 4)
    return 1;
  const uint64_t N = (uint64_t)x->shape[0], H = (uint64_t)x->shape[1], W = (uint64_t)x->shape[2], C = (uint64_t)x->shape[3];
  const uint64_t KH = (uint64_t)f->shape[0], KW = (uint64_t)f->shape[1], OH = (uint64_t)y->shape[1], OW = (uint64_t)y->shape[2];
  const uint64_t sh = (uint64_t)kope_attr_or(a, "stride_h", 1), sw = (uint64_t)kope_attr_or(a, "stride_w", 1);
  const uint64_t rh = (uint64_t)kope_attr_or(a, "rate_h", 1), rw = (uint64_t)kope_attr_or(a, "rate_w", 1);
  const int same = (int)kope_attr_or(a, "same", 1);
  if (N * OH * OW * C == 0) return 0;
  const uint64_t esz = x->dtype == KOPE_F32 ? 4 : 2, S = (C * esz + 31) / 32 * 32 / esz;
  if (W * S > ROW || OW * S > ROW || KH * KW * S > FILT || S * 4 > 64 * 1024 / 8 || W > 65535) return 1;  // UB sizes
  const uint64_t pt = PadBefore(H, OH, KH, sh, rh, same), pl = PadBefore(W, OW, KW, sw, rw, same);
  const uint64_t rows = N * OH;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, pf = (GM_ADDR)f->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(dilation_2d_custom, blockDim, px, pf, py, N, H, W, C, KH, KW, OH, OW, sh, sw, rh, rw, pt, pl, rowsPerCore, dt);
#else
  dilation_2d_custom<<<blockDim, nullptr, stream>>>(px, pf, py, N, H, W, C, KH, KW, OH, OW, sh, sw, rh, rw, pt, pl, rowsPerCore,
                                                    dt);
#endif
  return 0;
}
