// thought: a row's scale needs max |act| over all H columns, which one tile does not see: so the exact int8 tensor-core tiles (WMMA s8, int32 accumulators, 64 rows x 32 gate + the matching 32 up columns of one group, all groups' tiles in one grid dimension) run twice: pass 0 takes the fp32 SwiGLU of its tile (the reference's steps: (float)mm * x_scale * w_scale, e = e^-l from a double exp rounded to fp32, l / (1 + e) * r) and folds |act| into the row's maximum with an integer atomicMax on y_scale (used as scratch: non-negative floats order as their bits), pass 1 recomputes the same values and writes rint(act / (max / 127)) with a true division; a last small kernel turns the maxima into the scales, and spare tiles zero the rows past the counts' sum
#include "kope_cuda.h"

#include <math.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

constexpr int BM = 64, BH = 32, BK = 64, LC = 2 * BH + 4;

struct Tile {
  int g;
  int64_t row, rows, S, z;
};
__device__ Tile find_tile(const int64_t* __restrict__ groups, int E, int64_t t) {
  int64_t start = 0;
  for (int g = 0; g < E; ++g) {
    const int64_t c = groups[g], n = (c + BM - 1) / BM;
    if (t < n) return Tile{g, start + t * BM, c - t * BM < BM ? c - t * BM : BM, 0, 0};
    t -= n;
    start += c;
  }
  return Tile{-1, 0, -1, start, t};
}

// PASS 0: row maxima of |act| into amax (int bits); PASS 1: y from act and the maxima.
template <int PASS, bool VEC>
__global__ void __launch_bounds__(128) gmm_swiglu(const int8_t* __restrict__ x, const int8_t* __restrict__ w,
                                                  const float* __restrict__ ws, const float* __restrict__ xs,
                                                  const int64_t* __restrict__ groups, int8_t* __restrict__ y,
                                                  int* __restrict__ amax, int64_t M, int64_t K, int64_t H, int E,
                                                  int64_t tilesY) {
  __shared__ __align__(128) int8_t As[BK / 16][BM][32];
  __shared__ __align__(128) int8_t Bs[4][BK][32];  // slices 0, 1: gate columns; 2, 3: the up columns H + ...
  __shared__ __align__(128) int32_t Cs[BM * LC];
  __shared__ int rowmax[BM];
  const int64_t N = 2 * H, n0 = (int64_t)blockIdx.x * BH;
  const Tile tl = find_tile(groups, E, blockIdx.y);
  if (tl.rows < 0) {  // a spare tile: rows S.. of y are 0 (pass 1; y_scale's come from the maxima left at 0)
    if (PASS == 1) {
      int64_t used = 0;
      for (int g = 0; g < E; ++g) used += (groups[g] + BM - 1) / BM;
      for (int64_t r0 = tl.S + tl.z * BM; r0 < M; r0 += (tilesY - used) * BM)
        for (int i = threadIdx.x; i < BM * BH; i += blockDim.x) {
          const int64_t r = r0 + i / BH, n = n0 + i % BH;
          if (r < M && n < H) y[r * H + n] = 0;
        }
    }
    return;
  }
  const int8_t* wg = w + (int64_t)tl.g * K * N;
  const int warp = threadIdx.x >> 5, wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0);
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int v = threadIdx.x; v < BM * (BK / 16); v += blockDim.x) {
      const int r = v / (BK / 16), kc = v % (BK / 16);
      const int64_t m = tl.row + r, k = k0 + kc * 16;
      const bool rin = r < tl.rows;
      if (VEC) {
        uint4 u = make_uint4(0, 0, 0, 0);
        if (rin && k < K) u = *(const uint4*)(x + m * K + k);
        *(uint4*)&As[kc][r][0] = u;
      } else {
        for (int j = 0; j < 16; ++j) As[kc][r][j] = rin && k + j < K ? x[m * K + k + j] : (int8_t)0;
      }
    }
    for (int v = threadIdx.x; v < BK * 4; v += blockDim.x) {
      const int kr = v / 4, c = v % 4;
      const int64_t k = k0 + kr, n = n0 + (c & 1) * 16, col = (c >> 1) * H + n;  // gate or up column
      if (VEC) {
        uint4 u = make_uint4(0, 0, 0, 0);
        if (k < K && n < H) u = *(const uint4*)(wg + k * N + col);
        *(uint4*)&Bs[c][kr][0] = u;
      } else {
        for (int j = 0; j < 16; ++j) Bs[c][kr][j] = k < K && n + j < H ? wg[k * N + col + j] : (int8_t)0;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kc = 0; kc < BK / 16; ++kc) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], (const signed char*)&As[kc][wm + i * 16][0], 32);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], (const signed char*)&Bs[(wn >> 4) + j][kc * 16][0], 32);
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
  if (PASS == 0)
    for (int r = threadIdx.x; r < BM; r += blockDim.x) rowmax[r] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < BM * BH; i += blockDim.x) {
    const int r = i / BH, c = i % BH;
    const int64_t m = tl.row + r, n = n0 + c;
    if (r >= tl.rows || n >= H) continue;
    const float xsm = xs[m];
    const float l = (float)Cs[r * LC + c] * xsm * ws[(int64_t)tl.g * N + n];
    const float rr = (float)Cs[r * LC + BH + c] * xsm * ws[(int64_t)tl.g * N + H + n];
    const float e = (float)exp(-(double)l);  // e^-l correctly rounded to fp32 (but for double rounding)
    const float act = l / (1.0f + e) * rr;
    if (PASS == 0) {
      atomicMax(&rowmax[r], __float_as_int(fabsf(act)));
    } else {
      const float scale = __int_as_float(amax[m]) / 127.0f;
      const float q = scale == 0.0f ? 0.0f : rintf(act / scale);
      y[m * H + n] = (int8_t)(int)fminf(fmaxf(q, -127.0f), 127.0f);
    }
  }
  if (PASS == 0) {
    __syncthreads();
    for (int r = threadIdx.x; r < tl.rows; r += blockDim.x) atomicMax(&amax[tl.row + r], rowmax[r]);
  }
}

__global__ void scales_from_max(float* __restrict__ ys, int64_t M) {
  for (int64_t m = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; m < M; m += (int64_t)gridDim.x * blockDim.x)
    ys[m] = __int_as_float(((const int*)ys)[m]) / 127.0f;
}

template <bool VEC> static void passes(const kope_args* a, cudaStream_t s, dim3 grid, int64_t M, int64_t K, int64_t H, int E,
                                       int64_t tilesY) {
  const int8_t *x = (const int8_t*)a->inputs[0].data, *w = (const int8_t*)a->inputs[1].data;
  const float *ws = (const float*)a->inputs[2].data, *xs = (const float*)a->inputs[3].data;
  const int64_t* g = (const int64_t*)a->inputs[4].data;
  int8_t* y = (int8_t*)a->outputs[0].data;
  int* amax = (int*)a->outputs[1].data;
  gmm_swiglu<0, VEC><<<grid, 128, 0, s>>>(x, w, ws, xs, g, y, amax, M, K, H, E, tilesY);
  gmm_swiglu<1, VEC><<<grid, 128, 0, s>>>(x, w, ws, xs, g, y, amax, M, K, H, E, tilesY);
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &w = a->inputs[1];
  if (x.dtype != KOPE_I8 || w.dtype != KOPE_I8 || a->inputs[2].dtype != KOPE_F32 || a->inputs[3].dtype != KOPE_F32 ||
      a->inputs[4].dtype != KOPE_I64 || a->outputs[0].dtype != KOPE_I8 || a->outputs[1].dtype != KOPE_F32 ||
      w.shape[2] % 2 != 0)
    return (int)cudaErrorInvalidValue;
  const int64_t M = x.shape[0], K = x.shape[1], H = w.shape[2] / 2;
  const int E = (int)w.shape[0];
  if (M == 0) return 0;
  float* ys = (float*)a->outputs[1].data;
  cudaError_t err = cudaMemsetAsync(ys, 0, (size_t)M * sizeof(float), s);  // the row maxima start at +0
  if (err != cudaSuccess) return (int)err;
  if (H > 0) {
    // group tiles <= floor(S / BM) + E, spare tiles >= ceil((M - S) / BM): ceil(M / BM) + E cover both
    const int64_t tilesY = (M + BM - 1) / BM + E;
    if (tilesY > 65535) return (int)cudaErrorInvalidValue;
    const dim3 grid((unsigned)((H + BH - 1) / BH), (unsigned)tilesY);
    if (K % 16 == 0 && H % 16 == 0) passes<true>(a, s, grid, M, K, H, E, tilesY);
    else passes<false>(a, s, grid, M, K, H, E, tilesY);
  }
  const int64_t b = (M + 255) / 256;
  scales_from_max<<<(unsigned)(b < 1024 ? b : 1024), 256, 0, s>>>(ys, M);
  return (int)cudaGetLastError();
}
