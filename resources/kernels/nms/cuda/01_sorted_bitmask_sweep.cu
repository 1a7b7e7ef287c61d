// thought: torchvision's CUDA NMS: CUB's stable radix sort orders the boxes by score (descending, lower index first among equal scores, -0 folded into 0), the boxes are gathered in that order with their corners normalised, one 64x64 tile per block writes a bit for every later box a box overlaps beyond the threshold, and one block sweeps the boxes in order, keeping a box whose bit is clear and OR-ing its row into the suppressed set
#include "kope_cuda.h"

#include <cub/cub.cuh>

#include <cstdint>

namespace {

constexpr int kTile = 64;

// An order-preserving unsigned key for a float (ascending); -0 is 0 (they tie).
__device__ inline uint32_t fkey(float f) {
  uint32_t u = __float_as_uint(f);
  if (u == 0x80000000u) u = 0;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void make_keys(const float* __restrict__ scores, uint32_t* keys, int32_t* pos, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    keys[i] = fkey(scores[i]);
    pos[i] = i;
  }
}

// Box k of the sorted order, as (x1, y1, x2, y2) with x1 <= x2, y1 <= y2, and its area.
__global__ void gather(const float* __restrict__ boxes, const int32_t* __restrict__ order, float4* sorted, float* area,
                       int n) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    const float* b = boxes + 4 * (int64_t)order[k];
    const float4 r = make_float4(fminf(b[0], b[2]), fminf(b[1], b[3]), fmaxf(b[0], b[2]), fmaxf(b[1], b[3]));
    sorted[k] = r;
    area[k] = (r.z - r.x) * (r.w - r.y);
  }
}

// mask[i * words + c] bit t: box i suppresses box c * 64 + t (a later box of the order). As the reference:
// inter / (area_i + area_j - inter) > threshold, so 0/0 (two zero-area boxes) is NaN and suppresses nothing.
__global__ void overlap_mask(const float4* __restrict__ sorted, const float* __restrict__ area, uint64_t* mask,
                             int n, int words, float thr) {
  const int row_tile = blockIdx.y, col_tile = blockIdx.x;
  if (col_tile < row_tile) return;  // only later boxes can be suppressed
  __shared__ float4 cb[kTile];
  __shared__ float ca[kTile];
  const int c0 = col_tile * kTile, cols = min(kTile, n - c0);
  if ((int)threadIdx.x < cols) {
    cb[threadIdx.x] = sorted[c0 + threadIdx.x];
    ca[threadIdx.x] = area[c0 + threadIdx.x];
  }
  __syncthreads();
  const int i = row_tile * kTile + threadIdx.x;
  if (i >= n) return;
  const float4 a = sorted[i];
  const float aa = area[i];
  uint64_t bits = 0;
  for (int t = (col_tile == row_tile ? threadIdx.x + 1 : 0); t < cols; ++t) {
    const float w = fmaxf(0.0f, fminf(a.z, cb[t].z) - fmaxf(a.x, cb[t].x));
    const float h = fmaxf(0.0f, fminf(a.w, cb[t].w) - fmaxf(a.y, cb[t].y));
    const float inter = w * h;
    if (__fdiv_rn(inter, aa + ca[t] - inter) > thr) bits |= 1ull << t;
  }
  mask[(int64_t)i * words + col_tile] = bits;
}

// One block: boxes in order; a box whose suppressed bit is clear is kept, and its row is OR-ed into the set.
__global__ void sweep(const uint64_t* __restrict__ mask, const int32_t* __restrict__ order, uint64_t* removed,
                      int64_t* keep, int64_t* num, int n, int words) {
  __shared__ int kept;
  __shared__ bool take;
  for (int w = threadIdx.x; w < words; w += blockDim.x) removed[w] = 0;
  if (threadIdx.x == 0) kept = 0;
  __syncthreads();
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0) {
      take = !((removed[i / kTile] >> (i % kTile)) & 1ull);
      if (take) keep[kept++] = order[i];
    }
    __syncthreads();
    if (take)
      for (int w = i / kTile + threadIdx.x; w < words; w += blockDim.x) removed[w] |= mask[(int64_t)i * words + w];
    __syncthreads();
  }
  for (int k = kept + threadIdx.x; k < n; k += blockDim.x) keep[k] = -1;
  if (threadIdx.x == 0) num[0] = kept;
}

inline size_t up256(size_t b) { return (b + 255) / 256 * 256; }

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const kope_tensor& boxes = a->inputs[0];
  const kope_tensor& scores = a->inputs[1];
  if (boxes.dtype != KOPE_F32 || scores.dtype != KOPE_F32 || a->outputs[0].dtype != KOPE_I64 ||
      a->outputs[1].dtype != KOPE_I64)
    return 1;
  const int64_t n64 = scores.numel;
  if (n64 > 65535 * (int64_t)kTile) return 1;  // the mask's grid has at most 65535 tiles a side
  const int n = (int)n64;
  int64_t* keep = (int64_t*)a->outputs[0].data;
  int64_t* num = (int64_t*)a->outputs[1].data;
  if (n == 0) {
    cudaMemsetAsync(num, 0, sizeof(int64_t), st);
    return (int)cudaGetLastError();
  }
  const float thr = (float)kope_attr_or(a, "iou_threshold", 0.5);
  const int words = (n + kTile - 1) / kTile;
  size_t sortBytes = 0;
  cub::DeviceRadixSort::SortPairsDescending(nullptr, sortBytes, (const uint32_t*)nullptr, (uint32_t*)nullptr,
                                            (const int32_t*)nullptr, (int32_t*)nullptr, n, 0, 32, st);
  const size_t kb = up256(n * sizeof(uint32_t)), ib = up256(n * sizeof(int32_t)), bb = up256(n * sizeof(float4)),
               ab = up256(n * sizeof(float)), mb = up256((size_t)n * words * sizeof(uint64_t)),
               rb = up256(words * sizeof(uint64_t)), tb = up256(sortBytes);
  char* ws = nullptr;
  if (cudaMallocAsync((void**)&ws, 2 * kb + 2 * ib + bb + ab + mb + rb + tb, st) != cudaSuccess)
    return (int)cudaGetLastError();
  char* p = ws;
  uint32_t* k0 = (uint32_t*)p; p += kb;
  uint32_t* k1 = (uint32_t*)p; p += kb;
  int32_t* p0 = (int32_t*)p; p += ib;
  int32_t* order = (int32_t*)p; p += ib;
  float4* sorted = (float4*)p; p += bb;
  float* area = (float*)p; p += ab;
  uint64_t* mask = (uint64_t*)p; p += mb;
  uint64_t* removed = (uint64_t*)p; p += rb;
  void* temp = p;
  const int g = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
  make_keys<<<g, 256, 0, st>>>((const float*)scores.data, k0, p0, n);
  cub::DeviceRadixSort::SortPairsDescending(temp, sortBytes, k0, k1, p0, order, n, 0, 32, st);  // stable
  gather<<<g, 256, 0, st>>>((const float*)boxes.data, order, sorted, area, n);
  overlap_mask<<<dim3(words, words), kTile, 0, st>>>(sorted, area, mask, n, words, thr);
  sweep<<<1, 256, 0, st>>>(mask, order, removed, keep, num, n, words);
  const int err = (int)cudaGetLastError();
  cudaFreeAsync(ws, st);
  return err;
}
