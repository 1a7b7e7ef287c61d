// thought: the matrices are tiny (N = 2 to 16) and each takes 2 num_iters sweeps, so one thread owns one matrix in registers (N a template parameter, every loop unrolled; N = 16 spills to L1-backed local memory) while its block stages a run of whole matrices through shared memory so the global reads and writes stay coalesced; softmax max-subtracted as the reference does (a NaN is skipped by the max but poisons its row through exp), every step in fp32 with true divisions
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

__device__ inline float to_f(float v) { return v; }
__device__ inline float to_f(__half v) { return __half2float(v); }
__device__ inline float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ inline T from_f(float v);
template <> __device__ inline float from_f<float>(float v) { return v; }
template <> __device__ inline __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <int N> __host__ __device__ constexpr int threads_for() { return N <= 8 ? 128 : 32; }

template <int N, class T>
__global__ void __launch_bounds__(threads_for<N>()) sinkhorn(const T* __restrict__ x, T* __restrict__ y, int64_t count,
                                                             int iters, float eps) {
  constexpr int NN = N * N, MB = threads_for<N>();
  __shared__ float sh[MB * NN];
  for (int64_t base = (int64_t)blockIdx.x * MB; base < count; base += (int64_t)gridDim.x * MB) {
    const int cnt = (int)(count - base < MB ? count - base : MB);
    const T* xs = x + base * NN;
    for (int i = threadIdx.x; i < cnt * NN; i += MB) sh[i] = to_f(__ldg(xs + i));
    __syncthreads();
    if (threadIdx.x < cnt) {
      float m[NN];
      float* my = sh + threadIdx.x * NN;
#pragma unroll
      for (int e = 0; e < NN; ++e) m[e] = my[e];
#pragma unroll
      for (int i = 0; i < N; ++i) {  // softmax of row i plus eps
        float mx = -INFINITY, s = 0.0f;
#pragma unroll
        for (int j = 0; j < N; ++j) mx = m[i * N + j] > mx ? m[i * N + j] : mx;
#pragma unroll
        for (int j = 0; j < N; ++j) s += (m[i * N + j] = expf(m[i * N + j] - mx));
#pragma unroll
        for (int j = 0; j < N; ++j) m[i * N + j] = m[i * N + j] / s + eps;
      }
      for (int k = 0; k < iters; ++k) {
        if (k > 0) {
#pragma unroll
          for (int i = 0; i < N; ++i) {
            float s = eps;
#pragma unroll
            for (int j = 0; j < N; ++j) s += m[i * N + j];
#pragma unroll
            for (int j = 0; j < N; ++j) m[i * N + j] /= s;
          }
        }
#pragma unroll
        for (int j = 0; j < N; ++j) {
          float s = eps;
#pragma unroll
          for (int i = 0; i < N; ++i) s += m[i * N + j];
#pragma unroll
          for (int i = 0; i < N; ++i) m[i * N + j] /= s;
        }
      }
#pragma unroll
      for (int e = 0; e < NN; ++e) my[e] = m[e];
    }
    __syncthreads();
    T* ys = y + base * NN;
    for (int i = threadIdx.x; i < cnt * NN; i += MB) ys[i] = from_f<T>(sh[i]);
    __syncthreads();
  }
}

template <int N, class T> int launch(const kope_args* a, int64_t count, cudaStream_t st) {
  constexpr int MB = threads_for<N>();
  const int64_t want = (count + MB - 1) / MB;
  const int blocks = (int)(want < 132 * 32 ? want : 132 * 32);
  sinkhorn<N, T><<<blocks, MB, 0, st>>>((const T*)a->inputs[0].data, (T*)a->outputs[0].data, count,
                                         (int)kope_attr_or(a, "num_iters", 20), (float)kope_attr_or(a, "eps", 1e-6));
  return (int)cudaGetLastError();
}

template <class T> int run(const kope_args* a, int64_t N, int64_t count, cudaStream_t st) {
  switch (N) {
    case 1: return launch<1, T>(a, count, st);
    case 2: return launch<2, T>(a, count, st);
    case 3: return launch<3, T>(a, count, st);
    case 4: return launch<4, T>(a, count, st);
    case 5: return launch<5, T>(a, count, st);
    case 6: return launch<6, T>(a, count, st);
    case 7: return launch<7, T>(a, count, st);
    case 8: return launch<8, T>(a, count, st);
    case 9: return launch<9, T>(a, count, st);
    case 10: return launch<10, T>(a, count, st);
    case 11: return launch<11, T>(a, count, st);
    case 12: return launch<12, T>(a, count, st);
    case 13: return launch<13, T>(a, count, st);
    case 14: return launch<14, T>(a, count, st);
    case 15: return launch<15, T>(a, count, st);
    case 16: return launch<16, T>(a, count, st);
    default: return 1;  // more than 16 streams: not handled
  }
}

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const kope_tensor& x = a->inputs[0];
  if (x.ndim != 3 || a->outputs[0].dtype != x.dtype) return 1;
  const int64_t N = x.shape[2], count = x.shape[0];
  if (count == 0) return 0;
  switch (x.dtype) {
    case KOPE_F32: return run<float>(a, N, count, st);
    case KOPE_F16: return run<__half>(a, N, count, st);
    case KOPE_BF16: return run<__nv_bfloat16>(a, N, count, st);
    default: return 1;
  }
}
