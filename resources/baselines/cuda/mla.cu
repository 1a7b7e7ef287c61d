// CUDA baseline for mla: one thread per output element o[b, s, h, d], a single pass over the keys the query sees
// with an online softmax in double; the key is [ckv | k_rope], the value ckv.
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

__global__ void mla_kernel(kope_tensor q, kope_tensor qr, kope_tensor ckv, kope_tensor kr, kope_tensor o, int causal, double scale) {
  const int64_t B = q.shape[0], S = q.shape[1], H = q.shape[2], C = q.shape[3], R = qr.shape[3], L = ckv.shape[1];
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < B * S * H * C; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t d = e % C, row = e / C, s = row / H % S, b = row / H / S;
    const int64_t n = causal ? L - S + s + 1 : L;  // causal: keys j <= L - S + s
    double m = -INFINITY, sum = 0, acc = 0;
    for (int64_t j = 0; j < n; ++j) {
      double t = 0;
      for (int64_t c = 0; c < C; ++c) t += ldx(q.data, q.dtype, row * C + c) * ldx(ckv.data, ckv.dtype, (b * L + j) * C + c);
      for (int64_t c = 0; c < R; ++c) t += ldx(qr.data, qr.dtype, row * R + c) * ldx(kr.data, kr.dtype, (b * L + j) * R + c);
      t *= scale;
      const double mn = (t != t || m != m) ? NAN : fmax(m, t);
      const double alpha = exp(m - mn), p = exp(t - mn);
      sum = sum * alpha + p;
      acc = acc * alpha + p * ldx(ckv.data, ckv.dtype, (b * L + j) * C + d);
      m = mn;
    }
    stx(o.data, o.dtype, e, acc / sum);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  mla_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[2], a->inputs[3], a->outputs[0],
                                                             kope_attr_or(a, "causal", 0) != 0,
                                                             kope_attr_or(a, "scale", 0.07216878364870322));
  return (int)cudaGetLastError();
}
