// CUDA baseline for moe_re_routing: one thread per output row: walk the (expert, rank) blocks in output order,
// summing the counts for the rank-major source start, copy the row element by element (its bits), its scale and
// index; rows past the counts' sum are 0 (index -1); thread e also writes expert_token_num[e].
#include "kope_cuda.h"

#include <stdint.h>

__global__ void reroute_rows(kope_tensor tokens, const int32_t* counts, const uint32_t* scales, void* out,
                             uint32_t* out_scales, int32_t* gidx, int64_t* num, int R, int E) {
  const int64_t A = tokens.shape[0], H = tokens.shape[1];
  const int esize = tokens.dtype == KOPE_F32 ? 4 : tokens.dtype == KOPE_I8 ? 1 : 2;
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < A; o += (int64_t)gridDim.x * blockDim.x) {
    if (o < E) {
      int64_t v = 0;
      for (int r = 0; r < R; ++r) v += counts[r * E + (int)o];
      num[o] = v;
    }
    int64_t from = -1, dst = 0;
    for (int e = 0; e < E && from < 0; ++e)
      for (int r = 0; r < R && from < 0; ++r) {
        const int64_t c = counts[r * E + e];
        if (o < dst + c) {
          int64_t src = 0;
          for (int i = 0; i < r * E + e; ++i) src += counts[i];
          from = src + (o - dst);
        }
        dst += c;
      }
    for (int64_t h = 0; h < H; ++h) {
      if (esize == 4) ((uint32_t*)out)[o * H + h] = from < 0 ? 0u : ((const uint32_t*)tokens.data)[from * H + h];
      else if (esize == 2) ((uint16_t*)out)[o * H + h] = from < 0 ? 0 : ((const uint16_t*)tokens.data)[from * H + h];
      else ((uint8_t*)out)[o * H + h] = from < 0 ? 0 : ((const uint8_t*)tokens.data)[from * H + h];
    }
    out_scales[o] = from < 0 ? 0u : scales[from];
    gidx[o] = (int32_t)from;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor& t = a->inputs[0];
  const int R = (int)a->inputs[1].shape[0], E = (int)a->inputs[1].shape[1];
  const int64_t A = t.shape[0];
  if (A < E) return (int)cudaErrorInvalidValue;  // A = R * E * C >= E
  if (A == 0) return 0;
  const int64_t b = (A + 255) / 256;
  reroute_rows<<<(int)(b > 65535 ? 65535 : b), 256, 0, s>>>(t, (const int32_t*)a->inputs[1].data,
                                                           (const uint32_t*)a->inputs[2].data, a->outputs[0].data,
                                                           (uint32_t*)a->outputs[1].data, (int32_t*)a->outputs[2].data,
                                                           (int64_t*)a->outputs[3].data, R, E);
  return (int)cudaGetLastError();
}
