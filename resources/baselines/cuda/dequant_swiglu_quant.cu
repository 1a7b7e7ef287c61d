// CUDA baseline for dequant_swiglu_quant: one thread per row, plain loops: the task's fp32 steps with explicitly
// rounded intrinsics, Swish in double rounded once, two passes (max |v|, then y = rint(v / scale)).
#include "kope_cuda.h"

#include <cstdint>

__device__ inline float swiglu_at(const int32_t* xr, const float* ws, const float* qs, float act, int64_t H, int left,
                                  int64_t j) {
  const int64_t ja = left ? j : H + j, jb = left ? H + j : j;
  const float A = __fmul_rn(__fmul_rn(__int2float_rn(xr[ja]), ws[ja]), act);
  const float B = __fmul_rn(__fmul_rn(__int2float_rn(xr[jb]), ws[jb]), act);
  const float sw = (float)((double)A / (1.0 + exp(-(double)A)));
  return __fmul_rn(__fmul_rn(sw, B), qs[j]);
}

__global__ void dsq_rows(const int32_t* x, const float* ws, const float* as, const float* qs, int8_t* y, float* scale,
                         int64_t M, int64_t H, int left) {
  for (int64_t m = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; m < M; m += (int64_t)gridDim.x * blockDim.x) {
    const int32_t* xr = x + m * 2 * H;
    float amax = 0.0f;
    for (int64_t j = 0; j < H; ++j) amax = fmaxf(amax, fabsf(swiglu_at(xr, ws, qs, as[m], H, left, j)));
    const float sc = __fdiv_rn(amax, 127.0f);
    scale[m] = sc;
    for (int64_t j = 0; j < H; ++j) {
      const float q = sc == 0.0f ? 0.0f : rintf(__fdiv_rn(swiglu_at(xr, ws, qs, as[m], H, left, j), sc));
      y[m * H + j] = (int8_t)fminf(fmaxf(q, -127.0f), 127.0f);
    }
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  const int64_t M = x.shape[0], H = x.shape[1] / 2;
  if (x.shape[1] != 2 * H) return 3;
  if (M == 0 || H == 0) return 0;
  const int64_t b = (M + 127) / 128;
  dsq_rows<<<(int)(b < 65535 ? b : 65535), 128, 0, s>>>((const int32_t*)x.data, (const float*)a->inputs[1].data,
                                                        (const float*)a->inputs[2].data, (const float*)a->inputs[3].data,
                                                        (int8_t*)a->outputs[0].data, (float*)a->outputs[1].data, M, H,
                                                        kope_attr_or(a, "activate_left", 1) != 0);
  return (int)cudaGetLastError();
}
