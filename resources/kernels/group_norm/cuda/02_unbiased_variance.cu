// thought: a block per (n, g) group: one pass for the sum and the sum of squares in double (warp shuffles, shared memory across warps), the sample variance from them, then one fused pass y = x * s + t with the scale and shift folded per channel
// flaw: the sample (unbiased, / (count - 1)) variance is not group_norm's: torch normalises by the biased variance (/ count), so rstd is off by sqrt(count / (count - 1)) (0.4% for 128 elements, inf for a group of one) and y with it
#include "kope_cuda.h"
#include <math.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element access by storage type, fixed at compile time: fp32, fp16, bf16 (stores round to nearest even).
template <int DT> __device__ __forceinline__ float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return __half2float(static_cast<const __half*>(p)[i]);
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  else return static_cast<const float*>(p)[i];
}
template <int DT> __device__ __forceinline__ void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}
#define KOPE_BY_DTYPE(dt, F, ...)                     \
  switch (dt) {                                       \
    case KOPE_F16: return F<KOPE_F16>(__VA_ARGS__);   \
    case KOPE_BF16: return F<KOPE_BF16>(__VA_ARGS__); \
    case KOPE_F32: return F<KOPE_F32>(__VA_ARGS__);   \
    default: return (int)cudaErrorInvalidValue;       \
  }

// Sum of a double over the block (any multiple of 32 threads up to 1024); every thread gets the total.
__device__ double block_sum(double v) {
  __shared__ double part[32];
  __shared__ double total;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    double w = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0.0;
    for (int o = 16; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffffu, w, o);
    if (threadIdx.x == 0) total = w;
  }
  __syncthreads();
  const double t = total;
  __syncthreads();  // total and part are reused by the next call
  return t;
}

template <int DT>
__global__ void __launch_bounds__(1024)
    group_norm(const void* __restrict__ x, const void* __restrict__ gamma, const void* __restrict__ beta,
               void* __restrict__ y, float* __restrict__ mean_out, float* __restrict__ rstd_out, int64_t N, int64_t C,
               int64_t HW, int64_t G, double eps) {
  const int64_t CG = C / G, count = CG * HW;
  for (int64_t ng = blockIdx.x; ng < N * G; ng += gridDim.x) {
    const int64_t n = ng / G, g = ng - n * G;
    const int64_t base = (n * C + g * CG) * HW;
    double s = 0.0, q = 0.0;
    for (int64_t i = threadIdx.x; i < count; i += blockDim.x) {
      const double v = ld<DT>(x, base + i);
      s += v;
      q += v * v;
    }
    s = block_sum(s);
    q = block_sum(q);
    const double mean = s / (double)count;
    double var = (q - s * mean) / (double)(count - 1);
    var = var < 0 ? 0 : var;
    const double rstd = 1.0 / sqrt(var + eps);
    if (threadIdx.x == 0) {
      mean_out[ng] = (float)mean;
      rstd_out[ng] = (float)rstd;
    }
    for (int64_t c = g * CG; c < (g + 1) * CG; ++c) {
      const double scale = rstd * ld<DT>(gamma, c);
      const float fs = (float)scale, fb = (float)(ld<DT>(beta, c) - mean * scale);
      const int64_t row = (n * C + c) * HW;
      for (int64_t i = threadIdx.x; i < HW; i += blockDim.x) st<DT>(y, row + i, ld<DT>(x, row + i) * fs + fb);
    }
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t N = x.shape[0], C = x.shape[1], HW = x.shape[2], G = a->outputs[1].shape[1];
  if (N * G == 0) return 0;
  const int threads = C / G * HW >= 8192 ? 1024 : 256;
  group_norm<DT><<<(unsigned)(N * G < 65535 ? N * G : 65535), threads, 0, s>>>(
      x.data, a->inputs[1].data, a->inputs[2].data, a->outputs[0].data, (float*)a->outputs[1].data,
      (float*)a->outputs[2].data, N, C, HW, G, kope_attr_or(a, "eps", 1e-5));
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
