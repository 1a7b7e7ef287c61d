// thought: four projections with few token rows and long reductions (E = 7168): one tiled GEMM kernel (64x64 shared-memory tiles, 4x4 outputs a thread, fp32 accumulation), split over K with fp32 atomics into a zeroed stream-ordered workspace where the output is an intermediate (x W_DQ, x W_DKV_KR, c^Q W_UQ_QR) so that about two waves of blocks stream the weights, batched over the heads for q_nope = q^C_n W_UK[n] written straight in the output type; the RMS norm of c^Q is a block per token (sums in double), and a last block per token writes k_c (norm of kv[:C] times gamma_ckv), k_r and q_rope (RoPE on interleaved pairs)
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

constexpr int TM = 64, TN = 64, TK = 16;

struct Gemm {
  const void* A;  // [M, K], rows lda apart, batch z at + z sa
  const void* B;  // [K, N], rows ldb apart, batch z at + z sb
  void* C;        // [M, N], rows ldc apart, batch z at + z sc
  int64_t lda, ldb, ldc, sa, sb, sc;
  int M, N, K, kchunk;  // kchunk: K per split (blockIdx.z % splits), a multiple of TK
  int splits;
};

// C = A B (ATOMIC: C += the split's part, C fp32). TA, TB, TC: storage types.
template <int TA, int TB, int TC, bool ATOMIC> __global__ void __launch_bounds__(256) gemm(Gemm g) {
  __shared__ float As[TK][TM + 4], Bs[TK][TN + 4];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16, m0 = blockIdx.y * TM, n0 = blockIdx.x * TN;
  const int z = blockIdx.z / g.splits, ks = blockIdx.z % g.splits;
  const int kbeg = ks * g.kchunk, kend = min(g.K, kbeg + g.kchunk);
  const int64_t ao = z * g.sa, bo = z * g.sb, co = z * g.sc;
  float acc[4][4] = {};
  for (int k0 = kbeg; k0 < kend; k0 += TK) {
    for (int e = threadIdx.x; e < TM * TK; e += 256) {
      const int r = e / TK, k = e % TK;  // A: k fastest along a row
      As[k][r] = m0 + r < g.M && k0 + k < kend ? ld<TA>(g.A, ao + (int64_t)(m0 + r) * g.lda + k0 + k) : 0.0f;
      const int kk = e / TN, c = e % TN;  // B: n fastest along a row
      Bs[kk][c] = n0 + c < g.N && k0 + kk < kend ? ld<TB>(g.B, bo + (int64_t)(k0 + kk) * g.ldb + n0 + c) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int m = m0 + ty * 4 + i, n = n0 + tx * 4 + j;
      if (m >= g.M || n >= g.N) continue;
      const int64_t at = co + (int64_t)m * g.ldc + n;
      if constexpr (ATOMIC) atomicAdd(static_cast<float*>(g.C) + at, acc[i][j]);
      else st<TC>(g.C, at, acc[i][j]);
    }
}

// Sum of a double over the block (256 threads); every thread gets it.
__device__ double block_sum(double v) {
  __shared__ double part[8];
  __shared__ double total;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0;
    for (int w = 0; w < 8; ++w) t += part[w];
    total = t;
  }
  __syncthreads();
  const double r = total;
  __syncthreads();
  return r;
}

// v[t, 0..n) = v / sqrt(mean(v^2) + eps) * gamma, a block per token, in place (fp32 workspace, rows stride apart).
template <int DT> __global__ void __launch_bounds__(256) rms_rows(float* v, int64_t stride, int n, const void* __restrict__ gamma, float eps) {
  float* row = v + blockIdx.x * stride;
  double ss = 0;
  for (int i = threadIdx.x; i < n; i += 256) ss += (double)row[i] * row[i];
  const float rstd = (float)(1.0 / sqrt(block_sum(ss) / n + eps));
  for (int i = threadIdx.x; i < n; i += 256) row[i] = row[i] * rstd * ld<DT>(gamma, i);
}

// Token t: k_c = RmsNorm(kv[:C]) gamma_ckv, k_r = RoPE(kv[C:]), q_rope[t, n] = RoPE(qcr[n F + D ..]).
template <int DT>
__global__ void __launch_bounds__(256) tail(const float* __restrict__ kv, const float* __restrict__ qcr, const void* __restrict__ gckv,
                                            const void* __restrict__ sn, const void* __restrict__ cs, void* __restrict__ kc,
                                            void* __restrict__ kr, void* __restrict__ qr, int C, int R, int N, int F, int D, float eps) {
  const int t = blockIdx.x, h = R / 2;
  const float* k = kv + (int64_t)t * (C + R);
  double ss = 0;
  for (int i = threadIdx.x; i < C; i += 256) ss += (double)k[i] * k[i];
  const float rstd = (float)(1.0 / sqrt(block_sum(ss) / C + eps));
  for (int i = threadIdx.x; i < C; i += 256) st<DT>(kc, (int64_t)t * C + i, k[i] * rstd * ld<DT>(gckv, i));
  for (int e = threadIdx.x; e < (N + 1) * R; e += 256) {
    const int n = e / R, i = e % R;
    const float* v = n < N ? qcr + ((int64_t)t * N + n) * F + D : k + C;  // head n, or the key's rope part (n = N)
    // flaw: the interleaved-pairs RoPE (GPT-J's: (v[2i], v[2i+1]) -> (-v[2i+1], v[2i])); the task's is the rotate-half
    // form, rotate_half(v) = concat(-v[R/2:], v[:R/2]).
    (void)h;
    const float rot = i % 2 == 0 ? -v[i + 1] : v[i - 1];
    const float o = v[i] * ld<DT>(cs, (int64_t)t * R + i) + rot * ld<DT>(sn, (int64_t)t * R + i);
    if (n < N) st<DT>(qr, ((int64_t)t * N + n) * R + i, o);
    else st<DT>(kr, (int64_t)t * R + i, o);
  }
}

// Splits of K so that about two waves of 132 SMs run, none shorter than 8 tiles of TK.
static void plan(Gemm& g, int batch) {
  const int64_t blocks = (int64_t)((g.N + TN - 1) / TN) * ((g.M + TM - 1) / TM) * batch;
  int s = (int)((264 + blocks - 1) / blocks);
  const int maxs = (g.K + 8 * TK - 1) / (8 * TK);
  if (s > maxs) s = maxs;
  if (s < 1) s = 1;
  const int tiles = (g.K + TK - 1) / TK;
  g.kchunk = (tiles + s - 1) / s * TK;
  g.splits = g.K == 0 ? 1 : (g.K + g.kchunk - 1) / g.kchunk;
}

template <int TA, int TB> static void launch_atomic(Gemm g, cudaStream_t s) {
  plan(g, 1);
  gemm<TA, TB, KOPE_F32, true><<<dim3((g.N + TN - 1) / TN, (g.M + TM - 1) / TM, g.splits), 256, 0, s>>>(g);
}

template <int DT> int run(const kope_args* a, cudaStream_t s) {
  const int T = (int)a->inputs[0].shape[0], E = (int)a->inputs[0].shape[1], Q = (int)a->inputs[1].shape[1];
  const int N = (int)a->inputs[4].shape[0], D = (int)a->inputs[4].shape[1], C = (int)a->inputs[4].shape[2];
  const int R = (int)a->inputs[7].shape[1], CR = (int)a->inputs[5].shape[1];
  if (T == 0) return 0;
  if (N == 0 || a->inputs[3].shape[1] != (int64_t)N * (D + R) || CR != C + R || R % 2 != 0) return (int)cudaErrorInvalidValue;
  const int F = D + R, NF = N * F;
  const float eps_cq = (float)kope_attr_or(a, "eps_cq", 1e-5), eps_ckv = (float)kope_attr_or(a, "eps_ckv", 1e-5);
  float* ws = nullptr;
  const size_t n_cq = (size_t)T * Q, n_kv = (size_t)T * CR, n_qcr = (size_t)T * NF;
  cudaError_t e = cudaMallocAsync((void**)&ws, sizeof(float) * (n_cq + n_kv + n_qcr), s);
  if (e != cudaSuccess) return (int)e;
  float *cq = ws, *kv = ws + n_cq, *qcr = kv + n_kv;
  e = cudaMemsetAsync(ws, 0, sizeof(float) * (n_cq + n_kv + n_qcr), s);
  if (e != cudaSuccess) {
    cudaFreeAsync(ws, s);
    return (int)e;
  }
  const void *x = a->inputs[0].data, *wdq = a->inputs[1].data, *wuq = a->inputs[3].data, *wuk = a->inputs[4].data, *wkv = a->inputs[5].data;
  launch_atomic<DT, DT>(Gemm{x, wdq, cq, E, Q, Q, 0, 0, 0, T, Q, E, 0, 1}, s);
  launch_atomic<DT, DT>(Gemm{x, wkv, kv, E, CR, CR, 0, 0, 0, T, CR, E, 0, 1}, s);
  rms_rows<DT><<<T, 256, 0, s>>>(cq, Q, Q, a->inputs[2].data, eps_cq);
  launch_atomic<KOPE_F32, DT>(Gemm{cq, wuq, qcr, Q, NF, NF, 0, 0, 0, T, NF, Q, 0, 1}, s);
  // q_nope[:, n] = qcr[:, n F .. n F + D) W_UK[n], the heads as the batch.
  Gemm g{qcr, wuk, a->outputs[0].data, NF, C, (int64_t)N * C, F, (int64_t)D * C, C, T, C, D, 0, 1};
  g.kchunk = (D + TK - 1) / TK * TK;
  gemm<KOPE_F32, DT, DT, false><<<dim3((C + TN - 1) / TN, (T + TM - 1) / TM, N), 256, 0, s>>>(g);
  tail<DT><<<T, 256, 0, s>>>(kv, qcr, a->inputs[6].data, a->inputs[7].data, a->inputs[8].data, a->outputs[2].data, a->outputs[3].data,
                             a->outputs[1].data, C, R, N, F, D, eps_ckv);
  cudaFreeAsync(ws, s);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
