// thought: last-dim rows: a block per row (and, for few long rows, many blocks per row whose partial winners a second kernel merges), each thread keeps its first strict maximum over a strided slice (NaN beats everything, the first NaN wins), then warp shuffles and shared memory merge (value, index) pairs by the same rule with the smaller index on ties, so the first occurrence wins as in torch.argmax whatever the merge order; middle-dim: one thread per (a, b) column scanning r, consecutive threads on consecutive b (coalesced)
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

// Is (v, i) a better argmax candidate than (w, j)? NaN is the maximum; equal values go to the smaller index.
// An index of -1 is "nothing yet" and loses to anything.
__device__ __forceinline__ bool better(float v, int64_t i, float w, int64_t j) {
  if (j < 0) return i >= 0;
  if (i < 0) return false;
  const bool vn = v != v, wn = w != w;
  if (vn || wn) return vn && (!wn || i < j);
  return v > w || (v == w && i < j);
}

#define MAX_PARTIALS (1 << 16)
__device__ float g_part_v[MAX_PARTIALS];
__device__ int64_t g_part_i[MAX_PARTIALS];

// Rows in x, slices of `slice` elements of a row in y. With one slice per row the winner goes to out, else to the
// partials that argmax_merge reduces.
template <int DT>
__global__ void __launch_bounds__(1024)
    argmax_rows(const void* __restrict__ x, int64_t* __restrict__ out, int64_t A, int64_t R, int64_t slice) {
  __shared__ float sv[32];
  __shared__ int64_t si[32];
  const int64_t r0 = blockIdx.y * slice, r1 = r0 + slice < R ? r0 + slice : R;
  for (int64_t row = blockIdx.x; row < A; row += gridDim.x) {
    float best = 0.0f;
    int64_t at = -1;
    for (int64_t r = r0 + threadIdx.x; r < r1; r += blockDim.x) {  // increasing r: a strict compare keeps the first
      const float v = ld<DT>(x, row * R + r);
      if (better(v, r, best, at)) {
        best = v;
        at = r;
      }
    }
    for (int o = 16; o > 0; o >>= 1) {
      const float v = __shfl_xor_sync(0xffffffffu, best, o);
      const int64_t i = __shfl_xor_sync(0xffffffffu, at, o);
      if (better(v, i, best, at)) {
        best = v;
        at = i;
      }
    }
    if ((threadIdx.x & 31) == 0) {
      sv[threadIdx.x >> 5] = best;
      si[threadIdx.x >> 5] = at;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int w = 1; w < (int)(blockDim.x >> 5); ++w)
        if (better(sv[w], si[w], best, at)) {
          best = sv[w];
          at = si[w];
        }
      if (gridDim.y == 1) {
        out[row] = at < 0 ? 0 : at;
      } else {
        g_part_v[row * gridDim.y + blockIdx.y] = best;
        g_part_i[row * gridDim.y + blockIdx.y] = at;
      }
    }
    __syncthreads();  // sv and si are reused by the next row
  }
}

// One thread per row: the best of its slices' winners (the rule is order-free: ties go to the smaller index).
__global__ void argmax_merge(int64_t* __restrict__ out, int64_t A, int64_t parts) {
  const int64_t row = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (row >= A) return;
  float best = 0.0f;
  int64_t at = -1;
  for (int64_t p = 0; p < parts; ++p)
    if (better(g_part_v[row * parts + p], g_part_i[row * parts + p], best, at)) {
      best = g_part_v[row * parts + p];
      at = g_part_i[row * parts + p];
    }
  out[row] = at < 0 ? 0 : at;
}

template <int DT>
__global__ void argmax_mid(const void* __restrict__ x, int64_t* __restrict__ out, int64_t A, int64_t R, int64_t B) {
  for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < A * B; c += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = c / B, b = c - a * B;
    const void* col = x;
    float best = ld<DT>(col, a * R * B + b);
    int64_t at = 0;
    for (int64_t r = 1; r < R; ++r) {
      const float v = ld<DT>(col, (a * R + r) * B + b);
      if (better(v, r, best, at)) {
        best = v;
        at = r;
      }
    }
    out[c] = at;
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2];
  int64_t* out = (int64_t*)a->outputs[0].data;
  if (A * B == 0) return 0;
  if (R == 0) return (int)cudaMemsetAsync(out, 0, (size_t)(A * B) * sizeof(int64_t), s);
  if (B == 1) {
    const int threads = R >= 4096 ? 1024 : R >= 512 ? 256 : 128;
    // Fewer rows than the GPU has SMs: cut each row into slices of 32k elements so every SM works.
    int64_t parts = A < 128 ? (R + 32767) / 32768 : 1;
    parts = parts > 1024 ? 1024 : parts;
    if (parts > 1 && A * parts > MAX_PARTIALS) parts = MAX_PARTIALS / A;
    if (parts < 1) parts = 1;
    const int64_t slice = (R + parts - 1) / parts;
    argmax_rows<DT>
        <<<dim3((unsigned)(A < 65535 ? A : 65535), (unsigned)parts), threads, 0, s>>>(x.data, out, A, R, slice);
    if (parts > 1) argmax_merge<<<(unsigned)((A + 127) / 128), 128, 0, s>>>(out, A, parts);
  } else {
    const int64_t want = (A * B + 127) / 128;
    argmax_mid<DT><<<(int)(want < 65535 ? want : 65535), 128, 0, s>>>(x.data, out, A, R, B);
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
