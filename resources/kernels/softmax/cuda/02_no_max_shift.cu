// thought: a block per row: softmax is shift-invariant in exact arithmetic, so skip the max pass and save a full read of the row: sum exp(x) (double across the block), then y = exp(x) / sum
// flaw: without the max subtraction exp overflows for logits above 88.7 (the large-logit cases, FLT_MAX and 1e30 in the special case): inf / inf = NaN
#include "kope_cuda.h"

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

__device__ float block_max(float v) {
  __shared__ float part[32];
  __shared__ float total;
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    float w = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : -INFINITY;
    for (int o = 16; o > 0; o >>= 1) w = fmaxf(w, __shfl_xor_sync(0xffffffffu, w, o));
    if (threadIdx.x == 0) total = w;
  }
  __syncthreads();
  const float t = total;
  __syncthreads();
  return t;
}

template <int DT>
__global__ void __launch_bounds__(1024)
    softmax_rows(const void* __restrict__ x, void* __restrict__ y, int64_t M, int64_t N) {
  for (int64_t m = blockIdx.x; m < M; m += gridDim.x) {
    const int64_t base = m * N;
    const float mx = 0.0f;
    float part = 0.0f;
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) part += expf(ld<DT>(x, base + n) - mx);
    const float inv = (float)(1.0 / block_sum((double)part));
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) st<DT>(y, base + n, expf(ld<DT>(x, base + n) - mx) * inv);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->inputs[0].shape[0], N = a->inputs[0].shape[1];
  if (M * N == 0) return 0;
  const int threads = N >= 8192 ? 1024 : N >= 1024 ? 256 : 128;
  softmax_rows<DT><<<(unsigned)(M < 65535 ? M : 65535), threads, 0, s>>>(a->inputs[0].data, a->outputs[0].data, M, N);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
