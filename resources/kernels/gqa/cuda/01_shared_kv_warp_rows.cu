// thought: grouped-query flash attention in fp32 on the CUDA cores: a block of 4 warps takes 16 queries of one query head, reading key/value head h / G (4 rows per warp, pre-scaled in shared memory); key/value tiles of 32 rows are staged in shared memory as fp32 (K rows padded by one float so lane j reading key j's row is conflict-free); lane j computes the 4 rows' scores for key j, an online softmax with warp-shuffle max and sum (NaN-propagating max), then each lane accumulates its columns d = lane + 32 t of P.V in registers; causal (bottom-right, query i sees keys j <= L - S + i) tiles past the block's last query are never loaded; with few query tiles (decode) the keys are split over blockIdx.z (flash decoding) with (m, l, acc) partials merged by a second kernel
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

constexpr int WARPS = 4, RW = 4, BQ = WARPS * RW, BK = 32, MAXT = 4;  // D up to 32 * MAXT = 128

// max that propagates NaN (fmaxf drops it: a NaN score must make its row NaN, as SDPA's softmax does).
__device__ __forceinline__ float nmax(float a, float b) { return (a != a || b != b) ? __int_as_float(0x7fc00000) : fmaxf(a, b); }

// Queries [i0, i0 + 16) of query head bh, keys of head bh / G; query i sees keys j < lim(i) = min(L - S + i + 1, L).
template <int DT, int T>
__global__ void __launch_bounds__(WARPS * 32) gqa_fwd(const void* __restrict__ q, const void* __restrict__ k, const void* __restrict__ v,
                                                      void* __restrict__ o, float* __restrict__ part, int S, int L, int D,
                                                      int G, float scale, int chunk) {
  extern __shared__ float smem[];
  float* Ks = smem;                    // [BK][D + 1]
  float* Vs = Ks + BK * (D + 1);       // [BK][D]
  float* Qs = Vs + BK * D;             // [BQ][D]
  const int bh = blockIdx.y, i0 = blockIdx.x * BQ, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int64_t qbase = (int64_t)bh * S * D, kbase = (int64_t)(bh / G) * L * D;
  const int off = L - S;
  for (int e = threadIdx.x; e < BQ * D; e += blockDim.x) {
    const int r = e / D, d = e - r * D;
    Qs[e] = i0 + r < S ? scale * ld<DT>(q, qbase + (int64_t)(i0 + r) * D + d) : 0.0f;
  }
  float acc[RW][T], m[RW], l[RW];
#pragma unroll
  for (int r = 0; r < RW; ++r) {
    m[r] = -INFINITY, l[r] = 0.0f;
#pragma unroll
    for (int t = 0; t < T; ++t) acc[r][t] = 0.0f;
  }
  const int last = min(i0 + BQ, S) - 1;
  const int jbeg = blockIdx.z * chunk, jend = min(jbeg + chunk, min(last + off + 1, L));
  for (int j0 = jbeg; j0 < jend; j0 += BK) {
    const int nk = min(BK, jend - j0);
    __syncthreads();  // the previous tile is no longer read
    for (int e = threadIdx.x; e < BK * D; e += blockDim.x) {
      const int j = e / D, d = e - j * D;
      const bool in = j < nk;
      Ks[j * (D + 1) + d] = in ? ld<DT>(k, kbase + (int64_t)(j0 + j) * D + d) : 0.0f;
      Vs[j * D + d] = in ? ld<DT>(v, kbase + (int64_t)(j0 + j) * D + d) : 0.0f;
    }
    __syncthreads();
    // Scores: lane = key j0 + lane, for the warp's RW rows.
    float s[RW];
#pragma unroll
    for (int r = 0; r < RW; ++r) s[r] = 0.0f;
    const float* kr = Ks + lane * (D + 1);
    const float* qr = Qs + warp * RW * D;
    for (int d = 0; d < D; ++d) {
      const float kv = kr[d];
#pragma unroll
      for (int r = 0; r < RW; ++r) s[r] = fmaf(qr[r * D + d], kv, s[r]);
    }
#pragma unroll
    for (int r = 0; r < RW; ++r) {
      const int i = i0 + warp * RW + r;
      const int lim = min(i + off + 1, L);
      if (j0 + lane >= lim || lane >= nk) s[r] = -INFINITY;
      float mx = s[r];
#pragma unroll
      for (int o2 = 16; o2 > 0; o2 >>= 1) mx = nmax(mx, __shfl_xor_sync(0xffffffffu, mx, o2));
      const float mnew = nmax(m[r], mx);
      // A row that sees no key of this tile (causal, a query before j0) keeps its state: mnew = -inf there.
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
        const float vv = d < D ? Vs[j * D + d] : 0.0f;
#pragma unroll
        for (int r = 0; r < RW; ++r) acc[r][t] = fmaf(pj[r], vv, acc[r][t]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < RW; ++r) {
    const int i = i0 + warp * RW + r;
    if (i >= S) continue;
    if (part) {  // this key split's partial: unnormalised acc, its max and sum (m = -inf, l = 0 when it saw no key)
      float* P = part + (((int64_t)blockIdx.z * gridDim.y + bh) * S + i) * (D + 2);
#pragma unroll
      for (int t = 0; t < T; ++t) {
        const int d = lane + 32 * t;
        if (d < D) P[d] = acc[r][t];
      }
      if (lane == 0) P[D] = m[r], P[D + 1] = l[r];
      continue;
    }
    const float inv = 1.0f / l[r];
#pragma unroll
    for (int t = 0; t < T; ++t) {
      const int d = lane + 32 * t;
      if (d < D) st<DT>(o, qbase + (int64_t)i * D + d, acc[r][t] * inv);
    }
  }
}

// o[g, d] = sum_z acc_z[d] e^(m_z - M) / sum_z l_z e^(m_z - M) over the key splits z, M the NaN-propagating max.
template <int DT> __global__ void merge_splits(const float* __restrict__ part, void* __restrict__ o, int64_t nrows, int D, int splits) {
  const int64_t g = blockIdx.x;
  const float* P = part + g * (D + 2);
  const int64_t zs = nrows * (D + 2);
  float M = -INFINITY;
  for (int z = 0; z < splits; ++z) M = nmax(M, P[z * zs + D]);
  float lsum = 0.0f;
  for (int z = 0; z < splits; ++z) {
    const float mz = P[z * zs + D];
    lsum += mz == -INFINITY ? 0.0f : P[z * zs + D + 1] * expf(mz - M);
  }
  const float inv = 1.0f / lsum;
  for (int d = threadIdx.x; d < D; d += blockDim.x) {
    float a = 0.0f;
    for (int z = 0; z < splits; ++z) {
      const float mz = P[z * zs + D];
      if (mz != -INFINITY) a = fmaf(P[z * zs + d], expf(mz - M), a);
    }
    st<DT>(o, g * D + d, a * inv);
  }
}

template <int DT, int T> int launch(const kope_args* a, cudaStream_t s) {
  const kope_tensor &q = a->inputs[0], &k = a->inputs[1];
  const int BH = (int)(q.shape[0] * q.shape[1]), S = (int)q.shape[2], D = (int)q.shape[3], L = (int)k.shape[2];
  const size_t smem = sizeof(float) * ((size_t)BK * (D + 1) + (size_t)BK * D + (size_t)BQ * D);
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(gqa_fwd<DT, T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return (int)e;
  }
  // Few query tiles (decode): the keys split over blockIdx.z until about two waves of 132 SMs run, none shorter than
  // 4 tiles, with (m, l, acc) partials in a stream-ordered workspace merged by a second kernel.
  const int64_t blocks = (int64_t)BH * ((S + BQ - 1) / BQ);
  int splits = (int)((264 + blocks - 1) / blocks);
  const int maxs = (L + 4 * BK - 1) / (4 * BK);
  if (splits > maxs) splits = maxs;
  if (splits < 1) splits = 1;
  const int tiles = (L + BK - 1) / BK;
  const int chunk = (tiles + splits - 1) / splits * BK;
  splits = (L + chunk - 1) / chunk;
  float* part = nullptr;
  if (splits > 1) {
    const cudaError_t e = cudaMallocAsync((void**)&part, sizeof(float) * (size_t)splits * BH * S * (D + 2), s);
    if (e != cudaSuccess) return (int)e;
  }
  const dim3 grid((S + BQ - 1) / BQ, BH, splits);
  gqa_fwd<DT, T><<<grid, WARPS * 32, smem, s>>>(q.data, k.data, a->inputs[2].data, a->outputs[0].data, part, S, L, D,
                                                (int)(q.shape[1] / k.shape[1]), 1.0f / sqrtf((float)D), chunk);
  if (splits > 1) {
    merge_splits<DT><<<(unsigned)((int64_t)BH * S), 128, 0, s>>>(part, a->outputs[0].data, (int64_t)BH * S, D, splits);
    cudaFreeAsync(part, s);
  }
  return (int)cudaGetLastError();
}

template <int DT> int run(const kope_args* a, cudaStream_t s) {
  const int D = (int)a->inputs[0].shape[3];
  if (a->inputs[0].numel == 0) return 0;
  const int64_t H = a->inputs[0].shape[1], HKV = a->inputs[1].shape[1], S = a->inputs[0].shape[2], L = a->inputs[1].shape[2];
  if (L == 0 || L < S || HKV == 0 || H % HKV != 0 || (D + 31) / 32 > MAXT) return (int)cudaErrorInvalidValue;  // D > 128
  switch ((D + 31) / 32) {
    case 1: return launch<DT, 1>(a, s);
    case 2: return launch<DT, 2>(a, s);
    case 3: return launch<DT, 3>(a, s);
    case 4: return launch<DT, 4>(a, s);
    default: return (int)cudaErrorInvalidValue;
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
