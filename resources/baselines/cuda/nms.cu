// CUDA baseline for nms: the reference's algorithm, parallel only where it is plainly so. Each box's place in the
// order (descending score, lower index first among equal scores, -0 equal to 0) is counted by one thread over
// all boxes; then one block walks the boxes in that order, and where a box is kept, its threads test it against
// every later box and mark those it overlaps beyond the threshold (IoU > threshold; 0/0 is NaN and marks none).
#include "kope_cuda.h"

#include <cstdint>

__global__ void rank_boxes(const float* __restrict__ s, int32_t* order, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int r = 0;
    for (int j = 0; j < n; ++j) r += s[j] > s[i] || (s[j] == s[i] && j < i);
    order[r] = i;
  }
}

__global__ void sweep(const float* __restrict__ boxes, const int32_t* __restrict__ order, char* suppressed,
                      int64_t* keep, int64_t* num, int n, float thr) {
  __shared__ int kept;
  __shared__ bool take;
  for (int k = threadIdx.x; k < n; k += blockDim.x) suppressed[k] = 0;
  if (threadIdx.x == 0) kept = 0;
  __syncthreads();
  for (int oi = 0; oi < n; ++oi) {
    const int i = order[oi];
    if (threadIdx.x == 0) {
      take = !suppressed[i];
      if (take) keep[kept++] = i;
    }
    __syncthreads();
    if (take) {
      const float* a = boxes + 4 * (int64_t)i;
      const float ax1 = fminf(a[0], a[2]), ax2 = fmaxf(a[0], a[2]), ay1 = fminf(a[1], a[3]), ay2 = fmaxf(a[1], a[3]);
      const float aa = (ax2 - ax1) * (ay2 - ay1);
      for (int oj = oi + 1 + threadIdx.x; oj < n; oj += blockDim.x) {
        const int j = order[oj];
        if (suppressed[j]) continue;
        const float* b = boxes + 4 * (int64_t)j;
        const float bx1 = fminf(b[0], b[2]), bx2 = fmaxf(b[0], b[2]), by1 = fminf(b[1], b[3]), by2 = fmaxf(b[1], b[3]);
        const float w = fmaxf(0.0f, fminf(ax2, bx2) - fmaxf(ax1, bx1));
        const float h = fmaxf(0.0f, fminf(ay2, by2) - fmaxf(ay1, by1));
        const float inter = w * h;
        if (__fdiv_rn(inter, aa + (bx2 - bx1) * (by2 - by1) - inter) > thr) suppressed[j] = 1;
      }
    }
    __syncthreads();
  }
  for (int k = kept + threadIdx.x; k < n; k += blockDim.x) keep[k] = -1;
  if (threadIdx.x == 0) num[0] = kept;
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const int n = (int)a->inputs[1].numel;
  int64_t* num = (int64_t*)a->outputs[1].data;
  if (n == 0) {
    cudaMemsetAsync(num, 0, sizeof(int64_t), st);
    return (int)cudaGetLastError();
  }
  const float thr = (float)kope_attr_or(a, "iou_threshold", 0.5);
  char* ws = nullptr;
  if (cudaMallocAsync((void**)&ws, (size_t)n * sizeof(int32_t) + n, st) != cudaSuccess) return (int)cudaGetLastError();
  int32_t* order = (int32_t*)ws;
  char* suppressed = ws + (size_t)n * sizeof(int32_t);
  rank_boxes<<<(n + 255) / 256, 256, 0, st>>>((const float*)a->inputs[1].data, order, n);
  sweep<<<1, 256, 0, st>>>((const float*)a->inputs[0].data, order, suppressed, (int64_t*)a->outputs[0].data, num, n, thr);
  const int err = (int)cudaGetLastError();
  cudaFreeAsync(ws, st);
  return err;
}
