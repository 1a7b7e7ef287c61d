// CUDA baseline for cross_entropy_loss: one thread per row computing log_softmax in double (max, log-sum-exp,
// log_prob), its loss term added into a double accumulator; a one-thread kernel takes the mean over the rows not
// ignored (NaN when every row is).
#include "kope_cuda.h"
#include <math.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element i of a floating tensor whatever its storage (fp32, fp64, fp16, bf16), and the store back.
__device__ inline double ldx(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F64: return static_cast<const double*>(p)[i];
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void stx(void* p, int dt, int64_t i, double v) {
  switch (dt) {
    case KOPE_F64: static_cast<double*>(p)[i] = v; break;
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn((float)v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn((float)v); break;
    default: static_cast<float*>(p)[i] = (float)v; break;
  }
}
// Index tensors: int32 or int64.
__device__ inline int64_t ldi(const void* p, int dt, int64_t i) {
  return dt == KOPE_I32 ? (int64_t) static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

__device__ double g_total;
__device__ unsigned long long g_count;

__global__ void ce_reset() {
  g_total = 0.0;
  g_count = 0;
}

__global__ void ce_rows(kope_tensor x, const int64_t* target, kope_tensor lp, int64_t ignore, double ls) {
  const int64_t N = x.shape[0], C = x.shape[1];
  for (int64_t n = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; n < N; n += (int64_t)gridDim.x * blockDim.x) {
    double mx = -INFINITY;
    for (int64_t c = 0; c < C; ++c) {
      const double v = ldx(x.data, x.dtype, n * C + c);
      mx = (v > mx || v != v) ? v : mx;
    }
    double sum = 0;
    for (int64_t c = 0; c < C; ++c) sum += exp(ldx(x.data, x.dtype, n * C + c) - mx);
    const double lse = mx + log(sum);
    double all = 0;
    for (int64_t c = 0; c < C; ++c) {
      const double l = ldx(x.data, x.dtype, n * C + c) - lse;
      all += l;
      stx(lp.data, lp.dtype, n * C + c, l);
    }
    const int64_t t = target[n];
    if (t == ignore) continue;
    const double nll = t >= 0 && t < C ? -(ldx(x.data, x.dtype, n * C + t) - lse) : NAN;
    atomicAdd(&g_total, ls == 0 ? nll : (1 - ls) * nll + ls * (-all / (double)C));  // only the target without smoothing
    atomicAdd(&g_count, 1ull);
  }
}

__global__ void ce_mean(float* loss) { loss[0] = g_count ? (float)(g_total / (double)g_count) : NAN; }

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  ce_reset<<<1, 1, 0, s>>>();
  if (a->inputs[0].shape[0] > 0)
    ce_rows<<<grid_for(a->inputs[0].shape[0]), 256, 0, s>>>(
        a->inputs[0], (const int64_t*)a->inputs[1].data, a->outputs[1], (int64_t)kope_attr_or(a, "ignore_index", -100),
        kope_attr_or(a, "label_smoothing", 0.0));
  ce_mean<<<1, 1, 0, s>>>((float*)a->outputs[0].data);
  return (int)cudaGetLastError();
}
