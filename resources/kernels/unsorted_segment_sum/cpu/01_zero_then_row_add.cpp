// thought: zero the output with memset, then add each data row into its segment's row with a vectorised loop; ids typed at compile time, negative ids skipped
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

template <class I> static int run(const kope_args* a) {
  const float* data = static_cast<const float*>(a->inputs[0].data);
  const I* ids = static_cast<const I*>(a->inputs[1].data);
  float* out = static_cast<float*>(a->outputs[0].data);
  const int64_t N = a->inputs[0].shape[0], D = a->inputs[0].shape[1], S = a->outputs[0].shape[0];
  memset(out, 0, (size_t)(S * D) * sizeof(float));
  if (D == 1) {
    for (int64_t n = 0; n < N; ++n)
      if (ids[n] >= 0) out[ids[n]] += data[n];
    return 0;
  }
  for (int64_t n = 0; n < N; ++n) {
    const int64_t s = ids[n];
    if (s < 0) continue;
    float* __restrict o = out + s * D;
    const float* __restrict d = data + n * D;
    for (int64_t k = 0; k < D; ++k) o[k] += d[k];
  }
  return 0;
}

int kope_kernel(const kope_args* a) { return a->inputs[1].dtype == KOPE_I64 ? run<int64_t>(a) : run<int32_t>(a); }
