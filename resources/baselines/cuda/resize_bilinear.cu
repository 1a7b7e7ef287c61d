// CUDA baseline for resize_bilinear: one thread per output pixel, source coordinates and the interpolation in double,
// all four taps read (NaN and inf reach their outputs even at weight 0, as upsample_bilinear2d).
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
// Index tensors: int32 or int64.
__device__ inline int64_t ldi(const void* p, int dt, int64_t i) {
  return dt == KOPE_I32 ? (int64_t) static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

__device__ double source(int64_t dst, int64_t in, int64_t out, bool align) {
  if (align) return out > 1 ? (double)dst * (double)(in - 1) / (double)(out - 1) : 0.0;
  const double s = ((double)dst + 0.5) * (double)in / (double)out - 0.5;
  return s < 0 ? 0 : s;
}

__global__ void resize_kernel(kope_tensor x, kope_tensor y, bool align) {
  const int64_t H = x.shape[2], W = x.shape[3], HO = y.shape[2], WO = y.shape[3];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < y.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t ow = o % WO, oh = (o / WO) % HO, p = o / (WO * HO);
    const double sh = source(oh, H, HO, align), sw = source(ow, W, WO, align);
    const int64_t r0 = (int64_t)floor(sh), c0 = (int64_t)floor(sw);
    const int64_t r1 = r0 + 1 < H ? r0 + 1 : H - 1, c1 = c0 + 1 < W ? c0 + 1 : W - 1;
    const double lh = sh - r0, lw = sw - c0;
    const int64_t base = p * H * W;
    const double t =
        ldx(x.data, x.dtype, base + r0 * W + c0) * (1 - lw) + ldx(x.data, x.dtype, base + r0 * W + c1) * lw;
    const double b =
        ldx(x.data, x.dtype, base + r1 * W + c0) * (1 - lw) + ldx(x.data, x.dtype, base + r1 * W + c1) * lw;
    stx(y.data, y.dtype, o, t * (1 - lh) + b * lh);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  resize_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->outputs[0],
                                                              kope_attr_or(a, "align_corners", 0) != 0);
  return (int)cudaGetLastError();
}
