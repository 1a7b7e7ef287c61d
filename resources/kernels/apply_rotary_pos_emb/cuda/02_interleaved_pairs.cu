// thought: rotate adjacent pairs (2i, 2i + 1) so each thread reads one contiguous float pair and its cos/sin, one thread per pair, q then k
// flaw: that is the interleaved (GPT-J) rotation; the task is rotate-half, whose partners are d and d + H, so every head with H > 1 is wrong
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

template <int DT>
__global__ void rope_pairs(const void* __restrict__ x, const void* __restrict__ cosv, const void* __restrict__ sinv,
                           void* __restrict__ o, int64_t rows, int64_t heads, int64_t S, int64_t D) {
  const int64_t pairs = rows * (D / 2);
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < pairs; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t row = i / (D / 2), d = 2 * (i - row * (D / 2));
    const int64_t e = row * D, cs = ((row / heads) % S) * D;
    const float x1 = ld<DT>(x, e + d), x2 = ld<DT>(x, e + d + 1);
    st<DT>(o, e + d, x1 * ld<DT>(cosv, cs + d) - x2 * ld<DT>(sinv, cs + d));
    st<DT>(o, e + d + 1, x2 * ld<DT>(cosv, cs + d + 1) + x1 * ld<DT>(sinv, cs + d + 1));
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  for (int t = 0; t < 2; ++t) {
    const kope_tensor& x = a->inputs[t];
    const int64_t rows = x.shape[0] * x.shape[1] * x.shape[2], D = x.shape[3];
    if (rows * D == 0) continue;
    const int64_t want = (rows * (D / 2) + 255) / 256;
    rope_pairs<DT><<<(int)(want < 4096 ? want : 4096), 256, 0, s>>>(x.data, a->inputs[2].data, a->inputs[3].data,
                                                                   a->outputs[t].data, rows, x.shape[2], x.shape[1], D);
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
