// thought: one thread per rotation pair (d, d + H) of a (b, s, head) row: it reads x1, x2 and the position's four cos/sin values once and writes both outputs, so nothing is read twice; consecutive threads take consecutive d (coalesced), q and k in one launch (blockIdx.y), fp32 math for fp16/bf16 storage
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

struct Rope {
  const void* x[2];
  void* o[2];
  int64_t rows[2];  // B * S * heads
  int64_t heads[2];
};

template <int DT>
__global__ void rope(Rope r, const void* __restrict__ cosv, const void* __restrict__ sinv, int64_t S, int64_t H) {
  const int t = blockIdx.y;
  const void* x = r.x[t];
  void* o = r.o[t];
  const int64_t pairs = r.rows[t] * H, heads = r.heads[t], D = 2 * H;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < pairs; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t row = i / H, d = i - row * H;
    const int64_t pos = (row / heads) % S;
    const int64_t e = row * D, cs = pos * D;
    const float x1 = ld<DT>(x, e + d), x2 = ld<DT>(x, e + H + d);
    // __fmul_rn keeps each product rounded on its own (no contraction), as the composite's IEEE steps
    st<DT>(o, e + d, __fmul_rn(x1, ld<DT>(cosv, cs + d)) - __fmul_rn(x2, ld<DT>(sinv, cs + d)));
    st<DT>(o, e + H + d, __fmul_rn(x2, ld<DT>(cosv, cs + H + d)) + __fmul_rn(x1, ld<DT>(sinv, cs + H + d)));
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &q = a->inputs[0], &k = a->inputs[1];
  const int64_t S = q.shape[1], H = q.shape[3] / 2;
  Rope r;
  r.x[0] = q.data;
  r.x[1] = k.data;
  r.o[0] = a->outputs[0].data;
  r.o[1] = a->outputs[1].data;
  r.heads[0] = q.shape[2];
  r.heads[1] = k.shape[2];
  r.rows[0] = q.shape[0] * S * q.shape[2];
  r.rows[1] = k.shape[0] * S * k.shape[2];
  const int64_t most = (r.rows[0] > r.rows[1] ? r.rows[0] : r.rows[1]) * H;
  if (most == 0) return 0;
  const int64_t want = (most + 255) / 256;
  rope<DT>
      <<<dim3((unsigned)(want < 4096 ? want : 4096), 2), 256, 0, s>>>(r, a->inputs[2].data, a->inputs[3].data, S, H);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
