// thought: one warp per token row with the logits in registers, max and sum by warp shuffles, K rounds of a warp argmax with taken experts masked; the K outputs of a token written where it keeps them, row_idx numbering the copies token by token (t * K + k)
// flaw: row_idx is t * K + k (token-major) but aclnnMoeInitRouting's layout is copy-major, k * T + t: wrong in every
// case with T > 1 and K > 1 (t1_e2_k1 alone cannot tell).
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdint.h>

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

// Lane l holds experts l, l + 32, ... (coalesced loads); J values a lane, J <= 32 (E <= 1024).
template <int DT, int J>
__global__ void gating_topk(const void* __restrict__ x, void* __restrict__ y, int32_t* __restrict__ expert,
                            int32_t* __restrict__ row_idx, int64_t T, int E, int K) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  for (int64_t t = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); t < T; t += warps) {
    float v[J];
    float mx = -INFINITY;
#pragma unroll
    for (int j = 0; j < J; ++j) {
      const int e = j * 32 + lane;
      v[j] = e < E ? ld<DT>(x, t * E + e) : -INFINITY;
      mx = fmaxf(mx, v[j]);
    }
    for (int o = 16; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < J; ++j)
      if (j * 32 + lane < E) sum += expf(v[j] - mx);
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    uint32_t taken = 0;  // bit j: expert j * 32 + lane already chosen
    for (int k = 0; k < K; ++k) {
      float best = 0.0f;
      int bi = 0x7fffffff;  // no candidate
#pragma unroll
      for (int j = 0; j < J; ++j) {
        const int e = j * 32 + lane;
        if (e < E && !(taken >> j & 1u) && (bi == 0x7fffffff || v[j] > best)) best = v[j], bi = e;
      }
      for (int o = 16; o > 0; o >>= 1) {
        const float ob = __shfl_xor_sync(0xffffffffu, best, o);
        const int oi = __shfl_xor_sync(0xffffffffu, bi, o);
        // larger logit wins, equal ones go to the lower expert; a lane with no candidate loses to any
        if (oi != 0x7fffffff && (bi == 0x7fffffff || ob > best || (ob == best && oi < bi))) best = ob, bi = oi;
      }
      if ((bi & 31) == lane) taken |= 1u << (bi >> 5);
      if (lane == 0) {
        st<DT>(y, t * K + k, expf(best - mx) / sum);
        expert[t * K + k] = bi;
        row_idx[t * K + k] = (int32_t)(t * K + k);
      }
    }
  }
}

template <int DT, int J> static int launch(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0];
  const int E = (int)a->inputs[0].shape[1], K = (int)a->outputs[0].shape[1];
  const int64_t blocks = (T + 7) / 8;
  gating_topk<DT, J><<<(unsigned)(blocks < 132 * 32 ? blocks : 132 * 32), 256, 0, s>>>(
      a->inputs[0].data, a->outputs[0].data, (int32_t*)a->outputs[1].data, (int32_t*)a->outputs[2].data, T, E, K);
  return (int)cudaGetLastError();
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0];
  const int E = (int)a->inputs[0].shape[1], K = (int)a->outputs[0].shape[1];
  if (K > E || E > 1024) return (int)cudaErrorInvalidValue;
  if (T == 0 || K == 0) return 0;
  if (E <= 32) return launch<DT, 1>(a, s);
  if (E <= 64) return launch<DT, 2>(a, s);
  if (E <= 128) return launch<DT, 4>(a, s);
  if (E <= 256) return launch<DT, 8>(a, s);
  if (E <= 512) return launch<DT, 16>(a, s);
  return launch<DT, 32>(a, s);
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[1].dtype != KOPE_I32 || a->outputs[2].dtype != KOPE_I32) return (int)cudaErrorInvalidValue;
  switch (a->inputs[0].dtype) {
    case KOPE_F32: return run<KOPE_F32>(a, s);
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
