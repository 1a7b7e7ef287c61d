// CUDA baseline for mhc_sinkhorn: one thread per matrix, plain loops over global memory in fp32: the
// max-subtracted row softmax plus eps, then the column step, and num_iters - 1 times the row and column steps.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ inline float ld(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void st(void* p, int dt, int64_t i, float v) {
  switch (dt) {
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(p)[i] = v; break;
  }
}

// The matrix is worked on in a float array of the thread (N <= 16).
__global__ void sinkhorn_naive(kope_tensor x, kope_tensor y, int iters, float eps) {
  const int64_t N = x.shape[2], NN = N * N, T = x.shape[0];
  for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < T; t += (int64_t)gridDim.x * blockDim.x) {
    float m[256];
    for (int64_t e = 0; e < NN; ++e) m[e] = ld(x.data, x.dtype, t * NN + e);
    for (int64_t i = 0; i < N; ++i) {
      float mx = -INFINITY, s = 0.0f;
      for (int64_t j = 0; j < N; ++j) if (m[i * N + j] > mx) mx = m[i * N + j];
      for (int64_t j = 0; j < N; ++j) s += (m[i * N + j] = expf(m[i * N + j] - mx));
      for (int64_t j = 0; j < N; ++j) m[i * N + j] = m[i * N + j] / s + eps;
    }
    for (int k = 0; k < iters; ++k) {
      if (k > 0)
        for (int64_t i = 0; i < N; ++i) {
          float s = eps;
          for (int64_t j = 0; j < N; ++j) s += m[i * N + j];
          for (int64_t j = 0; j < N; ++j) m[i * N + j] /= s;
        }
      for (int64_t j = 0; j < N; ++j) {
        float s = eps;
        for (int64_t i = 0; i < N; ++i) s += m[i * N + j];
        for (int64_t i = 0; i < N; ++i) m[i * N + j] /= s;
      }
    }
    for (int64_t e = 0; e < NN; ++e) st(y.data, y.dtype, t * NN + e, m[e]);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 3 || x.shape[2] > 16) return 1;
  if (x.numel == 0) return 0;
  const int64_t T = x.shape[0], b = (T + 127) / 128;
  sinkhorn_naive<<<(int)(b < 65535 ? b : 65535), 128, 0, s>>>(x, y, (int)kope_attr_or(a, "num_iters", 20),
                                                              (float)kope_attr_or(a, "eps", 1e-6));
  return (int)cudaGetLastError();
}
