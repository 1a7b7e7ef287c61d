// CUDA baseline for unique: one thread per element and plain loops over the whole input (quadratic work, no sort):
// first[i] = no earlier element equals x[i]; inverse[i] = how many first elements are smaller than x[i]; a first
// element writes its value and its count (how many elements equal it) at that position; then the zero tails and U.
// Values compare as doubles (exact for every dtype), so -0 equals 0.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

__device__ inline double ld(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case KOPE_I32: return static_cast<const int32_t*>(p)[i];
    case KOPE_I64: return (double)static_cast<const int64_t*>(p)[i];
    default: return static_cast<const float*>(p)[i];
  }
}
// int64 keys beyond 2^53 would collide as doubles: compare them as integers.
__device__ inline int cmp(const void* p, int dt, int64_t i, int64_t j) {
  if (dt == KOPE_I64) {
    const int64_t a = static_cast<const int64_t*>(p)[i], b = static_cast<const int64_t*>(p)[j];
    return a < b ? -1 : a > b;
  }
  const double a = ld(p, dt, i), b = ld(p, dt, j);
  return a < b ? -1 : a > b;
}
__device__ inline void copy_elem(void* dst, const void* src, int dt, int64_t d, int64_t s) {
  switch (dt) {
    case KOPE_F16: case KOPE_BF16: static_cast<uint16_t*>(dst)[d] = static_cast<const uint16_t*>(src)[s]; break;
    case KOPE_I64: static_cast<int64_t*>(dst)[d] = static_cast<const int64_t*>(src)[s]; break;
    default: static_cast<uint32_t*>(dst)[d] = static_cast<const uint32_t*>(src)[s]; break;
  }
}

// flag[i] = 1 where no earlier element equals x[i].
__global__ void firsts(kope_tensor x, int32_t* flag, unsigned long long* U) {
  const int64_t n = x.numel;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int32_t f = 1;
    for (int64_t j = 0; j < i && f; ++j) f = cmp(x.data, x.dtype, j, i) != 0;
    flag[i] = f;
    if (f) atomicAdd(U, 1ull);
  }
}
__global__ void ranks(kope_tensor x, const int32_t* flag, kope_tensor values, int64_t* inverse, int64_t* counts) {
  const int64_t n = x.numel;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t below = 0, same = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int c = cmp(x.data, x.dtype, j, i);
      below += c < 0 && flag[j];
      same += c == 0;
    }
    inverse[i] = below;
    if (flag[i]) {
      copy_elem(values.data, x.data, x.dtype, below, i);
      counts[below] = same;
    }
  }
}
__global__ void tails(kope_tensor values, int64_t* counts, int64_t* num, const unsigned long long* U) {
  const int64_t n = values.numel, u0 = (int64_t)*U;
  const int es = values.dtype == KOPE_I64 ? 8 : (values.dtype == KOPE_F16 || values.dtype == KOPE_BF16) ? 2 : 4;
  for (int64_t u = u0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < n; u += (int64_t)gridDim.x * blockDim.x) {
    counts[u] = 0;
    for (int b = 0; b < es; ++b) static_cast<uint8_t*>(values.data)[u * es + b] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) num[0] = u0;
}

static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t n = x.numel;
  // Scratch: the first-flags and U, in the stream's own allocation.
  char* ws = nullptr;
  if (cudaMallocAsync((void**)&ws, 256 + (size_t)(n > 0 ? n : 1) * sizeof(int32_t), s) != cudaSuccess)
    return (int)cudaGetLastError();
  unsigned long long* U = (unsigned long long*)ws;
  int32_t* flag = (int32_t*)(ws + 256);
  cudaMemsetAsync(U, 0, sizeof(unsigned long long), s);
  if (n > 0) {
    firsts<<<grid_for(n), 256, 0, s>>>(x, flag, U);
    ranks<<<grid_for(n), 256, 0, s>>>(x, flag, a->outputs[0], (int64_t*)a->outputs[1].data, (int64_t*)a->outputs[2].data);
  }
  tails<<<grid_for(n), 256, 0, s>>>(a->outputs[0], (int64_t*)a->outputs[2].data, (int64_t*)a->outputs[3].data, U);
  const int err = (int)cudaGetLastError();
  cudaFreeAsync(ws, s);
  return err;
}
