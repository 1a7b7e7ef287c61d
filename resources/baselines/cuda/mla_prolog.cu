// CUDA baseline for mla_prolog: one thread per element of each stage, plain loops in double, intermediates in a
// double workspace: x W_DQ and x W_DKV_KR, the two RMS norms (a thread per token), c^Q W_UQ_QR, then q_nope, q_rope
// (rotate-half RoPE), k_c and k_r.
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

#define KOPE_FOR(n) for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < (n); e += (int64_t)gridDim.x * blockDim.x)

// cq[t, j] = x[t] . w_dq[:, j] (j < Q), kv[t, j] = x[t] . w_dkv_kr[:, j] (j < CR).
__global__ void down(kope_tensor x, kope_tensor wdq, kope_tensor wkv, double* cq, double* kv) {
  const int64_t T = x.shape[0], E = x.shape[1], Q = wdq.shape[1], CR = wkv.shape[1];
  KOPE_FOR(T * (Q + CR)) {
    const int64_t t = e / (Q + CR), j = e % (Q + CR);
    double acc = 0;
    for (int64_t i = 0; i < E; ++i)
      acc += ldx(x.data, x.dtype, t * E + i) * (j < Q ? ldx(wdq.data, wdq.dtype, i * Q + j) : ldx(wkv.data, wkv.dtype, i * CR + j - Q));
    if (j < Q) cq[t * Q + j] = acc;
    else kv[t * CR + j - Q] = acc;
  }
}

// rstd of c^Q and of kv[:C], a thread per token.
__global__ void norms(const double* cq, const double* kv, double* rq, double* rk, int64_t T, int64_t Q, int64_t C, int64_t CR, double eq,
                      double ek) {
  KOPE_FOR(T) {
    double a = 0, b = 0;
    for (int64_t j = 0; j < Q; ++j) a += cq[e * Q + j] * cq[e * Q + j];
    for (int64_t j = 0; j < C; ++j) b += kv[e * CR + j] * kv[e * CR + j];
    rq[e] = 1 / sqrt(a / Q + eq);
    rk[e] = 1 / sqrt(b / C + ek);
  }
}

// qcr[t, j] = sum_q cq[t, q] rq[t] gamma_cq[q] w_uq_qr[q, j].
__global__ void up(const double* cq, const double* rq, kope_tensor gcq, kope_tensor wuq, double* qcr, int64_t T) {
  const int64_t Q = wuq.shape[0], NF = wuq.shape[1];
  KOPE_FOR(T * NF) {
    const int64_t t = e / NF, j = e % NF;
    double acc = 0;
    for (int64_t q = 0; q < Q; ++q) acc += cq[t * Q + q] * rq[t] * ldx(gcq.data, gcq.dtype, q) * ldx(wuq.data, wuq.dtype, q * NF + j);
    qcr[e] = acc;
  }
}

// q_nope[t, n, c] = sum_d qcr[t, n F + d] w_uk[n, d, c].
__global__ void nope(const double* qcr, kope_tensor wuk, kope_tensor qn, int64_t F) {
  const int64_t T = qn.shape[0], N = wuk.shape[0], D = wuk.shape[1], C = wuk.shape[2];
  KOPE_FOR(T * N * C) {
    const int64_t t = e / (N * C), n = e / C % N, c = e % C;
    double acc = 0;
    for (int64_t d = 0; d < D; ++d) acc += qcr[t * N * F + n * F + d] * ldx(wuk.data, wuk.dtype, (n * D + d) * C + c);
    stx(qn.data, qn.dtype, e, acc);
  }
}

// RoPE(v)[i] = v[i] cos[t, i] + rotate_half(v)[i] sin[t, i], rotate_half(v) = concat(-v[R/2:], v[:R/2]).
__device__ double rope(const double* v, int64_t i, int64_t R, kope_tensor sn, kope_tensor cs, int64_t t) {
  const double rot = i < R / 2 ? -v[i + R / 2] : v[i - R / 2];
  return v[i] * ldx(cs.data, cs.dtype, t * R + i) + rot * ldx(sn.data, sn.dtype, t * R + i);
}

__global__ void tails(const double* qcr, const double* kv, const double* rk, kope_tensor gckv, kope_tensor sn, kope_tensor cs, kope_tensor qr,
                      kope_tensor kc, kope_tensor kr, int64_t N, int64_t F, int64_t D, int64_t C) {
  const int64_t T = kc.shape[0], R = sn.shape[1], CR = C + R;
  KOPE_FOR(T * N * R) {
    const int64_t t = e / (N * R), n = e / R % N, i = e % R;
    stx(qr.data, qr.dtype, e, rope(qcr + t * N * F + n * F + D, i, R, sn, cs, t));
  }
  KOPE_FOR(T * C) {
    const int64_t t = e / C, c = e % C;
    stx(kc.data, kc.dtype, e, kv[t * CR + c] * rk[t] * ldx(gckv.data, gckv.dtype, c));
  }
  KOPE_FOR(T * R) {
    const int64_t t = e / R, i = e % R;
    stx(kr.data, kr.dtype, e, rope(kv + t * CR + C, i, R, sn, cs, t));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0], Q = a->inputs[1].shape[1], NF = a->inputs[3].shape[1], N = a->inputs[4].shape[0];
  const int64_t D = a->inputs[4].shape[1], C = a->inputs[4].shape[2], CR = a->inputs[5].shape[1];
  if (T == 0) return 0;
  if (N == 0) return (int)cudaErrorInvalidValue;
  const int64_t F = NF / N;
  double* w = nullptr;
  cudaError_t e = cudaMallocAsync((void**)&w, sizeof(double) * (size_t)(T * Q + T * CR + T * NF + 2 * T), s);
  if (e != cudaSuccess) return (int)e;
  double *cq = w, *kv = cq + T * Q, *qcr = kv + T * CR, *rq = qcr + T * NF, *rk = rq + T;
  down<<<grid_for(T * (Q + CR)), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[5], cq, kv);
  norms<<<grid_for(T), 256, 0, s>>>(cq, kv, rq, rk, T, Q, C, CR, kope_attr_or(a, "eps_cq", 1e-5), kope_attr_or(a, "eps_ckv", 1e-5));
  up<<<grid_for(T * NF), 256, 0, s>>>(cq, rq, a->inputs[2], a->inputs[3], qcr, T);
  nope<<<grid_for(T * N * C), 256, 0, s>>>(qcr, a->inputs[4], a->outputs[0], F);
  tails<<<grid_for(T * N * a->inputs[7].shape[1] + T * CR), 256, 0, s>>>(qcr, kv, rk, a->inputs[6], a->inputs[7], a->inputs[8], a->outputs[1],
                                                                         a->outputs[2], a->outputs[3], N, F, D, C);
  cudaFreeAsync(w, s);
  return (int)cudaGetLastError();
}
