// thought: one fused grid-stride pass over the four streams writing the three outputs, the bias corrections and the step size folded into fp32 constants on the host once per call; fp32 math for every storage type (fp16/bf16 loads widen, stores round to nearest even)
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

struct Adam {
  float decay, b1, cb1, b2, cb2, inv_bc2_sqrt, step_size, eps;
};

template <int DT>
__global__ void adam_w(const void* __restrict__ p, const void* __restrict__ m, const void* __restrict__ v,
                       const void* __restrict__ g, void* __restrict__ po, void* __restrict__ mo, void* __restrict__ vo,
                       int64_t n, Adam c) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const float gi = ld<DT>(g, i);
    const float mi = c.b1 * ld<DT>(m, i) + c.cb1 * gi;
    const float vi = c.b2 * ld<DT>(v, i) + c.cb2 * gi * gi;
    const float pi = ld<DT>(p, i) * c.decay - c.step_size * mi / (sqrtf(vi) * c.inv_bc2_sqrt + c.eps);
    st<DT>(po, i, pi);
    st<DT>(mo, i, mi);
    st<DT>(vo, i, vi);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->inputs[0].numel;
  if (n == 0) return 0;
  const double lr = kope_attr_or(a, "lr", 1e-3), b1 = kope_attr_or(a, "beta1", 0.9);
  const double b2 = kope_attr_or(a, "beta2", 0.999), eps = kope_attr_or(a, "eps", 1e-8);
  const double wd = kope_attr_or(a, "weight_decay", 0.01), step = kope_attr_or(a, "step", 1);
  Adam c;
  c.decay = (float)(1 - lr * wd);
  c.b1 = (float)b1;
  c.cb1 = (float)(1 - b1);
  c.b2 = (float)b2;
  c.cb2 = (float)(1 - b2);
  c.inv_bc2_sqrt = (float)(1 / sqrt(1 - pow(b2, step)));
  c.step_size = (float)(lr / (1 - pow(b1, step)));
  c.eps = (float)eps;
  const int64_t want = (n + 255) / 256;
  adam_w<DT><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>(a->inputs[0].data, a->inputs[1].data, a->inputs[2].data,
                                                             a->inputs[3].data, a->outputs[0].data, a->outputs[1].data,
                                                             a->outputs[2].data, n, c);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
