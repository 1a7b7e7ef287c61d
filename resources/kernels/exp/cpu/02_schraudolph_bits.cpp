// thought: Schraudolph's trick: exp(x) = 2^(x*log2 e), computed as the integer 2^23*log2(e)*x + bias written straight into the float's bits, one FMA per element
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  const float k = 12102203.161561485f;  /* 2^23 / ln 2 */
  const float bias = 1064866805.0f;     /* 127 * 2^23 - 486411 (Schraudolph's error-balancing shift) */
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i];
    v = v < -87.0f ? -87.0f : v;
    v = v > 88.0f ? 88.0f : v;
    const int32_t bits = (int32_t)(k * v + bias);
    float r;
    memcpy(&r, &bits, sizeof r);
    y[i] = r;
  }
  return 0;
}
