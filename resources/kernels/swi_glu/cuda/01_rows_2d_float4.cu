// thought: a 2-D grid (rows in y, the H columns in x) so no thread divides by H; float4 loads of both halves and float4 stores where H % 4 == 0 and the buffers are aligned, scalar otherwise; silu(a) = a / (1 + expf(-a)) formed before the product with b, as ATen's (a / inf = -0, -inf / inf = NaN)
#include "kope_cuda.h"

__device__ __forceinline__ float swiglu(float a, float b) {
  const float s = a / (1.0f + expf(-a));
  return s * b;
}

__global__ void swi_glu_vec4(const float4* __restrict__ x, float4* __restrict__ y, int64_t M, int64_t H4) {
  for (int64_t m = blockIdx.y; m < M; m += gridDim.y)
    for (int64_t h = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; h < H4; h += (int64_t)gridDim.x * blockDim.x) {
      const float4 a = x[m * 2 * H4 + h], b = x[m * 2 * H4 + H4 + h];
      y[m * H4 + h] = make_float4(swiglu(a.x, b.x), swiglu(a.y, b.y), swiglu(a.z, b.z), swiglu(a.w, b.w));
    }
}

__global__ void swi_glu_scalar(const float* __restrict__ x, float* __restrict__ y, int64_t M, int64_t H) {
  for (int64_t m = blockIdx.y; m < M; m += gridDim.y)
    for (int64_t h = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; h < H; h += (int64_t)gridDim.x * blockDim.x)
      y[m * H + h] = swiglu(x[m * 2 * H + h], x[m * 2 * H + H + h]);
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->outputs[0].shape[0], H = a->outputs[0].shape[1];
  if (M * H == 0) return 0;
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const bool vec = H % 4 == 0 && (((uintptr_t)x | (uintptr_t)y) & 15) == 0;
  const int64_t cols = vec ? H / 4 : H;
  const int threads = cols >= 256 ? 256 : (int)((cols + 31) / 32 * 32);
  const int64_t bx = (cols + threads - 1) / threads;
  const dim3 grid((unsigned)(bx < 1024 ? bx : 1024), (unsigned)(M < 65535 ? M : 65535));
  if (vec) swi_glu_vec4<<<grid, threads, 0, s>>>((const float4*)x, (float4*)y, M, H / 4);
  else swi_glu_scalar<<<grid, threads, 0, s>>>(x, y, M, H);
  return (int)cudaGetLastError();
}
