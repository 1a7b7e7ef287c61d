// CUDA baseline for lstm: one launch per step, one thread per hidden unit (b, j) of it, the four gate rows' dot
// products with x[t, b] and the previous h in double (h and c kept in a double workspace), the gates i, f, g, o
// and the cell update in double.
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

__global__ void lstm_init(kope_tensor h0, kope_tensor c0, double* h, double* c) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < h0.numel; e += (int64_t)gridDim.x * blockDim.x)
    h[e] = ldx(h0.data, h0.dtype, e), c[e] = ldx(c0.data, c0.dtype, e);
}

__global__ void lstm_kernel(kope_tensor x, kope_tensor wih, kope_tensor whh, kope_tensor bih, kope_tensor bhh, kope_tensor y,
                            kope_tensor hT, kope_tensor cT, const double* h, double* hn, const double* c, double* cn, int64_t t) {
  const int64_t T = x.shape[0], B = x.shape[1], I = x.shape[2], H = whh.shape[1];
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < B * H; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t b = e / H, j = e % H;
    double g[4];
    for (int k = 0; k < 4; ++k) {
      const int64_t n = k * H + j;
      double sx = ldx(bih.data, bih.dtype, n) + ldx(bhh.data, bhh.dtype, n);
      for (int64_t i = 0; i < I; ++i) sx += ldx(wih.data, wih.dtype, n * I + i) * ldx(x.data, x.dtype, (t * B + b) * I + i);
      for (int64_t i = 0; i < H; ++i) sx += ldx(whh.data, whh.dtype, n * H + i) * h[b * H + i];
      g[k] = sx;
    }
    const double ig = 1 / (1 + exp(-g[0])), fg = 1 / (1 + exp(-g[1])), gg = tanh(g[2]), og = 1 / (1 + exp(-g[3]));
    const double cv = fg * c[e] + ig * gg, hv = og * tanh(cv);
    cn[e] = cv;
    hn[e] = hv;
    stx(y.data, y.dtype, t * B * H + e, hv);
    if (t + 1 == T) stx(hT.data, hT.dtype, e, hv), stx(cT.data, cT.dtype, e, cv);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0], BH = a->inputs[1].numel;
  if (BH == 0) return 0;
  double* w = nullptr;
  cudaError_t e = cudaMallocAsync((void**)&w, sizeof(double) * 4 * BH, s);
  if (e != cudaSuccess) return (int)e;
  double *h = w, *c = w + 2 * BH;
  lstm_init<<<grid_for(BH), 256, 0, s>>>(a->inputs[1], a->inputs[2], h, c);
  for (int64_t t = 0; t < T; ++t)
    lstm_kernel<<<grid_for(BH), 256, 0, s>>>(a->inputs[0], a->inputs[3], a->inputs[4], a->inputs[5], a->inputs[6], a->outputs[0],
                                             a->outputs[1], a->outputs[2], h + (t & 1) * BH, h + ((t + 1) & 1) * BH,
                                             c + (t & 1) * BH, c + ((t + 1) & 1) * BH, t);
  if (T == 0) {
    const size_t bytes = (size_t)(a->outputs[1].dtype == KOPE_F32 ? 4 : 2) * BH;
    e = cudaMemcpyAsync(a->outputs[1].data, a->inputs[1].data, bytes, cudaMemcpyDeviceToDevice, s);
    if (e == cudaSuccess) e = cudaMemcpyAsync(a->outputs[2].data, a->inputs[2].data, bytes, cudaMemcpyDeviceToDevice, s);
  }
  cudaFreeAsync(w, s);
  return e != cudaSuccess ? (int)e : (int)cudaGetLastError();
}
