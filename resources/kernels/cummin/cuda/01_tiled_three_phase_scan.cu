// thought: scan in parallel instead of one thread per row: the (value, index) running minimum is an associative combine (a NaN is taken and kept, otherwise x <= running min takes the later index, as ATen's CPU cummin), so each row is cut into 2048-element tiles; many rows get a block each that walks its tiles in order, few long rows are spread over many blocks: phase one reduces every tile on its own block, phase two turns each row's tile aggregates into prefixes, phase three rescans each tile behind its prefix (shared-memory staging for coalesced loads and stores, warp-shuffle scans); a middle dimension gets one thread per column
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element access by storage type, fixed at compile time: fp32, fp16, bf16 (stores round to nearest even).
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
#define KOPE_BY_DTYPE(dt, F, ...)                     \
  switch (dt) {                                       \
    case KOPE_F16: return F<KOPE_F16>(__VA_ARGS__);   \
    case KOPE_BF16: return F<KOPE_BF16>(__VA_ARGS__); \
    case KOPE_F32: return F<KOPE_F32>(__VA_ARGS__);   \
    default: return (int)cudaErrorInvalidValue;       \
  }

#define T 256
#define K 8
#define TILE (T * K)
#define MAX_TILES (1 << 18)

// Running-minimum state (value, index); index -1 is "nothing yet". l = combine(l, r): the state after scanning the
// elements of r behind those of l. A NaN is taken and kept; otherwise x <= min takes the later index (the latest tie
// wins).
__device__ __forceinline__ void comb(float& lv, int64_t& li, float rv, int64_t ri) {
  if (ri < 0) return;
  if (li < 0 || rv != rv || (lv == lv && rv <= lv)) {
    lv = rv;
    li = ri;
  }
}

// The same combine whatever the order of its arguments (the indices say which came later): for a tile's aggregate.
__device__ __forceinline__ void comb_any(float& lv, int64_t& li, float rv, int64_t ri) {
  if (ri < 0) return;
  const bool ln = lv != lv, rn = rv != rv;
  const bool later = ri > li;
  if (li < 0 || (rn && (!ln || later)) || (!ln && !rn && (rv < lv || (rv == lv && later)))) {
    lv = rv;
    li = ri;
  }
}

template <int DT> __host__ __device__ constexpr int64_t sizeof_dt() { return DT == KOPE_F32 ? 4 : 2; }

__device__ float g_tile_v[MAX_TILES];
__device__ int64_t g_tile_i[MAX_TILES];

// The aggregate of tile [t0, t0 + TILE) of a row; thread 0 gets it.
template <int DT> __device__ void tile_aggregate(const void* x, int64_t R, int64_t t0, float& v, int64_t& i) {
  __shared__ float wv[T / 32];
  __shared__ int64_t wi[T / 32];
  v = 0.0f;
  i = -1;
  for (int k = 0; k < K; ++k) {  // order-free combine over the whole tile, so the loads stay coalesced
    const int64_t g = t0 + k * T + threadIdx.x;
    if (g < R) comb_any(v, i, ld<DT>(x, g), g);
  }
  for (int o = 1; o < 32; o <<= 1) {
    const float ov = __shfl_down_sync(0xffffffffu, v, o);
    const int64_t oi = __shfl_down_sync(0xffffffffu, i, o);
    if (((threadIdx.x & 31) & (2 * o - 1)) == 0) comb_any(v, i, ov, oi);
  }
  if ((threadIdx.x & 31) == 0) {
    wv[threadIdx.x >> 5] = v;
    wi[threadIdx.x >> 5] = i;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < T / 32; ++w) comb_any(v, i, wv[w], wi[w]);
  __syncthreads();
}

// Scans tile [t0, t0 + TILE) of a row behind the state (cv, ci) held by thread 0, writes values and indices, and
// leaves thread 0 holding the state after the tile.
template <int DT>
__device__ void scan_tile(const void* x, void* values, int64_t* indices, int64_t R, int64_t t0, float& cv,
                          int64_t& ci) {
  __shared__ float sv[TILE];
  __shared__ int64_t si[TILE];
  __shared__ float wv[T / 32];
  __shared__ int64_t wi[T / 32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int k = 0; k < K; ++k) {  // coalesced load into shared memory
    const int64_t g = t0 + k * T + tid;
    if (g < R) sv[k * T + tid] = ld<DT>(x, g);
  }
  __syncthreads();
  float av = 0.0f;
  int64_t ai = -1;
  for (int k = 0; k < K; ++k) {  // each thread's own run of K consecutive elements
    const int64_t g = t0 + tid * K + k;
    if (g < R) comb(av, ai, sv[tid * K + k], g);
  }
  for (int o = 1; o < 32; o <<= 1) {  // inclusive scan across the warp: earlier lanes come first
    float ov = __shfl_up_sync(0xffffffffu, av, o);
    int64_t oi = __shfl_up_sync(0xffffffffu, ai, o);
    if (lane >= o) {
      comb(ov, oi, av, ai);
      av = ov;
      ai = oi;
    }
  }
  if (lane == 31) {
    wv[warp] = av;
    wi[warp] = ai;
  }
  float pv = __shfl_up_sync(0xffffffffu, av, 1);
  int64_t pi = __shfl_up_sync(0xffffffffu, ai, 1);
  if (lane == 0) pi = -1;
  __syncthreads();
  if (tid == 0) {  // the warps' exclusive prefixes, behind the incoming state
    float rv = cv;
    int64_t ri = ci;
    for (int w = 0; w < T / 32; ++w) {
      const float tv = wv[w];
      const int64_t ti = wi[w];
      wv[w] = rv;
      wi[w] = ri;
      comb(rv, ri, tv, ti);
    }
    cv = rv;
    ci = ri;
  }
  __syncthreads();
  float rv = wv[warp];
  int64_t ri = wi[warp];
  comb(rv, ri, pv, pi);
  for (int k = 0; k < K; ++k) {
    const int64_t g = t0 + tid * K + k;
    if (g < R) {
      comb(rv, ri, sv[tid * K + k], g);
      sv[tid * K + k] = rv;
      si[tid * K + k] = ri;
    }
  }
  __syncthreads();
  for (int k = 0; k < K; ++k) {  // coalesced store; a value is a copy of the element it names
    const int64_t g = t0 + k * T + tid;
    if (g < R) {
      st<DT>(values, g, sv[k * T + tid]);
      indices[g] = si[k * T + tid];
    }
  }
  __syncthreads();
}

// Phase 1 (many tiles per row): each block's tile aggregate.
template <int DT> __global__ void tile_summaries(const void* __restrict__ x, int64_t R, int64_t tiles) {
  const int64_t row = blockIdx.y;
  float v;
  int64_t i;
  tile_aggregate<DT>((const char*)x + row * R * sizeof_dt<DT>(), R, blockIdx.x * (int64_t)TILE, v, i);
  if (threadIdx.x == 0) {
    g_tile_v[row * tiles + blockIdx.x] = v;
    g_tile_i[row * tiles + blockIdx.x] = i;
  }
}

// Phase 2: per row, the tiles' exclusive prefixes, in place.
__global__ void tile_prefixes(int64_t A, int64_t tiles) {
  const int64_t row = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (row >= A) return;
  float rv = 0.0f;
  int64_t ri = -1;
  for (int64_t t = 0; t < tiles; ++t) {
    const float tv = g_tile_v[row * tiles + t];
    const int64_t ti = g_tile_i[row * tiles + t];
    g_tile_v[row * tiles + t] = rv;
    g_tile_i[row * tiles + t] = ri;
    comb(rv, ri, tv, ti);
  }
}

// Phase 3: every tile rescanned behind its prefix.
template <int DT>
__global__ void tile_scans(const void* __restrict__ x, void* __restrict__ values, int64_t* __restrict__ indices,
                           int64_t R, int64_t tiles) {
  const int64_t row = blockIdx.y, off = row * R;
  float cv = g_tile_v[row * tiles + blockIdx.x];
  int64_t ci = g_tile_i[row * tiles + blockIdx.x];
  scan_tile<DT>((const char*)x + off * sizeof_dt<DT>(), (char*)values + off * sizeof_dt<DT>(), indices + off, R,
                blockIdx.x * (int64_t)TILE, cv, ci);
}

// A block per row walks its tiles in order, carrying the state from one to the next.
template <int DT>
__global__ void row_scans(const void* __restrict__ x, void* __restrict__ values, int64_t* __restrict__ indices,
                          int64_t A, int64_t R) {
  for (int64_t row = blockIdx.x; row < A; row += gridDim.x) {
    float cv = 0.0f;
    int64_t ci = -1;
    const int64_t off = row * R;
    for (int64_t t0 = 0; t0 < R; t0 += TILE)
      scan_tile<DT>((const char*)x + off * sizeof_dt<DT>(), (char*)values + off * sizeof_dt<DT>(), indices + off, R, t0,
                    cv, ci);
  }
}

// A middle dimension: one thread per (a, b) column, consecutive threads on consecutive b (coalesced).
template <int DT>
__global__ void column_scans(const void* __restrict__ x, void* __restrict__ values, int64_t* __restrict__ indices,
                             int64_t A, int64_t R, int64_t B) {
  for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < A * B; c += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = c / B, b = c - a * B;
    float rv = 0.0f;
    int64_t ri = -1;
    for (int64_t r = 0; r < R; ++r) {
      const int64_t e = (a * R + r) * B + b;
      comb(rv, ri, ld<DT>(x, e), r);
      st<DT>(values, e, rv);
      indices[e] = ri;
    }
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2];
  void* values = a->outputs[0].data;
  int64_t* indices = (int64_t*)a->outputs[1].data;
  if (A * R * B == 0) return 0;
  if (B > 1) {
    const int64_t want = (A * B + 127) / 128;
    column_scans<DT><<<(int)(want < 65535 ? want : 65535), 128, 0, s>>>(x.data, values, indices, A, R, B);
  } else {
    const int64_t tiles = (R + TILE - 1) / TILE;
    // Enough rows to fill the GPU, or one tile per row: a block per row walks its tiles (one read of x). Few long
    // rows: the three phases, which read x twice but spread every row over many blocks.
    if (A < 256 && tiles > 1 && tiles <= 65535 && A * tiles <= MAX_TILES) {
      tile_summaries<DT><<<dim3((unsigned)tiles, (unsigned)A), T, 0, s>>>(x.data, R, tiles);
      tile_prefixes<<<(int)((A + 127) / 128), 128, 0, s>>>(A, tiles);
      tile_scans<DT><<<dim3((unsigned)tiles, (unsigned)A), T, 0, s>>>(x.data, values, indices, R, tiles);
    } else {
      row_scans<DT><<<(unsigned)(A < 65535 ? A : 65535), T, 0, s>>>(x.data, values, indices, A, R);
    }
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
