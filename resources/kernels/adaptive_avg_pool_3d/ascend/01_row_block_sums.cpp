// thought: adaptive 3-D average pooling by output rows (p, od, oh) over the AI cores: the window's H rows are contiguous in x for each depth, so each depth's block of (h1 - h0) W elements moves in with one DataCopyPad (double-buffered queue), fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB, and the vector unit adds the blocks, then the block's rows into one row of W column sums; the scalar unit sums each output's column window and divides by the window's count; a core's outputs are contiguous in y and leave in batches (fp16 and bf16 Cast back once, CAST_RINT).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t BLK = 8192;      // elements of one depth's row block ((h1 - h0) * W) held in the UB
constexpr uint32_t OUTB = 2048;     // outputs gathered before one copy out
constexpr uint32_t MAX_CORES = 40;

// torch's window of output index o of O over an axis of length L: [floor(o L / O), ceil((o + 1) L / O)).
__aicore__ inline uint64_t StartOf(uint64_t o, uint64_t L, uint64_t O) { return o * L / O; }
__aicore__ inline uint64_t EndOf(uint64_t o, uint64_t L, uint64_t O) { return ((o + 1) * L + O - 1) / O; }

template <typename T> class KernelAdaptiveAvgPool3d {
 public:
  __aicore__ inline KernelAdaptiveAvgPool3d() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t D, uint64_t H, uint64_t W, uint64_t OD, uint64_t OH,
                              uint64_t OW, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    const uint64_t rows = NC * OD * OH;
    rows_ = first_ >= rows ? 0 : (rows - first_ < rowsPerCore ? rows - first_ : rowsPerCore);
    D_ = D, H_ = H, W_ = W, OD_ = OD, OH_ = OH, OW_ = OW;
    xGm_.SetGlobalBuffer((__gm__ T*)x, NC * D * H * W);
    yGm_.SetGlobalBuffer((__gm__ T*)y, rows * OW);
    pipe_.InitBuffer(inQ_, 2, BLK * sizeof(T));
    pipe_.InitBuffer(acc_, BLK * sizeof(float));
    pipe_.InitBuffer(cvt_, BLK * sizeof(float));
    pipe_.InitBuffer(out_, OUTB * sizeof(float));
    pipe_.InitBuffer(outT_, OUTB * sizeof(T));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> acc = acc_.Get<float>(), o = out_.Get<float>();
    uint64_t pending = 0, flushed = first_ * OW_;  // outputs gathered in o; y index of o[0]
    for (uint64_t row = first_; row < first_ + rows_; ++row) {
      const uint64_t oh = row % OH_, od = (row / OH_) % OD_, p = row / (OH_ * OD_);
      const uint64_t d0 = StartOf(od, D_, OD_), d1 = EndOf(od, D_, OD_);
      const uint64_t h0 = StartOf(oh, H_, OH_), h1 = EndOf(oh, H_, OH_);
      const uint32_t n = (uint32_t)((h1 - h0) * W_);
      for (uint64_t d = d0; d < d1; ++d) {  // acc = sum over the depths of the (h1 - h0) x W block
        LocalTensor<T> xb = inQ_.template AllocTensor<T>();
        DataCopyPad(xb, xGm_[((p * D_ + d) * H_ + h0) * W_], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        inQ_.EnQue(xb);
        xb = inQ_.template DeQue<T>();
        LocalTensor<float> f;
        if constexpr (sizeof(T) == sizeof(float)) {
          f = xb.template ReinterpretCast<float>();
        } else {
          f = cvt_.Get<float>();
          Cast(f, xb, RoundMode::CAST_NONE, n);
        }
        if (d == d0) DataCopy(acc, f, (n + 7) / 8 * 8);  // UB -> UB in whole blocks: the padding lanes are never read
        else Add(acc, acc, f, n);
        PipeBarrier<PIPE_V>();
        inQ_.FreeTensor(xb);
      }
      for (uint64_t h = 1; h < h1 - h0; ++h) {  // the block's rows into row 0: column sums
        // row h starts at h W elements: a 32-byte aligned operand only when W is a multiple of 8; else scalar adds
        if (W_ % 8 == 0) {
          Add(acc, acc, acc[(uint32_t)(h * W_)], (int32_t)W_);
          PipeBarrier<PIPE_V>();
        } else {
          SetFlag<HardEvent::V_S>(0);
          WaitFlag<HardEvent::V_S>(0);
          for (uint32_t w = 0; w < W_; ++w) acc.SetValue(w, acc.GetValue(w) + acc.GetValue((uint32_t)(h * W_) + w));
        }
      }
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      const float dh = (float)((d1 - d0) * (h1 - h0));
      for (uint64_t ow = 0; ow < OW_; ++ow) {
        const uint64_t w0 = StartOf(ow, W_, OW_), w1 = EndOf(ow, W_, OW_);
        float s = 0.0f;
        for (uint64_t w = w0; w < w1; ++w) s += acc.GetValue((uint32_t)w);
        o.SetValue((uint32_t)pending++, s / (dh * (float)(w1 - w0)));
        if (pending == OUTB) {
          Flush(o, flushed, (uint32_t)pending);
          flushed += pending, pending = 0;
        }
      }
    }
    if (pending) Flush(o, flushed, (uint32_t)pending);
  }

 private:
  __aicore__ inline void Flush(const LocalTensor<float>& o, uint64_t at, uint32_t n) {
    if constexpr (sizeof(T) == sizeof(float)) {
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(yGm_[at], o.template ReinterpretCast<T>(), DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    } else {
      LocalTensor<T> t = outT_.Get<T>();
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      Cast(t, o, RoundMode::CAST_RINT, n);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[at], t, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_S>(0);  // the next batch may not overwrite o before this one is out
    WaitFlag<HardEvent::MTE3_S>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQ_;
  TBuf<QuePosition::VECCALC> acc_, cvt_, out_, outT_;
  GlobalTensor<T> xGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, D_ = 1, H_ = 1, W_ = 1, OD_ = 1, OH_ = 1, OW_ = 1;
};

extern "C" __global__ __aicore__ void adaptive_avg_pool_3d_custom(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t D, uint64_t H,
                                                                  uint64_t W, uint64_t OD, uint64_t OH, uint64_t OW,
                                                                  uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelAdaptiveAvgPool3d<half> op;
    op.Init(x, y, NC, D, H, W, OD, OH, OW, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelAdaptiveAvgPool3d<bfloat16_t> op;
    op.Init(x, y, NC, D, H, W, OD, OH, OW, rowsPerCore);
    op.Process();
  } else {
    KernelAdaptiveAvgPool3d<float> op;
    op.Init(x, y, NC, D, H, W, OD, OH, OW, rowsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || y->dtype != x->dtype || x->ndim != 5 || y->ndim != 5) return 1;
  const uint64_t NC = (uint64_t)(x->shape[0] * x->shape[1]), D = (uint64_t)x->shape[2], H = (uint64_t)x->shape[3],
                 W = (uint64_t)x->shape[4];
  const uint64_t OD = (uint64_t)y->shape[2], OH = (uint64_t)y->shape[3], OW = (uint64_t)y->shape[4];
  const uint64_t rows = NC * OD * OH;
  if (rows * OW == 0) return 0;
  uint64_t hmax = 0;  // the tallest H window: its block of rows must fit the UB
  for (uint64_t oh = 0; oh < OH; ++oh) {
    const uint64_t h = ((oh + 1) * H + OH - 1) / OH - oh * H / OH;
    hmax = h > hmax ? h : hmax;
  }
  if (hmax * W > BLK) return 1;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(adaptive_avg_pool_3d_custom, blockDim, px, py, NC, D, H, W, OD, OH, OW, rowsPerCore, dt);
#else
  adaptive_avg_pool_3d_custom<<<blockDim, nullptr, stream>>>(px, py, NC, D, H, W, OD, OH, OW, rowsPerCore, dt);
#endif
  return 0;
}
