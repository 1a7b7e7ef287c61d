// CUDA baseline for mha: one thread per output element o[b, h, i, d], a single pass over the keys it sees with an
// online softmax in double (the running max, the rescaled sum and the weighted sum of v[., d]).
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

__global__ void mha_kernel(kope_tensor q, kope_tensor k, kope_tensor v, kope_tensor o, int causal) {
  const int64_t BH = q.shape[0] * q.shape[1], S = q.shape[2], D = q.shape[3], L = k.shape[2];
  const double scale = 1.0 / sqrt((double)D);
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < BH * S * D; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t d = e % D, row = e / D, i = row % S, bh = row / S;
    const int64_t n = causal ? (i + 1 < L ? i + 1 : L) : L;  // causal: key j <= i
    double m = -INFINITY, sum = 0, acc = 0;
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t c = 0; c < D; ++c) s += ldx(q.data, q.dtype, row * D + c) * ldx(k.data, k.dtype, (bh * L + j) * D + c);
      s *= scale;
      const double mn = (s != s || m != m) ? NAN : fmax(m, s);
      const double alpha = exp(m - mn), p = exp(s - mn);
      sum = sum * alpha + p;
      acc = acc * alpha + p * ldx(v.data, v.dtype, (bh * L + j) * D + d);
      m = mn;
    }
    stx(o.data, o.dtype, e, acc / sum);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  mha_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[2], a->outputs[0],
                                                             kope_attr_or(a, "causal", 0) != 0);
  return (int)cudaGetLastError();
}
