// thought: spread each tensor over many blocks instead of one: phase one has blockIdx.y pick the tensor (16 per launch, pointers by value) and each block reduce its slice (float4 loads, short fp32 sums per thread, then a warp-shuffle and shared-memory tree in double) into a partial; phase two sums a tensor's partials in double and takes the root; NaN and inf propagate through the sums as torch's norm
#include "kope_cuda.h"

#define KOPE_PER_LAUNCH 16
#define KOPE_MAX_PARTS 1024

struct Lists {
  const float* x[KOPE_PER_LAUNCH];
  float* out[KOPE_PER_LAUNCH];
  int64_t n[KOPE_PER_LAUNCH];
};

__device__ double g_partial[KOPE_PER_LAUNCH][KOPE_MAX_PARTS];

__device__ __forceinline__ float term(float v, int mode, float p) {
  v = fabsf(v);
  return mode == 1 ? v : mode == 2 ? v * v : powf(v, p);
}

// Sum over the block of 256 threads; thread 0 gets the total.
__device__ double block_sum256(double v) {
  __shared__ double part[8];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  double t = 0.0;
  if (threadIdx.x == 0)
    for (int w = 0; w < 8; ++w) t += part[w];
  return t;
}

__global__ void partial_sums(Lists p, int mode, float ord) {
  const int l = blockIdx.y;
  const float* x = p.x[l];
  const int64_t n = p.n[l];
  const int64_t start = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t n4 = ((uintptr_t)x & 15) == 0 ? n / 4 : 0;
  float acc = 0.0f;  // at most a few dozen terms per thread: fp32 is exact enough, the tree is in double
  for (int64_t i = start; i < n4; i += stride) {
    const float4 v = ((const float4*)x)[i];
    acc += (term(v.x, mode, ord) + term(v.y, mode, ord)) + (term(v.z, mode, ord) + term(v.w, mode, ord));
  }
  for (int64_t i = n4 * 4 + start; i < n; i += stride) acc += term(x[i], mode, ord);
  const double t = block_sum256((double)acc);
  if (threadIdx.x == 0) g_partial[l][blockIdx.x] = t;
}

__global__ void finish(Lists p, int parts, int mode, double ord) {
  const int l = blockIdx.x;
  double t = 0.0;
  for (int i = threadIdx.x; i < parts; i += blockDim.x) t += g_partial[l][i];
  t = block_sum256(t);
  if (threadIdx.x == 0) p.out[l][0] = (float)(mode == 1 ? t : mode == 2 ? sqrt(t) : pow(t, 1.0 / ord));
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int L = a->n_outputs;
  const double ord = kope_attr_or(a, "ord", 2.0);
  const int mode = ord == 1.0 ? 1 : ord == 2.0 ? 2 : 0;
  for (int first = 0; first < L; first += KOPE_PER_LAUNCH) {
    const int count = L - first < KOPE_PER_LAUNCH ? L - first : KOPE_PER_LAUNCH;
    Lists p = {};
    int64_t most = 0;
    for (int k = 0; k < count; ++k) {
      p.x[k] = (const float*)a->inputs[first + k].data;
      p.out[k] = (float*)a->outputs[first + k].data;
      p.n[k] = a->inputs[first + k].numel;
      most = p.n[k] > most ? p.n[k] : most;
    }
    // About 16 elements per thread: 4M elements take the 1024 blocks, small tensors one block.
    int64_t parts = (most + 4095) / 4096;
    parts = parts < 1 ? 1 : parts > KOPE_MAX_PARTS ? KOPE_MAX_PARTS : parts;
    partial_sums<<<dim3((unsigned)parts, (unsigned)count), 256, 0, s>>>(p, mode, (float)ord);
    finish<<<count, 256, 0, s>>>(p, (int)parts, mode, ord);
  }
  return (int)cudaGetLastError();
}
