// thought: a block per row: a max pass, then one pass summing exp(x - max) over the elements below the max only (fp32 per thread, double across the block), counting the ties and summing the shifted logits; log_prob = (x - max) - log1p(others + ties - 1) keeps the top class's tiny log-probability that log(sum) rounds away; each row adds its nll into a double accumulator with an atomic, a one-thread kernel divides by the count
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

__device__ double g_total;
__device__ unsigned long long g_count;

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
    ce_rows(const void* __restrict__ x, const int64_t* __restrict__ target, void* __restrict__ log_prob, int64_t N,
            int64_t C, int64_t ignore, double ls) {
  for (int64_t n = blockIdx.x; n < N; n += gridDim.x) {
    const int64_t base = n * C;
    float mx = -INFINITY;
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) mx = fmaxf(mx, ld<DT>(x, base + c));
    mx = block_max(mx);  // NaN is skipped here; it comes back through the shifted sum below
    float others = 0.0f, shifted = 0.0f, ties = 0.0f;
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {
      const float d = ld<DT>(x, base + c) - mx;
      others += d < 0.0f ? expf(d) : 0.0f;
      ties += d == 0.0f ? 1.0f : 0.0f;
      shifted += d;
    }
    const double o = block_sum((double)others), t = block_sum((double)ties), z = block_sum((double)shifted);
    // A NaN or +inf in the row makes a shifted value NaN (x - NaN, inf - inf) and the whole row NaN, as ATen's.
    const float lse = z != z ? __int_as_float(0x7fc00000) : (float)log1p(o + (t - 1.0));
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) st<DT>(log_prob, base + c, (ld<DT>(x, base + c) - mx) - lse);
    if (threadIdx.x == 0) {
      const int64_t tg = target[n];
      if (tg != ignore) {
        const double xt =
            tg >= 0 && tg < C ? (double)(ld<DT>(x, base + tg) - mx) : __longlong_as_double(0x7ff8000000000000ll);
        const double nll = -(xt - (double)lse);
        const double smooth = (double)lse - z / (double)C;
        atomicAdd(&g_total, ls == 0 ? nll : (1 - ls) * nll + ls * smooth);  // without smoothing only the target is read
        atomicAdd(&g_count, 1ull);
      }
    }
  }
}

__global__ void ce_reset() {
  g_total = 0.0;
  g_count = 0;
}

__global__ void ce_mean(float* loss) {
  loss[0] = g_count ? (float)(g_total / (double)g_count) : __int_as_float(0x7fc00000);
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t N = a->inputs[0].shape[0], C = a->inputs[0].shape[1];
  const int64_t ignore = (int64_t)kope_attr_or(a, "ignore_index", -100);
  const double ls = kope_attr_or(a, "label_smoothing", 0.0);
  ce_reset<<<1, 1, 0, s>>>();
  if (N > 0 && C > 0) {
    const int threads = C >= 4096 ? 1024 : C >= 512 ? 256 : 128;
    ce_rows<DT><<<(unsigned)(N < 65535 ? N : 65535), threads, 0, s>>>(
        a->inputs[0].data, (const int64_t*)a->inputs[1].data, a->outputs[1].data, N, C, ignore, ls);
  }
  ce_mean<<<1, 1, 0, s>>>((float*)a->outputs[0].data);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
