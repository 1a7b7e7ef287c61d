// CUDA baseline for gru: one launch per step, one thread per hidden unit h[b, j] of it, the three gate rows' dot
// products with x[t, b] and the previous h in double (h kept in a double workspace), r, z, n and the update in double.
#include "kope_cuda.h"
#include <math.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element i of a floating tensor whatever its storage (fp32, fp64, fp16, bf16), and the store back.
__device__ inline double ldx(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F64: return static_cast<const double*>(p)[i];
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void stx(void* p, int dt, int64_t i, double v) {
  switch (dt) {
    case KOPE_F64: static_cast<double*>(p)[i] = v; break;
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn((float)v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn((float)v); break;
    default: static_cast<float*>(p)[i] = (float)v; break;
  }
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

__global__ void gru_init(kope_tensor h0, double* h) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < h0.numel; e += (int64_t)gridDim.x * blockDim.x)
    h[e] = ldx(h0.data, h0.dtype, e);
}

__global__ void gru_kernel(kope_tensor x, kope_tensor wih, kope_tensor whh, kope_tensor bih, kope_tensor bhh, kope_tensor y,
                           kope_tensor hT, const double* h, double* hn, int64_t t) {
  const int64_t T = x.shape[0], B = x.shape[1], I = x.shape[2], H = whh.shape[1];
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < B * H; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t b = e / H, j = e % H;
    double g[3], q[3];
    for (int k = 0; k < 3; ++k) {
      const int64_t n = k * H + j;
      double sx = ldx(bih.data, bih.dtype, n), sh = ldx(bhh.data, bhh.dtype, n);
      for (int64_t i = 0; i < I; ++i) sx += ldx(wih.data, wih.dtype, n * I + i) * ldx(x.data, x.dtype, (t * B + b) * I + i);
      for (int64_t i = 0; i < H; ++i) sh += ldx(whh.data, whh.dtype, n * H + i) * h[b * H + i];
      g[k] = sx, q[k] = sh;
    }
    const double r = 1 / (1 + exp(-(g[0] + q[0]))), z = 1 / (1 + exp(-(g[1] + q[1])));
    const double nn = tanh(g[2] + r * q[2]);
    const double v = (1 - z) * nn + z * h[e];
    hn[e] = v;
    stx(y.data, y.dtype, t * B * H + e, v);
    if (t + 1 == T) stx(hT.data, hT.dtype, e, v);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0], BH = a->inputs[1].numel;
  if (BH == 0) return 0;
  double* h = nullptr;
  cudaError_t e = cudaMallocAsync((void**)&h, sizeof(double) * 2 * BH, s);
  if (e != cudaSuccess) return (int)e;
  gru_init<<<grid_for(BH), 256, 0, s>>>(a->inputs[1], h);
  for (int64_t t = 0; t < T; ++t)
    gru_kernel<<<grid_for(BH), 256, 0, s>>>(a->inputs[0], a->inputs[2], a->inputs[3], a->inputs[4], a->inputs[5], a->outputs[0],
                                            a->outputs[1], h + (t & 1) * BH, h + ((t + 1) & 1) * BH, t);
  if (T == 0) e = cudaMemcpyAsync(a->outputs[1].data, a->inputs[1].data, (size_t)(a->outputs[1].dtype == KOPE_F32 ? 4 : 2) * BH,
                                  cudaMemcpyDeviceToDevice, s);
  cudaFreeAsync(h, s);
  return e != cudaSuccess ? (int)e : (int)cudaGetLastError();
}
