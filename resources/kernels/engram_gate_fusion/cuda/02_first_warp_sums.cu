// thought: one 256-thread block per (token, stream) row; h, k, w_h and w_k read once as 4-element vectors, the three sums (h^2, k^2 and h w_h k w_k) reduced by warp shuffles; one thread forms the gate, then the block writes y = h + gate v with h re-read from L1/L2
// flaw: the block's partial sums are combined from the first warp's lanes only (part[.][0]), as if a row had at most 32 threads' worth of elements: every row longer than 32 vectors (D > 128, or D > 32 when D is odd) loses the other warps' squares and products, so the gate is wrong
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

constexpr int THREADS = 256;

__device__ inline float to_f(float v) { return v; }
__device__ inline float to_f(__half v) { return __half2float(v); }
__device__ inline float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ inline T from_f(float v);
template <> __device__ inline float from_f<float>(float v) { return v; }
template <> __device__ inline __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// VEC consecutive elements as one aligned access (VEC * sizeof(T) is 16 or 8 bytes, or one element).
template <class T, int VEC> struct Vec {
  T v[VEC];
};
template <class T, int VEC> __device__ inline void load(const T* p, float* out) {
  Vec<T, VEC> x;
  if constexpr (VEC * sizeof(T) == 16) *reinterpret_cast<uint4*>(&x) = __ldg(reinterpret_cast<const uint4*>(p));
  else if constexpr (VEC * sizeof(T) == 8) *reinterpret_cast<uint2*>(&x) = __ldg(reinterpret_cast<const uint2*>(p));
  else x.v[0] = p[0];
#pragma unroll
  for (int i = 0; i < VEC; ++i) out[i] = to_f(x.v[i]);
}
template <class T, int VEC> __device__ inline void store(T* p, const float* in) {
  Vec<T, VEC> x;
#pragma unroll
  for (int i = 0; i < VEC; ++i) x.v[i] = from_f<T>(in[i]);
  if constexpr (VEC * sizeof(T) == 16) *reinterpret_cast<uint4*>(p) = *reinterpret_cast<uint4*>(&x);
  else if constexpr (VEC * sizeof(T) == 8) *reinterpret_cast<uint2*>(p) = *reinterpret_cast<uint2*>(&x);
  else p[0] = x.v[0];
}

template <class T, int VEC>
__global__ void __launch_bounds__(THREADS) engram_gate(const T* __restrict__ h, const T* __restrict__ k,
                                                        const T* __restrict__ v, const float* __restrict__ wh,
                                                        const float* __restrict__ wk, T* __restrict__ y,
                                                        float* __restrict__ gate, int64_t S, int64_t D, float eps) {
  __shared__ float part[3][THREADS / 32];
  __shared__ float gsh;
  const int64_t row = blockIdx.x, t = row / S, s = row % S;
  const T* hr = h + row * D;
  const T* kr = k + row * D;
  const float* whr = wh + s * D;
  const float* wkr = wk + s * D;
  float sh = 0.0f, sk = 0.0f, dot = 0.0f;
  for (int64_t d = (int64_t)threadIdx.x * VEC; d < D; d += (int64_t)THREADS * VEC) {
    float a[VEC], b[VEC], wa[VEC], wb[VEC];
    load<T, VEC>(hr + d, a);
    load<T, VEC>(kr + d, b);
    load<float, VEC>(whr + d, wa);
    load<float, VEC>(wkr + d, wb);
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      sh += a[i] * a[i];
      sk += b[i] * b[i];
      dot += (a[i] * wa[i]) * (b[i] * wb[i]);
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    sh += __shfl_xor_sync(0xffffffffu, sh, o);
    sk += __shfl_xor_sync(0xffffffffu, sk, o);
    dot += __shfl_xor_sync(0xffffffffu, dot, o);
  }
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) part[0][w] = sh, part[1][w] = sk, part[2][w] = dot;
  __syncthreads();
  if (threadIdx.x == 0) {
    float a = 0.0f, b = 0.0f, c = 0.0f;
    a = part[0][0], b = part[1][0], c = part[2][0];  // the row's sums
    const float Df = (float)D;
    const float g = c / sqrtf(a / Df + eps) / sqrtf(b / Df + eps) / sqrtf(Df);
    const float gp = g > 0.0f ? sqrtf(fmaxf(g, 1e-6f)) : g < 0.0f ? -sqrtf(fmaxf(-g, 1e-6f)) : g;  // NaN stays NaN
    const float gt = 1.0f / (1.0f + expf(-gp));
    gate[row] = gt;
    gsh = gt;
  }
  __syncthreads();
  const float gt = gsh;
  const T* vr = v + t * D;
  T* yr = y + row * D;
  for (int64_t d = (int64_t)threadIdx.x * VEC; d < D; d += (int64_t)THREADS * VEC) {
    float a[VEC], b[VEC];
    load<T, VEC>(hr + d, a);
    load<T, VEC>(vr + d, b);
#pragma unroll
    for (int i = 0; i < VEC; ++i) a[i] = a[i] + gt * b[i];
    store<T, VEC>(yr + d, a);
  }
}

template <class T> int run(const kope_args* a, cudaStream_t st) {
  const kope_tensor& h = a->inputs[0];
  const int64_t S = h.shape[1], D = h.shape[2], rows = h.shape[0] * S;
  if (rows == 0 || D == 0) return 0;
  const float eps = (float)kope_attr_or(a, "epsilon", 1e-6);
  const T* ph = (const T*)h.data;
  const T* pk = (const T*)a->inputs[1].data;
  const T* pv = (const T*)a->inputs[2].data;
  const float* pwh = (const float*)a->inputs[3].data;
  const float* pwk = (const float*)a->inputs[4].data;
  T* py = (T*)a->outputs[0].data;
  float* pg = (float*)a->outputs[1].data;
  if (D % 4 == 0) engram_gate<T, 4><<<(unsigned)rows, THREADS, 0, st>>>(ph, pk, pv, pwh, pwk, py, pg, S, D, eps);
  else engram_gate<T, 1><<<(unsigned)rows, THREADS, 0, st>>>(ph, pk, pv, pwh, pwk, py, pg, S, D, eps);
  return (int)cudaGetLastError();
}

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  if (a->inputs[3].dtype != KOPE_F32 || a->inputs[4].dtype != KOPE_F32 || a->outputs[1].dtype != KOPE_F32) return 1;
  switch (a->inputs[0].dtype) {
    case KOPE_F32: return run<float>(a, st);
    case KOPE_F16: return run<__half>(a, st);
    case KOPE_BF16: return run<__nv_bfloat16>(a, st);
    default: return 1;
  }
}
