// thought: a block per (n, g) group: one pass for the sum and the sum of squares (double per thread, warp shuffles and shared memory across warps: the groups reach 256k elements, where fp32 running sums fail the threshold), mean and biased variance from them, then one fused pass y = x * s + t with s = rstd * gamma[c] and t = beta[c] - mean * s folded per channel; fp16/bf16 storage widens per element; fewer groups than SMs (4 groups of 256k) go in 16k slices over many blocks, a second kernel summing the slices' partials
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
    double var = q / (double)count - mean * mean;
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

#define MAX_PARTS (1 << 16)
__device__ double g_slice_s[MAX_PARTS];
__device__ double g_slice_q[MAX_PARTS];

// Few large groups: each group in slices on many blocks (x: slice, y: group; a group's elements are contiguous).
// Phase one: a slice's sum and sum of squares.
template <int DT>
__global__ void __launch_bounds__(1024) slice_stats(const void* __restrict__ x, int64_t count, int64_t slice) {
  const int64_t base = blockIdx.y * count, r0 = blockIdx.x * slice, r1 = r0 + slice < count ? r0 + slice : count;
  double s = 0.0, q = 0.0;
  for (int64_t i = r0 + threadIdx.x; i < r1; i += blockDim.x) {
    const double v = ld<DT>(x, base + i);
    s += v;
    q += v * v;
  }
  s = block_sum(s);
  q = block_sum(q);
  if (threadIdx.x == 0) {
    g_slice_s[blockIdx.y * gridDim.x + blockIdx.x] = s;
    g_slice_q[blockIdx.y * gridDim.x + blockIdx.x] = q;
  }
}

// Phase two: every slice sums its group's partials into mean and rstd (slice 0 writes them) and writes its part of y.
template <int DT>
__global__ void __launch_bounds__(1024)
    slice_write(const void* __restrict__ x, const void* __restrict__ gamma, const void* __restrict__ beta,
                void* __restrict__ y, float* __restrict__ mean_out, float* __restrict__ rstd_out, int64_t count,
                int64_t HW, int64_t CG, int64_t G, int64_t slice, double eps) {
  const int64_t ng = blockIdx.y, base = ng * count, P = gridDim.x, g = ng % G;
  const int64_t r0 = blockIdx.x * slice, r1 = r0 + slice < count ? r0 + slice : count;
  double s = 0.0, q = 0.0;
  for (int64_t p = threadIdx.x; p < P; p += blockDim.x) {
    s += g_slice_s[ng * P + p];
    q += g_slice_q[ng * P + p];
  }
  s = block_sum(s);
  q = block_sum(q);
  const double mean = s / (double)count;
  double var = q / (double)count - mean * mean;
  var = var < 0 ? 0 : var;
  const double rstd = 1.0 / sqrt(var + eps);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    mean_out[ng] = (float)mean;
    rstd_out[ng] = (float)rstd;
  }
  for (int64_t i = r0 + threadIdx.x; i < r1; i += blockDim.x) {
    const int64_t c = g * CG + i / HW;
    const double scale = rstd * ld<DT>(gamma, c);
    const float fs = (float)scale, fb = (float)(ld<DT>(beta, c) - mean * scale);
    st<DT>(y, base + i, ld<DT>(x, base + i) * fs + fb);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t N = x.shape[0], C = x.shape[1], HW = x.shape[2], G = a->outputs[1].shape[1];
  if (N * G == 0) return 0;
  const int64_t count = C / G * HW;
  if (N * G < 64 && count >= 65536) {  // fewer groups than SMs: 16k-element slices, two kernels
    int64_t parts = (count + 16383) / 16384;
    parts = parts > 1024 ? 1024 : parts;
    const int64_t slice = (count + parts - 1) / parts;
    const dim3 grid((unsigned)parts, (unsigned)(N * G));
    slice_stats<DT><<<grid, 1024, 0, s>>>(x.data, count, slice);
    slice_write<DT><<<grid, 1024, 0, s>>>(x.data, a->inputs[1].data, a->inputs[2].data, a->outputs[0].data,
                                          (float*)a->outputs[1].data, (float*)a->outputs[2].data, count, HW, C / G, G,
                                          slice, kope_attr_or(a, "eps", 1e-5));
    return (int)cudaGetLastError();
  }
  const int threads = count >= 8192 ? 1024 : 256;
  group_norm<DT><<<(unsigned)(N * G < 65535 ? N * G : 65535), threads, 0, s>>>(
      x.data, a->inputs[1].data, a->inputs[2].data, a->outputs[0].data, (float*)a->outputs[1].data,
      (float*)a->outputs[2].data, N, C, HW, G, kope_attr_or(a, "eps", 1e-5));
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
