// CUDA baseline for roi_align: one thread per output bin, torchvision's aligned sampling (start = box * scale - 0.5,
// grid sampling_ratio or ceil(size / P)) and four-tap bilinear interpolation in double with plain loops.
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

__device__ double bilinear(const kope_tensor& in, int64_t base, int64_t F, double y, double x) {
  if (y < -1.0 || y > F || x < -1.0 || x > F) return 0;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int64_t y_low = (int64_t)y, x_low = (int64_t)x, y_high, x_high;
  if (y_low >= F - 1) {
    y_high = y_low = F - 1;
    y = (double)y_low;
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= F - 1) {
    x_high = x_low = F - 1;
    x = (double)x_low;
  } else {
    x_high = x_low + 1;
  }
  const double ly = y - y_low, lx = x - x_low, hy = 1 - ly, hx = 1 - lx;
  return hy * hx * ldx(in.data, in.dtype, base + y_low * F + x_low) + hy * lx * ldx(in.data, in.dtype, base + y_low * F + x_high) +
         ly * hx * ldx(in.data, in.dtype, base + y_high * F + x_low) + ly * lx * ldx(in.data, in.dtype, base + y_high * F + x_high);
}

__global__ void roi_align_kernel(kope_tensor in, kope_tensor bidx, kope_tensor boxes, kope_tensor out, double ss, int64_t ratio) {
  const int64_t N = in.shape[0], C = in.shape[1], F = in.shape[2], P = out.shape[2];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < out.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t pw = o % P, ph = (o / P) % P, c = (o / (P * P)) % C, r = o / (P * P * C);
    const int64_t b = ldi(bidx.data, bidx.dtype, r);
    if (b < 0 || b >= N) {
      stx(out.data, out.dtype, o, NAN);
      continue;
    }
    const double x1 = ldx(boxes.data, boxes.dtype, 4 * r) * ss - 0.5, y1 = ldx(boxes.data, boxes.dtype, 4 * r + 1) * ss - 0.5;
    const double x2 = ldx(boxes.data, boxes.dtype, 4 * r + 2) * ss - 0.5, y2 = ldx(boxes.data, boxes.dtype, 4 * r + 3) * ss - 0.5;
    const double rh = y2 - y1, rw = x2 - x1, bh = rh / P, bw = rw / P;
    const int64_t gh = ratio > 0 ? ratio : (int64_t)ceil(rh / P), gw = ratio > 0 ? ratio : (int64_t)ceil(rw / P);
    const double count = (double)(gh * gw > 1 ? gh * gw : 1);
    double sum = 0;
    for (int64_t iy = 0; iy < gh; ++iy) {
      const double y = y1 + ph * bh + (iy + 0.5) * bh / gh;
      for (int64_t ix = 0; ix < gw; ++ix) {
        const double x = x1 + pw * bw + (ix + 0.5) * bw / gw;
        sum += bilinear(in, (b * C + c) * F * F, F, y, x);
      }
    }
    stx(out.data, out.dtype, o, sum / count);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  roi_align_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[2], a->outputs[0],
                                                                 kope_attr_or(a, "spatial_scale", 0.25),
                                                                 (int64_t)kope_attr_or(a, "sampling_ratio", 2));
  return (int)cudaGetLastError();
}
