// thought: every (rank, expert) block is contiguous in the source and lands contiguous in the output, so the whole re-routing is R * E memcpys of count * H elements (plus the scales), located by one exclusive prefix sum over the rank-major counts; only the tail past the total is zero-filled
// kope:cxxflags -O3 -march=native
#include <cstring>
#include <vector>

#include "kope_kernel.h"

static size_t elem_size(int dtype) {
  switch (dtype) {
    case KOPE_F16:
    case KOPE_BF16: return 2;
    case KOPE_I8:
    case KOPE_U8: return 1;
    case KOPE_F64:
    case KOPE_I64: return 8;
    default: return 4;
  }
}

int kope_kernel(const kope_args* a) {
  const kope_tensor& tokens = a->inputs[0];
  const int64_t A = tokens.shape[0], H = tokens.shape[1];
  const int64_t R = a->inputs[1].shape[0], E = a->inputs[1].shape[1];
  const size_t row = (size_t)H * elem_size(tokens.dtype);
  const char* src = static_cast<const char*>(tokens.data);
  const float* scales = static_cast<const float*>(a->inputs[2].data);
  char* out = static_cast<char*>(a->outputs[0].data);
  float* out_scales = static_cast<float*>(a->outputs[1].data);
  int32_t* gidx = static_cast<int32_t*>(a->outputs[2].data);
  int64_t* num = static_cast<int64_t*>(a->outputs[3].data);
  std::vector<int64_t> start((size_t)(R * E)), count((size_t)(R * E));
  int64_t s = 0;
  for (int64_t i = 0; i < R * E; ++i) {
    count[i] = kope_load_int(&a->inputs[1], i);
    if (count[i] < 0) return 2;
    start[i] = s;
    s += count[i];
  }
  if (s > A) return 3;
  int64_t o = 0;
  for (int64_t e = 0; e < E; ++e) {
    int64_t total = 0;
    for (int64_t r = 0; r < R; ++r) {
      const int64_t c = count[r * E + e], from = start[r * E + e];
      if (c == 0) continue;
      memcpy(out + (size_t)o * row, src + (size_t)from * row, (size_t)c * row);
      memcpy(out_scales + o, scales + from, (size_t)c * sizeof(float));
      for (int64_t j = 0; j < c; ++j) gidx[o + j] = (int32_t)(from + j);
      o += c;
      total += c;
    }
    num[e] = total;
  }
  memset(out + (size_t)o * row, 0, (size_t)(A - o) * row);
  memset(out_scales + o, 0, (size_t)(A - o) * sizeof(float));
  for (int64_t i = o; i < A; ++i) gidx[i] = -1;
  return 0;
}
