// thought: four elements per thread: a float4 of x and a uchar4 of the mask per step where both are aligned, y = x * mask * scale as IEEE products (a dropped inf or NaN gives NaN, as ATen's), scalar tail
#include "kope_cuda.h"

// Blocks for a grid-stride loop over n items: enough to fill the GPU, never more than the items need.
static inline int grid_for(int64_t n, int threads) {
  const int64_t b = (n + threads - 1) / threads;
  return (int)(b < 1 ? 1 : b > 8192 ? 8192 : b);
}

__global__ void masked_scale_vec4(const float4* __restrict__ x, const uchar4* __restrict__ mask, float4* __restrict__ y,
                                  float scale, int64_t n4) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
    const float4 v = x[i];
    const uchar4 m = mask[i];
    y[i] = make_float4(v.x * (float)m.x * scale, v.y * (float)m.y * scale, v.z * (float)m.z * scale,
                       v.w * (float)m.w * scale);
  }
}

__global__ void masked_scale_tail(const float* __restrict__ x, const uint8_t* __restrict__ mask, float* __restrict__ y,
                                  float scale, int64_t from, int64_t n) {
  const int64_t i = from + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * (float)mask[i] * scale;
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const float* x = (const float*)a->inputs[0].data;
  const uint8_t* mask = (const uint8_t*)a->inputs[1].data;
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  if (n == 0) return 0;
  const float scale = (float)kope_attr_or(a, "scale", 1.0);
  const bool aligned = (((uintptr_t)x | (uintptr_t)y) & 15) == 0 && ((uintptr_t)mask & 3) == 0;
  const int64_t n4 = aligned ? n / 4 : 0;
  if (n4 > 0)
    masked_scale_vec4<<<grid_for(n4, 256), 256, 0, s>>>((const float4*)x, (const uchar4*)mask, (float4*)y, scale, n4);
  const int64_t rest = n - n4 * 4;
  if (rest > 0) masked_scale_tail<<<(int)((rest + 255) / 256), 256, 0, s>>>(x, mask, y, scale, n4 * 4, n);
  return (int)cudaGetLastError();
}
