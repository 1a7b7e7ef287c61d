// thought: one CUDA block per (rank, expert) segment: its start from one block reduction over the counts, taken in the expert-major order the output is written in, then a 16-byte vector copy of the whole contiguous row range; extra blocks zero the rows past the counts' sum
// flaw: the source start is the segment's expert-major offset (the destination's) instead of the rank-major
// exclusive cumsum of the counts: tokens are read as if they had already been re-routed, wrong whenever R > 1 and E > 1.
#include "kope_cuda.h"

#include <stdint.h>

// Four sums over the counts (flat index i = r * E + e): the source start of segment (r, e) (all i before r * E + e),
// its destination start (expert-major: experts before e, then ranks before r within e), the total S, and the
// column sum of e (expert_token_num).
struct Sums {
  long long src, dst, total, col;
};

__device__ Sums block_sums(const int32_t* __restrict__ counts, int R, int E, int r, int e) {
  long long v[4] = {0, 0, 0, 0};
  const int flat = r * E + e;
  for (int i = threadIdx.x; i < R * E; i += blockDim.x) {
    const long long c = counts[i];
    const int ri = i / E, ei = i % E;
    if (i < flat) v[0] += c;
    if (ei < e || (ei == e && ri < r)) v[1] += c;
    v[2] += c;
    if (ei == e) v[3] += c;
  }
  __shared__ long long part[4][32];
  __shared__ long long total[4];
  for (int k = 0; k < 4; ++k) {
    long long x = v[k];
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    if ((threadIdx.x & 31) == 0) part[k][threadIdx.x >> 5] = x;
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    long long x = 0;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) x += part[threadIdx.x][w];
    total[threadIdx.x] = x;
  }
  __syncthreads();
  return Sums{total[0], total[1], total[2], total[3]};
}

// bytes [0, len) from src to dst, split over `parts` blocks (part p of them), widest access both ends allow
__device__ void copy_bytes(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, long long len, int p, int parts) {
  const uintptr_t a = (uintptr_t)src | (uintptr_t)dst | (uintptr_t)len;
  const long long step = (long long)blockDim.x * parts, first = (long long)p * blockDim.x + threadIdx.x;
  if ((a & 15) == 0) {
    const uint4* s = (const uint4*)src;
    uint4* d = (uint4*)dst;
    for (long long i = first; i < len / 16; i += step) d[i] = s[i];
  } else if ((a & 3) == 0) {
    const uint32_t* s = (const uint32_t*)src;
    uint32_t* d = (uint32_t*)dst;
    for (long long i = first; i < len / 4; i += step) d[i] = s[i];
  } else {
    for (long long i = first; i < len; i += step) dst[i] = src[i];
  }
}

__device__ void zero_bytes(uint8_t* __restrict__ dst, long long len, long long first, long long step) {
  const uintptr_t a = (uintptr_t)dst | (uintptr_t)len;
  if ((a & 15) == 0) {
    for (long long i = first; i < len / 16; i += step) ((uint4*)dst)[i] = make_uint4(0, 0, 0, 0);
  } else if ((a & 3) == 0) {
    for (long long i = first; i < len / 4; i += step) ((uint32_t*)dst)[i] = 0u;
  } else {
    for (long long i = first; i < len; i += step) dst[i] = 0;
  }
}

// blockIdx.x < R * E: segment (r, e) in expert-major order (e = x / R, r = x % R), blockIdx.y its part;
// the rest zero rows S.. of the outputs.
__global__ void reroute(const uint8_t* __restrict__ tokens, const int32_t* __restrict__ counts,
                        const uint32_t* __restrict__ scales, uint8_t* __restrict__ out, uint32_t* __restrict__ out_scales,
                        int32_t* __restrict__ gidx, int64_t* __restrict__ num, long long A, long long rowBytes, int R,
                        int E, int zeroBlocks) {
  const int segs = R * E;
  const int x = blockIdx.x;
  if (x < segs) {
    const int e = x / R, r = x % R;
    const Sums s = block_sums(counts, R, E, r, e);
    const long long c = counts[r * E + e];
    if (r == 0 && blockIdx.y == 0 && threadIdx.x == 0) num[e] = s.col;
    copy_bytes(tokens + s.dst * rowBytes, out + s.dst * rowBytes, c * rowBytes, blockIdx.y, gridDim.y);
    for (long long j = (long long)blockIdx.y * blockDim.x + threadIdx.x; j < c; j += (long long)gridDim.y * blockDim.x) {
      out_scales[s.dst + j] = scales[s.dst + j];
      gidx[s.dst + j] = (int32_t)(s.dst + j);
    }
  } else {
    const Sums s = block_sums(counts, R, E, 0, 0);
    const long long S = s.total < A ? s.total : A;
    const long long first = ((long long)(x - segs) * gridDim.y + blockIdx.y) * blockDim.x + threadIdx.x;
    const long long step = (long long)zeroBlocks * gridDim.y * blockDim.x;
    zero_bytes(out + S * rowBytes, (A - S) * rowBytes, first, step);
    for (long long j = S + first; j < A; j += step) {
      out_scales[j] = 0u;
      gidx[j] = -1;
    }
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &t = a->inputs[0], &c = a->inputs[1];
  const int esize = t.dtype == KOPE_F32 ? 4 : (t.dtype == KOPE_F16 || t.dtype == KOPE_BF16) ? 2 : t.dtype == KOPE_I8 ? 1 : 0;
  if (esize == 0 || c.dtype != KOPE_I32 || t.ndim != 2 || c.ndim != 2) return (int)cudaErrorInvalidValue;
  const long long A = t.shape[0], H = t.shape[1];
  const int R = (int)c.shape[0], E = (int)c.shape[1];
  if (R * E == 0) return (int)cudaErrorInvalidValue;
  if (A == 0) return 0;
  const long long rowBytes = H * esize;
  // a segment holds at most A / (R * E) rows on average; split long ones into parts of about 32 KiB
  const long long avg = (A + R * E - 1) / (R * E) * rowBytes;
  long long parts = (avg + 32767) / 32768;
  parts = parts < 1 ? 1 : parts > 16 ? 16 : parts;
  const int zeroBlocks = 132;
  const dim3 grid((unsigned)(R * E + zeroBlocks), (unsigned)parts);
  reroute<<<grid, 256, 0, s>>>((const uint8_t*)t.data, (const int32_t*)c.data, (const uint32_t*)a->inputs[2].data,
                               (uint8_t*)a->outputs[0].data, (uint32_t*)a->outputs[1].data,
                               (int32_t*)a->outputs[2].data, (int64_t*)a->outputs[3].data, A, rowBytes, R, E, zeroBlocks);
  return (int)cudaGetLastError();
}
