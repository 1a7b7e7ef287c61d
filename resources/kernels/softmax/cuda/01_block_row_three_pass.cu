// thought: a block per row (1024 threads for long rows): the max by warp shuffles and shared memory, then sum exp(x - max) (short fp32 sums per thread, double across the block), then y = exp(x - max) * (1 / sum) recomputing the exponentials instead of storing them; every row is re-read from L2, typed fp16/bf16 loads and stores; fewer rows than SMs (a 1M-element row) go in 16k slices over many blocks, merged as online softmax does (sum_i s_i * exp(m_i - M))
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
    float mx = -INFINITY;
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) mx = fmaxf(mx, ld<DT>(x, base + n));
    mx = block_max(mx);
    float part = 0.0f;
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) part += expf(ld<DT>(x, base + n) - mx);
    const float inv = (float)(1.0 / block_sum((double)part));
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) st<DT>(y, base + n, expf(ld<DT>(x, base + n) - mx) * inv);
  }
}

#define MAX_PARTS (1 << 16)
__device__ float g_slice_max[MAX_PARTS];
__device__ double g_slice_sum[MAX_PARTS];

// Few long rows: each row in slices on many blocks (x: slice, y: row). Phase one: a slice's max and its sum of
// exp(x - that max).
template <int DT>
__global__ void __launch_bounds__(1024) slice_stats(const void* __restrict__ x, int64_t N, int64_t slice) {
  const int64_t row = blockIdx.y, base = row * N, r0 = blockIdx.x * slice, r1 = r0 + slice < N ? r0 + slice : N;
  float mx = -INFINITY;
  for (int64_t n = r0 + threadIdx.x; n < r1; n += blockDim.x) mx = fmaxf(mx, ld<DT>(x, base + n));
  mx = block_max(mx);
  float part = 0.0f;
  for (int64_t n = r0 + threadIdx.x; n < r1; n += blockDim.x) part += expf(ld<DT>(x, base + n) - mx);
  const double sum = block_sum((double)part);
  if (threadIdx.x == 0) {
    g_slice_max[row * gridDim.x + blockIdx.x] = mx;
    g_slice_sum[row * gridDim.x + blockIdx.x] = sum;
  }
}

// Phase two: every slice merges its row's statistics (the max M of the slice maxima, the sum of each slice's sum
// times exp(its max - M)) and writes its part of y.
template <int DT>
__global__ void __launch_bounds__(1024) slice_write(const void* __restrict__ x, void* __restrict__ y, int64_t N,
                                                    int64_t slice) {
  const int64_t row = blockIdx.y, base = row * N, P = gridDim.x;
  const int64_t r0 = blockIdx.x * slice, r1 = r0 + slice < N ? r0 + slice : N;
  float mx = -INFINITY;
  for (int64_t p = threadIdx.x; p < P; p += blockDim.x) mx = fmaxf(mx, g_slice_max[row * P + p]);
  mx = block_max(mx);
  double sum = 0.0;
  for (int64_t p = threadIdx.x; p < P; p += blockDim.x) {
    const float m = g_slice_max[row * P + p];  // -inf: an empty slice, which adds nothing
    if (m != -INFINITY) sum += g_slice_sum[row * P + p] * exp((double)m - (double)mx);
  }
  const float inv = (float)(1.0 / block_sum(sum));
  for (int64_t n = r0 + threadIdx.x; n < r1; n += blockDim.x) st<DT>(y, base + n, expf(ld<DT>(x, base + n) - mx) * inv);
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->inputs[0].shape[0], N = a->inputs[0].shape[1];
  if (M * N == 0) return 0;
  if (M < 64 && N >= 65536) {  // fewer rows than SMs: 16k-element slices, two kernels
    int64_t parts = (N + 16383) / 16384;
    parts = parts > 1024 ? 1024 : parts;
    parts = M * parts > MAX_PARTS ? MAX_PARTS / M : parts;
    const int64_t slice = (N + parts - 1) / parts;
    const dim3 grid((unsigned)parts, (unsigned)M);
    slice_stats<DT><<<grid, 1024, 0, s>>>(a->inputs[0].data, N, slice);
    slice_write<DT><<<grid, 1024, 0, s>>>(a->inputs[0].data, a->outputs[0].data, N, slice);
    return (int)cudaGetLastError();
  }
  const int threads = N >= 8192 ? 1024 : N >= 1024 ? 256 : 128;
  softmax_rows<DT><<<(unsigned)(M < 65535 ? M : 65535), threads, 0, s>>>(a->inputs[0].data, a->outputs[0].data, M, N);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
