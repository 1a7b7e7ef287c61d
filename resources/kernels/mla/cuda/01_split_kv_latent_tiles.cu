// thought: absorbed MLA is multi-query attention whose keys are [ckv | k_rope] and whose values are ckv, so one shared-memory tile of 32 latent rows (fp32, C + R + 1 floats a row so lane j reading key j is conflict-free) serves the scores and P.V; a block of 4 warps takes 16 (query, head) rows of one batch, 4 per warp, lane j scores key j, online softmax with shuffles (NaN-propagating max), lanes own output columns d = lane + 32 t; decode has few rows, so the keys are split over blockIdx.z (flash decoding) with (m, l, acc) partials in a stream-ordered workspace merged by a second kernel
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

constexpr int WARPS = 4, RW = 4, BQ = WARPS * RW, BK = 32, MAXT = 16;  // C up to 32 * MAXT = 512

__device__ __forceinline__ float nmax(float a, float b) { return (a != a || b != b) ? __int_as_float(0x7fc00000) : fmaxf(a, b); }

struct Args {
  const void *q, *qr, *ckv, *kr;
  void* o;
  float* part;  // [splits][rows][C + 2]: acc, then m and l; null when not split
  int S, H, L, C, R, causal, chunk;  // chunk: keys per split, a multiple of BK
  float scale;
};

// Rows [r0, r0 + 16) of batch b (row = s * H + h), keys [z * chunk, (z + 1) * chunk).
template <int DT, int T> __global__ void __launch_bounds__(WARPS * 32) mla_fwd(Args A) {
  extern __shared__ float smem[];
  const int KD = A.C + A.R, KS = KD + 1;
  float* Ks = smem;           // [BK][KD + 1]
  float* Qs = Ks + BK * KS;   // [BQ][KD]
  const int b = blockIdx.y, r0 = blockIdx.x * BQ, warp = threadIdx.x >> 5, lane = threadIdx.x & 31, rows = A.S * A.H;
  const int64_t g0 = (int64_t)b * rows + r0;
  for (int e = threadIdx.x; e < BQ * KD; e += blockDim.x) {
    const int r = e / KD, d = e - r * KD;
    float x = 0.0f;
    if (r0 + r < rows) x = d < A.C ? ld<DT>(A.q, (g0 + r) * A.C + d) : ld<DT>(A.qr, (g0 + r) * A.R + d - A.C);
    Qs[e] = A.scale * x;
  }
  float acc[RW][T], m[RW], l[RW];
  int lim[RW];
#pragma unroll
  for (int r = 0; r < RW; ++r) {
    m[r] = -INFINITY, l[r] = 0.0f;
    const int s = min(r0 + warp * RW + r, rows - 1) / A.H;
    lim[r] = A.causal ? A.L - A.S + s + 1 : A.L;  // bottom-right: query s sees keys j <= L - S + s
#pragma unroll
    for (int t = 0; t < T; ++t) acc[r][t] = 0.0f;
  }
  const int slast = (min(r0 + BQ, rows) - 1) / A.H;
  const int jbeg = blockIdx.z * A.chunk;
  const int jend = min(min(jbeg + A.chunk, A.L), A.causal ? A.L - A.S + slast + 1 : A.L);
  const int64_t kb = (int64_t)b * A.L;
  for (int j0 = jbeg; j0 < jend; j0 += BK) {
    const int nk = min(BK, jend - j0);
    __syncthreads();
    for (int e = threadIdx.x; e < BK * KD; e += blockDim.x) {
      const int j = e / KD, d = e - j * KD;
      float x = 0.0f;
      if (j < nk) x = d < A.C ? ld<DT>(A.ckv, (kb + j0 + j) * A.C + d) : ld<DT>(A.kr, (kb + j0 + j) * A.R + d - A.C);
      Ks[j * KS + d] = x;
    }
    __syncthreads();
    float s[RW];
#pragma unroll
    for (int r = 0; r < RW; ++r) s[r] = 0.0f;
    const float* kr = Ks + lane * KS;
    const float* qr = Qs + warp * RW * KD;
    for (int d = 0; d < KD; ++d) {
      const float kv = kr[d];
#pragma unroll
      for (int r = 0; r < RW; ++r) s[r] = fmaf(qr[r * KD + d], kv, s[r]);
    }
#pragma unroll
    for (int r = 0; r < RW; ++r) {
      if (j0 + lane >= lim[r] || lane >= nk) s[r] = -INFINITY;
      float mx = s[r];
#pragma unroll
      for (int o2 = 16; o2 > 0; o2 >>= 1) mx = nmax(mx, __shfl_xor_sync(0xffffffffu, mx, o2));
      const float mnew = nmax(m[r], mx);
      const float alpha = mnew == -INFINITY ? 1.0f : expf(m[r] - mnew);
      const float p = mnew == -INFINITY ? 0.0f : expf(s[r] - mnew);
      float ps = p;
#pragma unroll
      for (int o2 = 16; o2 > 0; o2 >>= 1) ps += __shfl_xor_sync(0xffffffffu, ps, o2);
      l[r] = l[r] * alpha + ps;
      m[r] = mnew;
      s[r] = p;
#pragma unroll
      for (int t = 0; t < T; ++t) acc[r][t] *= alpha;
    }
    for (int j = 0; j < nk; ++j) {
      float pj[RW];
#pragma unroll
      for (int r = 0; r < RW; ++r) pj[r] = __shfl_sync(0xffffffffu, s[r], j);
#pragma unroll
      for (int t = 0; t < T; ++t) {
        const int d = lane + 32 * t;
        const float vv = d < A.C ? Ks[j * KS + d] : 0.0f;
#pragma unroll
        for (int r = 0; r < RW; ++r) acc[r][t] = fmaf(pj[r], vv, acc[r][t]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < RW; ++r) {
    const int rr = r0 + warp * RW + r;
    if (rr >= rows) continue;
    const int64_t g = (int64_t)b * rows + rr;
    if (A.part) {  // this split's partial: unnormalised acc, its max and sum (m = -inf, l = 0 when it saw no key)
      float* P = A.part + ((int64_t)blockIdx.z * gridDim.y * rows + g) * (A.C + 2);
#pragma unroll
      for (int t = 0; t < T; ++t) {
        const int d = lane + 32 * t;
        if (d < A.C) P[d] = acc[r][t];
      }
      if (lane == 0) P[A.C] = m[r], P[A.C + 1] = l[r];
    } else {
      const float inv = 1.0f / l[r];
#pragma unroll
      for (int t = 0; t < T; ++t) {
        const int d = lane + 32 * t;
        if (d < A.C) st<DT>(A.o, g * A.C + d, acc[r][t] * inv);
      }
    }
  }
}

// o[g, d] = sum_z acc_z[d] e^(m_z - M) / sum_z l_z e^(m_z - M), M the NaN-propagating max of the m_z.
template <int DT> __global__ void mla_merge(const float* __restrict__ part, void* __restrict__ o, int64_t nrows, int C, int splits) {
  const int64_t g = blockIdx.x;
  const float* P = part + g * (C + 2);
  const int64_t zs = nrows * (C + 2);
  float M = -INFINITY;
  for (int z = 0; z < splits; ++z) M = nmax(M, P[z * zs + C]);
  float lsum = 0.0f;
  for (int z = 0; z < splits; ++z) {
    const float mz = P[z * zs + C];
    lsum += mz == -INFINITY ? 0.0f : P[z * zs + C + 1] * expf(mz - M);
  }
  const float inv = 1.0f / lsum;
  for (int d = threadIdx.x; d < C; d += blockDim.x) {
    float a = 0.0f;
    for (int z = 0; z < splits; ++z) {
      const float mz = P[z * zs + C];
      if (mz != -INFINITY) a = fmaf(P[z * zs + d], expf(mz - M), a);
    }
    st<DT>(o, g * C + d, a * inv);
  }
}

template <int DT, int T> int launch(const kope_args* a, cudaStream_t s) {
  const kope_tensor &q = a->inputs[0], &qr = a->inputs[1];
  Args A{q.data, qr.data, a->inputs[2].data, a->inputs[3].data, a->outputs[0].data, nullptr,
         (int)q.shape[1], (int)q.shape[2], (int)a->inputs[2].shape[1], (int)q.shape[3], (int)qr.shape[3],
         kope_attr_or(a, "causal", 0) != 0, 0, (float)kope_attr_or(a, "scale", 0.07216878364870322)};
  const int B = (int)q.shape[0], rows = A.S * A.H;
  const size_t smem = sizeof(float) * ((size_t)BK * (A.C + A.R + 1) + (size_t)BQ * (A.C + A.R));
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(mla_fwd<DT, T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return (int)e;
  }
  const int64_t blocks = (int64_t)B * ((rows + BQ - 1) / BQ);
  // Splits of the keys until about two waves of 132 SMs, none shorter than 4 tiles.
  int splits = (int)((264 + blocks - 1) / blocks);
  const int maxs = (A.L + 4 * BK - 1) / (4 * BK);
  if (splits > maxs) splits = maxs;
  if (splits < 1) splits = 1;
  const int tiles = (A.L + BK - 1) / BK;
  A.chunk = (tiles + splits - 1) / splits * BK;
  splits = (A.L + A.chunk - 1) / A.chunk;
  float* part = nullptr;
  if (splits > 1) {
    const cudaError_t e = cudaMallocAsync((void**)&part, sizeof(float) * (size_t)splits * B * rows * (A.C + 2), s);
    if (e != cudaSuccess) return (int)e;
    A.part = part;
  }
  const dim3 grid((rows + BQ - 1) / BQ, B, splits);
  mla_fwd<DT, T><<<grid, WARPS * 32, smem, s>>>(A);
  if (splits > 1) {
    mla_merge<DT><<<(unsigned)((int64_t)B * rows), 128, 0, s>>>(part, A.o, (int64_t)B * rows, A.C, splits);
    cudaFreeAsync(part, s);
  }
  return (int)cudaGetLastError();
}

template <int DT> int run(const kope_args* a, cudaStream_t s) {
  const int64_t S = a->inputs[0].shape[1], C = a->inputs[0].shape[3], L = a->inputs[2].shape[1];
  if (a->outputs[0].numel == 0) return 0;
  if (L == 0 || (kope_attr_or(a, "causal", 0) != 0 && L < S) || (C + 31) / 32 > MAXT) return (int)cudaErrorInvalidValue;
  switch ((C + 31) / 32) {
    case 1: return launch<DT, 1>(a, s);
    case 2: return launch<DT, 2>(a, s);
    case 3: return launch<DT, 3>(a, s);
    case 4: return launch<DT, 4>(a, s);
    case 5: case 6: case 7: case 8: return launch<DT, 8>(a, s);
    default: return launch<DT, 16>(a, s);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
