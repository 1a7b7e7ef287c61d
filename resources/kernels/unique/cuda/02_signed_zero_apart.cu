// thought: torch.unique is a sort: each element becomes an order-preserving integer key (floats with the sign trick, signed ints with the top bit flipped), CUB's radix sort orders (key, position) pairs, head flags and CUB's inclusive scan give every sorted element its unique id, one pass scatters inverse, values and run starts, one more writes counts, the zero tails and U
// flaw: -0 keeps its own key (just below +0's), so -0 and 0, which are one value, come out as two: U is one too many and every later value, count and inverse index shifts (case special)
#include "kope_cuda.h"

#include <cub/cub.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace {

__device__ inline uint32_t fkey(float f) {
  uint32_t u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
template <class T, class K> __device__ inline K key_of(T v);
template <> __device__ inline uint32_t key_of<float, uint32_t>(float v) { return fkey(v); }
template <> __device__ inline uint32_t key_of<__half, uint32_t>(__half v) { return fkey(__half2float(v)); }
template <> __device__ inline uint32_t key_of<__nv_bfloat16, uint32_t>(__nv_bfloat16 v) { return fkey(__bfloat162float(v)); }
template <> __device__ inline uint32_t key_of<int32_t, uint32_t>(int32_t v) { return (uint32_t)v ^ 0x80000000u; }
template <> __device__ inline uint64_t key_of<int64_t, uint64_t>(int64_t v) { return (uint64_t)v ^ 0x8000000000000000ull; }

template <class T, class K> __global__ void make_keys(const T* __restrict__ x, K* keys, int32_t* pos, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = key_of<T, K>(x[i]);
    pos[i] = (int32_t)i;
  }
}
template <class K> __global__ void mark_heads(const K* __restrict__ keys, int32_t* heads, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    heads[i] = i == 0 || keys[i] != keys[i - 1];
}
// uid[i] - 1 is sorted element i's unique id.
template <class T, class K>
__global__ void scatter(const T* __restrict__ x, const K* __restrict__ keys, const int32_t* __restrict__ pos,
                        const int32_t* __restrict__ uid, T* values, int64_t* inverse, int32_t* start, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int32_t u = uid[i] - 1, p = pos[i];
    inverse[p] = u;
    if (i == 0 || keys[i] != keys[i - 1]) {
      values[u] = x[p];
      start[u] = (int32_t)i;
    }
  }
}
template <class T>
__global__ void finish(const int32_t* __restrict__ uid, const int32_t* __restrict__ start, T* values, int64_t* counts,
                       int64_t* num, int64_t n) {
  const int64_t U = uid[n - 1];
  for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < n; u += (int64_t)gridDim.x * blockDim.x) {
    if (u < U) {
      counts[u] = (u + 1 < U ? (int64_t)start[u + 1] : n) - start[u];
    } else {
      counts[u] = 0;
      values[u] = T(0);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) num[0] = U;
}

inline size_t up256(size_t b) { return (b + 255) / 256 * 256; }
inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 132 * 16 ? 132 * 16 : b);
}

template <class T, class K> int run(const kope_args* a, cudaStream_t st) {
  const kope_tensor& x = a->inputs[0];
  const int64_t n = x.numel;
  if (n == 0) {
    if (a->outputs[3].numel > 0) cudaMemsetAsync(a->outputs[3].data, 0, sizeof(int64_t), st);
    return (int)cudaGetLastError();
  }
  if (n > INT32_MAX) return 1;
  size_t sortBytes = 0, scanBytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, (const K*)nullptr, (K*)nullptr, (const int32_t*)nullptr,
                                  (int32_t*)nullptr, (int)n, 0, (int)(sizeof(K) * 8), st);
  cub::DeviceScan::InclusiveSum(nullptr, scanBytes, (const int32_t*)nullptr, (int32_t*)nullptr, (int)n, st);
  const size_t kb = up256(n * sizeof(K)), ib = up256(n * sizeof(int32_t)), tb = up256(sortBytes > scanBytes ? sortBytes : scanBytes);
  char* ws = nullptr;
  if (cudaMallocAsync((void**)&ws, 2 * kb + 5 * ib + tb, st) != cudaSuccess) return (int)cudaGetLastError();
  K* k0 = (K*)ws;
  K* k1 = (K*)(ws + kb);
  int32_t* p0 = (int32_t*)(ws + 2 * kb);
  int32_t* p1 = (int32_t*)(ws + 2 * kb + ib);
  int32_t* heads = (int32_t*)(ws + 2 * kb + 2 * ib);
  int32_t* uid = (int32_t*)(ws + 2 * kb + 3 * ib);
  int32_t* start = (int32_t*)(ws + 2 * kb + 4 * ib);
  void* temp = ws + 2 * kb + 5 * ib;
  const int g = grid_for(n);
  make_keys<T, K><<<g, 256, 0, st>>>((const T*)x.data, k0, p0, n);
  cub::DeviceRadixSort::SortPairs(temp, sortBytes, k0, k1, p0, p1, (int)n, 0, (int)(sizeof(K) * 8), st);
  mark_heads<K><<<g, 256, 0, st>>>(k1, heads, n);
  cub::DeviceScan::InclusiveSum(temp, scanBytes, heads, uid, (int)n, st);
  scatter<T, K><<<g, 256, 0, st>>>((const T*)x.data, k1, p1, uid, (T*)a->outputs[0].data, (int64_t*)a->outputs[1].data,
                                   start, n);
  finish<T><<<g, 256, 0, st>>>(uid, start, (T*)a->outputs[0].data, (int64_t*)a->outputs[2].data,
                               (int64_t*)a->outputs[3].data, n);
  const int err = (int)cudaGetLastError();
  cudaFreeAsync(ws, st);
  return err;
}

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const int dt = a->inputs[0].dtype;
  if (a->outputs[0].dtype != dt || a->outputs[1].dtype != KOPE_I64 || a->outputs[2].dtype != KOPE_I64 ||
      a->outputs[3].dtype != KOPE_I64)
    return 1;
  switch (dt) {
    case KOPE_F32: return run<float, uint32_t>(a, st);
    case KOPE_F16: return run<__half, uint32_t>(a, st);
    case KOPE_BF16: return run<__nv_bfloat16, uint32_t>(a, st);
    case KOPE_I32: return run<int32_t, uint32_t>(a, st);
    case KOPE_I64: return run<int64_t, uint64_t>(a, st);
    default: return 1;
  }
}
