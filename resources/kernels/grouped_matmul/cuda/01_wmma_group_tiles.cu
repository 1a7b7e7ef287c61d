// thought: one CUDA block per 64 x 64 output tile of one group, the tiles of all groups numbered in a single grid dimension (each block finds its group from group_list, no host read), fp16/bf16 on the tensor cores (WMMA 16x16x16, fp32 accumulators, 32-wide K tiles staged in shared memory with 16-byte loads) and fp32 as 4 x 4 register tiles per thread; bias added in the epilogue, spare blocks zero the rows past the counts' sum
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

constexpr int BM = 64, BN = 64;

// Block row tile t: its group g, first row and row count; rows < 0 when t is a spare tile (z: its zero-tile index).
struct Tile {
  int g;
  int64_t row, rows, S, z;
};
__device__ Tile find_tile(const int64_t* __restrict__ groups, int G, int64_t t) {
  int64_t start = 0;
  for (int g = 0; g < G; ++g) {
    const int64_t c = groups[g], n = (c + BM - 1) / BM;
    if (t < n) return Tile{g, start + t * BM, c - t * BM < BM ? c - t * BM : BM, 0, 0};
    t -= n;
    start += c;
  }
  return Tile{-1, 0, -1, start, t};
}

template <class T> __device__ __forceinline__ float tof(T v);
template <> __device__ __forceinline__ float tof<float>(float v) { return v; }
template <> __device__ __forceinline__ float tof<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float tof<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ __forceinline__ T fromf(float v);
template <> __device__ __forceinline__ float fromf<float>(float v) { return v; }
template <> __device__ __forceinline__ __half fromf<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 fromf<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// rows [S + z * BM ...) of y, columns of this block: 0 (every spare tile index z' = z, z + spare, ...)
template <class T> __device__ void zero_rows(T* __restrict__ y, const Tile& tl, int64_t M, int64_t N, int64_t spare, int n0) {
  for (int64_t r0 = tl.S + tl.z * BM; r0 < M; r0 += spare * BM)
    for (int i = threadIdx.x; i < BM * BN; i += blockDim.x) {
      const int64_t r = r0 + i / BN, n = n0 + i % BN;
      if (r < M && n < N) y[r * N + n] = fromf<T>(0.0f);
    }
}

// fp16 / bf16: 4 warps, each 32 x 32 of the tile (2 x 2 fragments)
template <class T, bool VEC>
__global__ void __launch_bounds__(128) gmm_wmma(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
                                                const int64_t* __restrict__ groups, T* __restrict__ y, int64_t M, int64_t K,
                                                int64_t N, int G, int64_t tilesY) {
  constexpr int BK = 32, LA = BK + 8, LB = BN + 8, LC = BN + 4;
  __shared__ __align__(128) T As[BM * LA];
  __shared__ __align__(128) T Bs[BK * LB];
  __shared__ __align__(128) float Cs[BM * LC];
  const Tile tl = find_tile(groups, G, blockIdx.y);
  const int n0 = blockIdx.x * BN;
  if (tl.rows < 0) {
    int64_t used = 0;  // the group tiles: the rest of the grid's rows are spare
    for (int g = 0; g < G; ++g) used += (groups[g] + BM - 1) / BM;
    zero_rows<T>(y, tl, M, N, tilesY - used, n0);
    return;
  }
  const T* wg = w + (int64_t)tl.g * K * N;
  const int warp = threadIdx.x >> 5, wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  const T zero = fromf<T>(0.0f);
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    if (VEC) {  // 8 elements (16 bytes) a load; K and N multiples of 8, so a vector is wholly in or out
      for (int v = threadIdx.x; v < BM * BK / 8; v += blockDim.x) {
        const int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
        uint4 u = make_uint4(0, 0, 0, 0);
        if (r < tl.rows && k0 + c < K) u = *(const uint4*)(x + (tl.row + r) * K + k0 + c);
        *(uint4*)(As + r * LA + c) = u;
      }
      for (int v = threadIdx.x; v < BK * BN / 8; v += blockDim.x) {
        const int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
        uint4 u = make_uint4(0, 0, 0, 0);
        if (k0 + r < K && n0 + c < N) u = *(const uint4*)(wg + (k0 + r) * N + n0 + c);
        *(uint4*)(Bs + r * LB + c) = u;
      }
    } else {
      for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
        const int r = i / BK, c = i % BK;
        As[r * LA + c] = r < tl.rows && k0 + c < K ? x[(tl.row + r) * K + k0 + c] : zero;
      }
      for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
        const int r = i / BN, c = i % BN;
        Bs[r * LB + c] = k0 + r < K && n0 + c < N ? wg[(k0 + r) * N + n0 + c] : zero;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], As + (wm + i * 16) * LA + kk, LA);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], Bs + kk * LB + wn + j * 16, LB);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(Cs + (wm + i * 16) * LC + wn + j * 16, acc[i][j], LC, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BM * BN; i += blockDim.x) {
    const int r = i / BN, c = i % BN;
    if (r < tl.rows && n0 + c < N)
      y[(tl.row + r) * N + n0 + c] = fromf<T>(Cs[r * LC + c] + tof<T>(bias[(int64_t)tl.g * N + n0 + c]));
  }
}

// fp32: 256 threads, 4 x 4 outputs each, 16-deep K tiles (A transposed in shared memory for broadcast reads)
__global__ void __launch_bounds__(256) gmm_f32(const float* __restrict__ x, const float* __restrict__ w,
                                               const float* __restrict__ bias, const int64_t* __restrict__ groups,
                                               float* __restrict__ y, int64_t M, int64_t K, int64_t N, int G, int64_t tilesY) {
  constexpr int BK = 16;
  __shared__ float As[BK][BM + 4];
  __shared__ float Bs[BK][BN + 4];
  const Tile tl = find_tile(groups, G, blockIdx.y);
  const int n0 = blockIdx.x * BN;
  if (tl.rows < 0) {
    int64_t used = 0;
    for (int g = 0; g < G; ++g) used += (groups[g] + BM - 1) / BM;
    zero_rows<float>(y, tl, M, N, tilesY - used, n0);
    return;
  }
  const float* wg = w + (int64_t)tl.g * K * N;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
      const int r = i / BK, c = i % BK;
      As[c][r] = r < tl.rows && k0 + c < K ? x[(tl.row + r) * K + k0 + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = k0 + r < K && n0 + c < N ? wg[(k0 + r) * N + n0 + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty * 4 + i], b[i] = Bs[kk][tx * 4 + i];
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
      const int r = ty * 4 + i, c = n0 + tx * 4 + j;
      if (r < tl.rows && c < N) y[(tl.row + r) * N + c] = acc[i][j] + bias[(int64_t)tl.g * N + c];
    }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &w = a->inputs[1], &b = a->inputs[2], &gl = a->inputs[3], &y = a->outputs[0];
  if (gl.dtype != KOPE_I64 || w.dtype != x.dtype || b.dtype != x.dtype || y.dtype != x.dtype) return (int)cudaErrorInvalidValue;
  const int64_t M = x.shape[0], K = x.shape[1], N = w.shape[2];
  const int G = (int)w.shape[0];
  if (M == 0 || N == 0) return 0;
  // group tiles <= floor(S / BM) + G, spare tiles >= ceil((M - S) / BM): together ceil(M / BM) + G cover both
  const int64_t tilesY = (M + BM - 1) / BM + G;
  if (tilesY > 65535) return (int)cudaErrorInvalidValue;
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)tilesY);
  const int64_t* g = (const int64_t*)gl.data;
  const bool vec = K % 8 == 0 && N % 8 == 0;
  switch (x.dtype) {
    case KOPE_F32:
      gmm_f32<<<grid, 256, 0, s>>>((const float*)x.data, (const float*)w.data, (const float*)b.data, g, (float*)y.data, M,
                                   K, N, G, tilesY);
      break;
    case KOPE_F16:
      if (vec) gmm_wmma<__half, true><<<grid, 128, 0, s>>>((const __half*)x.data, (const __half*)w.data, (const __half*)b.data, g, (__half*)y.data, M, K, N, G, tilesY);
      else gmm_wmma<__half, false><<<grid, 128, 0, s>>>((const __half*)x.data, (const __half*)w.data, (const __half*)b.data, g, (__half*)y.data, M, K, N, G, tilesY);
      break;
    case KOPE_BF16:
      if (vec) gmm_wmma<__nv_bfloat16, true><<<grid, 128, 0, s>>>((const __nv_bfloat16*)x.data, (const __nv_bfloat16*)w.data, (const __nv_bfloat16*)b.data, g, (__nv_bfloat16*)y.data, M, K, N, G, tilesY);
      else gmm_wmma<__nv_bfloat16, false><<<grid, 128, 0, s>>>((const __nv_bfloat16*)x.data, (const __nv_bfloat16*)w.data, (const __nv_bfloat16*)b.data, g, (__nv_bfloat16*)y.data, M, K, N, G, tilesY);
      break;
    default: return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}
