// thought: the blocked fp32-lane reduction, with 2 threads each reducing half of every tensor once the list holds >= 256k elements; the two partial sums are added in double
// kope:cxxflags -O3 -march=native -fno-math-errno -pthread
#include "kope_kernel.h"
#include <thread>
#include <vector>

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

static double any_sum(const float* x, int64_t n, double ord) {
  if (ord == 1.0) return block_sum<1>(x, n, 1.0f);
  if (ord == 2.0) return block_sum<2>(x, n, 2.0f);
  return block_sum<0>(x, n, (float)ord);
}

/* part 0 reduces [0, half) of every tensor, part 1 reduces [half, n) */
static void reduce_part(const kope_args* a, double ord, int part, double* sums) {
  for (int l = 0; l < a->n_outputs; ++l) {
    const float* x = static_cast<const float*>(a->inputs[l].data);
    const int64_t n = a->inputs[l].numel;
    const int64_t half = (n / 2 + 4095) & ~(int64_t)4095;
    const int64_t b = part == 0 ? 0 : (half < n ? half : n);
    const int64_t e = part == 0 ? (half < n ? half : n) : n;
    sums[l] = any_sum(x + b, e - b, ord);
  }
}

static float finish(double s, double ord) {
  return (float)(ord == 1.0 ? s : ord == 2.0 ? sqrt(s) : pow(s, 1.0 / ord));
}

int kope_kernel(const kope_args* a) {
  const int L = a->n_outputs;
  const double ord = kope_attr_or(a, "ord", 2.0);
  int64_t total = 0;
  for (int l = 0; l < L; ++l) total += a->inputs[l].numel;
  if (total >= 262144) {
    try {
      std::vector<double> s0(L), s1(L);
      std::thread t(reduce_part, a, ord, 1, s1.data());
      reduce_part(a, ord, 0, s0.data());
      t.join();
      for (int l = 0; l < L; ++l) static_cast<float*>(a->outputs[l].data)[0] = finish(s0[l] + s1[l], ord);
      return 0;
    } catch (...) {
    }
  }
  for (int l = 0; l < L; ++l) {
    const float* x = static_cast<const float*>(a->inputs[l].data);
    static_cast<float*>(a->outputs[l].data)[0] = finish(any_sum(x, a->inputs[l].numel, ord), ord);
  }
  return 0;
}
