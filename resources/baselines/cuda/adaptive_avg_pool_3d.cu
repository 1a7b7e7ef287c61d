// CUDA baseline for adaptive_avg_pool_3d: one thread per output, its window [floor(o L / O), ceil((o + 1) L / O))
// per axis summed in double with plain loops, divided by the window's count.
#include "kope_cuda.h"

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

__device__ int64_t start_of(int64_t o, int64_t L, int64_t O) { return (o * L) / O; }
__device__ int64_t end_of(int64_t o, int64_t L, int64_t O) { return ((o + 1) * L + O - 1) / O; }

__global__ void pool_kernel(kope_tensor x, kope_tensor y) {
  const int64_t D = x.shape[2], H = x.shape[3], W = x.shape[4], OD = y.shape[2], OH = y.shape[3], OW = y.shape[4];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < y.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t ow = o % OW, oh = (o / OW) % OH, od = (o / (OW * OH)) % OD, p = o / (OW * OH * OD);
    const int64_t d0 = start_of(od, D, OD), d1 = end_of(od, D, OD), h0 = start_of(oh, H, OH), h1 = end_of(oh, H, OH);
    const int64_t w0 = start_of(ow, W, OW), w1 = end_of(ow, W, OW);
    double sum = 0;
    for (int64_t d = d0; d < d1; ++d)
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) sum += ldx(x.data, x.dtype, ((p * D + d) * H + h) * W + w);
    stx(y.data, y.dtype, o, sum / (double)((d1 - d0) * (h1 - h0) * (w1 - w0)));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  pool_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->outputs[0]);
  return (int)cudaGetLastError();
}
