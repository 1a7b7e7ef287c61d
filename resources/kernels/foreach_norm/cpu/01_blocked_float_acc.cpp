// thought: accumulate |x| or x*x in 16 fp32 lanes over blocks of 4096 elements (vectorised, short error chains) and add each block's sum into a double; other ord via powf
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"

template <int ORD>
static double block_sum(const float* __restrict x, int64_t n, float p) {
  double total = 0.0;
  const int64_t B = 4096;
  for (int64_t b = 0; b < n; b += B) {
    const int64_t e = b + B < n ? b + B : n;
    float acc[16] = {0};
    int64_t i = b;
    for (; i + 16 <= e; i += 16)
      for (int j = 0; j < 16; ++j) {
        const float v = fabsf(x[i + j]);
        acc[j] += ORD == 1 ? v : ORD == 2 ? v * v : powf(v, p);
      }
    float tail = 0.0f;
    for (; i < e; ++i) {
      const float v = fabsf(x[i]);
      tail += ORD == 1 ? v : ORD == 2 ? v * v : powf(v, p);
    }
    float s = tail;
    for (int j = 0; j < 16; ++j) s += acc[j];
    total += s;
  }
  return total;
}

int kope_kernel(const kope_args* a) {
  const int L = a->n_outputs;
  const double ord = kope_attr_or(a, "ord", 2.0);
  for (int l = 0; l < L; ++l) {
    const float* x = static_cast<const float*>(a->inputs[l].data);
    const int64_t n = a->inputs[l].numel;
    float* out = static_cast<float*>(a->outputs[l].data);
    if (ord == 1.0) out[0] = (float)block_sum<1>(x, n, 1.0f);
    else if (ord == 2.0) out[0] = (float)sqrt(block_sum<2>(x, n, 2.0f));
    else out[0] = (float)pow(block_sum<0>(x, n, (float)ord), 1.0 / ord);
  }
  return 0;
}
