// thought: the input projection of every step is one GEMM before the recurrence (x [T B, I] times w_ih^T plus b_ih, 64x64 shared-memory tiles, 4x4 outputs a thread, fp32 into a stream-ordered workspace); then one launch per step, a warp per hidden unit j: it reads w_hh's rows j, H + j, 2H + j, 3H + j coalesced, dots them with every batch row's h (lanes over k, shuffle reduction), and lane 0 applies the gates in fp32 in torch's order i, f, g, o (sigmoid 1 / (1 + e^-x) and tanhf saturate at +-inf; c = f c + i g, h = o tanh(c)) into the other halves of double-buffered fp32 h and c, writing y[t] in the output type
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

constexpr int G = 4;  // gates i, f, g, o
constexpr int TM = 64, TN = 64, TK = 16;

// C [M, N] = A [M, K] . W [N, K]^T + bias [N], fp32 out; 256 threads, each a 4x4 block of the 64x64 tile.
template <int DT>
__global__ void __launch_bounds__(256) gemm_nt(const void* __restrict__ A, const void* __restrict__ W, const void* __restrict__ bias,
                                               float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TK][TM + 4], Ws[TK][TN + 4];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16, m0 = blockIdx.y * TM, n0 = blockIdx.x * TN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += TK) {
    for (int e = threadIdx.x; e < TM * TK; e += 256) {  // k fastest: consecutive threads read consecutive k
      const int r = e / TK, k = e % TK;
      As[k][r] = m0 + r < M && k0 + k < K ? ld<DT>(A, (int64_t)(m0 + r) * K + k0 + k) : 0.0f;
      Ws[k][r] = n0 + r < N && k0 + k < K ? ld<DT>(W, (int64_t)(n0 + r) * K + k0 + k) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TK; ++k) {
      float a[4], w[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], w[i] = Ws[k][tx * 4 + i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], w[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int m = m0 + ty * 4 + i, n = n0 + tx * 4 + j;
      if (m < M && n < N) C[(int64_t)m * N + n] = acc[i][j] + ld<DT>(bias, n);
    }
}

template <int DT> __global__ void load_h(const void* __restrict__ h0, float* __restrict__ h, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) h[i] = ld<DT>(h0, i);
}

__device__ __forceinline__ float sigm(float x) { return 1.0f / (1.0f + expf(-x)); }

// Step t: a warp per hidden unit j, every batch row. gx: [B, G H] of this step (b_ih in), h and c: [B, H] in, hn and cn: out.
template <int DT>
__global__ void __launch_bounds__(256) lstm_step(const float* __restrict__ gx, const void* __restrict__ whh, const void* __restrict__ bhh,
                                                 const float* __restrict__ h, float* __restrict__ hn, const float* __restrict__ c,
                                                 float* __restrict__ cn, void* __restrict__ y, void* __restrict__ hT, void* __restrict__ cT,
                                                 int B, int H, int last) {
  const int j = blockIdx.x * 8 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
  if (j >= H) return;
  const int64_t r0 = (int64_t)j * H, r1 = (int64_t)(H + j) * H, r2 = (int64_t)(2 * H + j) * H, r3 = (int64_t)(3 * H + j) * H;
  const float b0 = ld<DT>(bhh, j), b1 = ld<DT>(bhh, H + j), b2 = ld<DT>(bhh, 2 * H + j), b3 = ld<DT>(bhh, 3 * H + j);
  for (int b = 0; b < B; ++b) {
    const float* hb = h + (int64_t)b * H;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int k = lane; k < H; k += 32) {
      const float hk = hb[k];
      s0 = fmaf(ld<DT>(whh, r0 + k), hk, s0);
      s1 = fmaf(ld<DT>(whh, r1 + k), hk, s1);
      s2 = fmaf(ld<DT>(whh, r2 + k), hk, s2);
      s3 = fmaf(ld<DT>(whh, r3 + k), hk, s3);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      s0 += __shfl_xor_sync(0xffffffffu, s0, o);
      s1 += __shfl_xor_sync(0xffffffffu, s1, o);
      s2 += __shfl_xor_sync(0xffffffffu, s2, o);
      s3 += __shfl_xor_sync(0xffffffffu, s3, o);
    }
    if (lane == 0) {
      const float* g = gx + (int64_t)b * G * H;
      const float ig = sigm(g[j] + (s0 + b0)), fg = sigm(g[H + j] + (s1 + b1));
      const float gg = tanhf(g[2 * H + j] + (s2 + b2)), og = sigm(g[3 * H + j] + (s3 + b3));
      const int64_t at = (int64_t)b * H + j;
      const float cv = fg * c[at] + ig * gg, hv = og * tanhf(cv);
      cn[at] = cv;
      hn[at] = hv;
      st<DT>(y, at, hv);
      if (last) st<DT>(hT, at, hv), st<DT>(cT, at, cv);
    }
  }
}

template <int DT> int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &h0 = a->inputs[1];
  const int T = (int)x.shape[0], B = (int)x.shape[1], I = (int)x.shape[2], H = (int)h0.shape[2];
  if (B == 0 || H == 0) return 0;
  const int64_t es = DT == KOPE_F32 ? 4 : 2;
  if (T == 0) {  // hT = h0, cT = c0
    cudaError_t e = cudaMemcpyAsync(a->outputs[1].data, h0.data, (size_t)B * H * es, cudaMemcpyDeviceToDevice, s);
    if (e == cudaSuccess) e = cudaMemcpyAsync(a->outputs[2].data, a->inputs[2].data, (size_t)B * H * es, cudaMemcpyDeviceToDevice, s);
    return (int)e;
  }
  float* ws = nullptr;
  const size_t ngx = (size_t)T * B * G * H, nh = (size_t)B * H;
  cudaError_t e = cudaMallocAsync((void**)&ws, sizeof(float) * (ngx + 4 * nh), s);
  if (e != cudaSuccess) return (int)e;
  float *gx = ws, *hb[2] = {ws + ngx, ws + ngx + nh}, *cb[2] = {ws + ngx + 2 * nh, ws + ngx + 3 * nh};
  const dim3 gg((G * H + TN - 1) / TN, (T * B + TM - 1) / TM);
  gemm_nt<DT><<<gg, 256, 0, s>>>(x.data, a->inputs[3].data, a->inputs[5].data, gx, T * B, G * H, I);
  load_h<DT><<<(unsigned)((nh + 255) / 256), 256, 0, s>>>(h0.data, hb[0], (int64_t)nh);
  load_h<DT><<<(unsigned)((nh + 255) / 256), 256, 0, s>>>(a->inputs[2].data, cb[0], (int64_t)nh);
  for (int t = 0; t < T; ++t)
    lstm_step<DT><<<(H + 7) / 8, 256, 0, s>>>(gx + (size_t)t * B * G * H, a->inputs[4].data, a->inputs[6].data, hb[t & 1],
                                               hb[(t + 1) & 1], cb[t & 1], cb[(t + 1) & 1],
                                               static_cast<char*>(a->outputs[0].data) + (size_t)t * B * H * es, a->outputs[1].data,
                                               a->outputs[2].data, B, H, t + 1 == T);
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
