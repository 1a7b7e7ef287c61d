// thought: a block per row for the last dimension, one thread per column for a middle one; each keeps (max, first index) with a plain strict > so the first occurrence wins, merged by warp shuffles with the smaller index on ties
// flaw: a plain > is never true for NaN, so NaN is skipped instead of being the maximum (torch.argmax returns the first NaN's index): rows holding NaN give the index of the largest number (cases special, special_mid)
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

__device__ __forceinline__ bool better(float v, int64_t i, float w, int64_t j) {
  if (j < 0) return i >= 0;
  if (i < 0) return false;
  return v > w || (v == w && i < j);
}

template <int DT>
__global__ void argmax_rows(const void* __restrict__ x, int64_t* __restrict__ out, int64_t A, int64_t R) {
  __shared__ float sv[32];
  __shared__ int64_t si[32];
  for (int64_t row = blockIdx.x; row < A; row += gridDim.x) {
    float best = 0.0f;
    int64_t at = -1;
    for (int64_t r = threadIdx.x; r < R; r += blockDim.x) {
      const float v = ld<DT>(x, row * R + r);
      if (better(v, r, best, at)) {
        best = v;
        at = r;
      }
    }
    for (int o = 16; o > 0; o >>= 1) {
      const float v = __shfl_xor_sync(0xffffffffu, best, o);
      const int64_t i = __shfl_xor_sync(0xffffffffu, at, o);
      if (better(v, i, best, at)) {
        best = v;
        at = i;
      }
    }
    if ((threadIdx.x & 31) == 0) {
      sv[threadIdx.x >> 5] = best;
      si[threadIdx.x >> 5] = at;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int w = 1; w < (int)(blockDim.x >> 5); ++w)
        if (better(sv[w], si[w], best, at)) {
          best = sv[w];
          at = si[w];
        }
      out[row] = at < 0 ? 0 : at;
    }
    __syncthreads();
  }
}

template <int DT>
__global__ void argmax_mid(const void* __restrict__ x, int64_t* __restrict__ out, int64_t A, int64_t R, int64_t B) {
  for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < A * B; c += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = c / B, b = c - a * B;
    float best = ld<DT>(x, a * R * B + b);
    int64_t at = 0;
    for (int64_t r = 1; r < R; ++r) {
      const float v = ld<DT>(x, (a * R + r) * B + b);
      if (v > best) {
        best = v;
        at = r;
      }
    }
    out[c] = at;
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2];
  int64_t* out = (int64_t*)a->outputs[0].data;
  if (A * B == 0 || R == 0) return 0;
  if (B == 1) argmax_rows<DT><<<(unsigned)(A < 65535 ? A : 65535), 256, 0, s>>>(x.data, out, A, R);
  else {
    const int64_t want = (A * B + 127) / 128;
    argmax_mid<DT><<<(int)(want < 65535 ? want : 65535), 128, 0, s>>>(x.data, out, A, R, B);
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
