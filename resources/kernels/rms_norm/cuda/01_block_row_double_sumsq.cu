// thought: a block per row: the sum of squares in double per thread (rows reach 1M elements) reduced by warp shuffles and shared memory, rstd = 1 / sqrt(mean + eps) once per row, then a fused pass y = x * rstd * gamma; wider blocks for long rows, typed fp16/bf16 loads; fewer rows than SMs (a 1M-element row) go in 16k slices over many blocks, a second kernel summing the slices' partials
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
    rms_norm(const void* __restrict__ x, const void* __restrict__ gamma, void* __restrict__ y,
             float* __restrict__ rstd_out, int64_t M, int64_t D, double eps) {
  for (int64_t m = blockIdx.x; m < M; m += gridDim.x) {
    double acc = 0.0;
    for (int64_t d = threadIdx.x; d < D; d += blockDim.x) {
      const double v = ld<DT>(x, m * D + d);
      acc += v * v;
    }
    acc = block_sum(acc);
    const float rstd = (float)(1.0 / sqrt(acc / (double)D + eps));
    if (threadIdx.x == 0) rstd_out[m] = rstd;
    for (int64_t d = threadIdx.x; d < D; d += blockDim.x)
      st<DT>(y, m * D + d, ld<DT>(x, m * D + d) * rstd * ld<DT>(gamma, d));
  }
}

#define MAX_PARTS (1 << 16)
__device__ double g_slice_sumsq[MAX_PARTS];

// Few long rows: each row in slices on many blocks (x: slice, y: row). Phase one: a slice's sum of squares.
template <int DT>
__global__ void __launch_bounds__(1024) slice_sumsq(const void* __restrict__ x, int64_t D, int64_t slice) {
  const int64_t base = blockIdx.y * D, r0 = blockIdx.x * slice, r1 = r0 + slice < D ? r0 + slice : D;
  double acc = 0.0;
  for (int64_t d = r0 + threadIdx.x; d < r1; d += blockDim.x) {
    const double v = ld<DT>(x, base + d);
    acc += v * v;
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) g_slice_sumsq[blockIdx.y * gridDim.x + blockIdx.x] = acc;
}

// Phase two: every slice sums its row's partials, takes rstd and writes its part of y (slice 0 writes rstd).
template <int DT>
__global__ void __launch_bounds__(1024) slice_write(const void* __restrict__ x, const void* __restrict__ gamma,
                                                    void* __restrict__ y, float* __restrict__ rstd_out, int64_t D,
                                                    int64_t slice, double eps) {
  const int64_t row = blockIdx.y, base = row * D, P = gridDim.x;
  const int64_t r0 = blockIdx.x * slice, r1 = r0 + slice < D ? r0 + slice : D;
  double acc = 0.0;
  for (int64_t p = threadIdx.x; p < P; p += blockDim.x) acc += g_slice_sumsq[row * P + p];
  acc = block_sum(acc);
  const float rstd = (float)(1.0 / sqrt(acc / (double)D + eps));
  if (blockIdx.x == 0 && threadIdx.x == 0) rstd_out[row] = rstd;
  for (int64_t d = r0 + threadIdx.x; d < r1; d += blockDim.x)
    st<DT>(y, base + d, ld<DT>(x, base + d) * rstd * ld<DT>(gamma, d));
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->inputs[0].shape[0], D = a->inputs[0].shape[1];
  if (M == 0) return 0;
  const double eps = kope_attr_or(a, "eps", 1e-6);
  if (M < 64 && D >= 65536) {  // fewer rows than SMs: 16k-element slices, two kernels
    int64_t parts = (D + 16383) / 16384;
    parts = parts > 1024 ? 1024 : parts;
    const int64_t slice = (D + parts - 1) / parts;
    const dim3 grid((unsigned)parts, (unsigned)M);
    slice_sumsq<DT><<<grid, 1024, 0, s>>>(a->inputs[0].data, D, slice);
    slice_write<DT><<<grid, 1024, 0, s>>>(a->inputs[0].data, a->inputs[1].data, a->outputs[0].data,
                                          (float*)a->outputs[1].data, D, slice, eps);
    return (int)cudaGetLastError();
  }
  const int threads = D >= 16384 ? 1024 : D >= 1024 ? 256 : 128;
  rms_norm<DT><<<(unsigned)(M < 65535 ? M : 65535), threads, 0, s>>>(a->inputs[0].data, a->inputs[1].data,
                                                                     a->outputs[0].data, (float*)a->outputs[1].data, M,
                                                                     D, eps);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
