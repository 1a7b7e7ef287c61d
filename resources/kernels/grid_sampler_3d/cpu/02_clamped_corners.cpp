// thought: clamp every corner index into the volume instead of testing it, so the 8 loads are unconditional and branch-free
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <math.h>

static inline int64_t clampi(int64_t v, int64_t n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

int kope_kernel(const kope_args* a) {
  const kope_tensor &in = a->inputs[0], &grid = a->inputs[1];
  const float* ip = static_cast<const float*>(in.data);
  const float* gp = static_cast<const float*>(grid.data);
  float* op = static_cast<float*>(a->outputs[0].data);
  const bool align = kope_attr_or(a, "align_corners", 0) != 0, border = kope_attr_or(a, "padding_mode", 0) == 1;
  const int64_t N = in.shape[0], C = in.shape[1], D = in.shape[2], H = in.shape[3], W = in.shape[4];
  const int64_t P = grid.shape[1] * grid.shape[2] * grid.shape[3], V = D * H * W;
  auto un = [&](double g, int64_t size) {
    double c = align ? (g + 1) / 2 * (double)(size - 1) : ((g + 1) * (double)size - 1) / 2;
    if (border) c = c < 0 ? 0 : (c > (double)(size - 1) ? (double)(size - 1) : c);
    return c;
  };
  for (int64_t n = 0; n < N; ++n)
    for (int64_t p = 0; p < P; ++p) {
      const float* g = gp + (n * P + p) * 3;
      const double ix = un(g[0], W), iy = un(g[1], H), iz = un(g[2], D);
      const int64_t x0 = (int64_t)floor(ix), y0 = (int64_t)floor(iy), z0 = (int64_t)floor(iz);
      const double fx = ix - (double)x0, fy = iy - (double)y0, fz = iz - (double)z0;
      for (int64_t c = 0; c < C; ++c) {
        const float* vol = ip + (n * C + c) * V;
        float acc = 0.0f;
        for (int k = 0; k < 8; ++k) {
          const int64_t xx = clampi(x0 + (k & 1), W), yy = clampi(y0 + ((k >> 1) & 1), H), zz = clampi(z0 + ((k >> 2) & 1), D);
          const double wk = ((k & 1) ? fx : 1 - fx) * (((k >> 1) & 1) ? fy : 1 - fy) * (((k >> 2) & 1) ? fz : 1 - fz);
          acc += (float)wk * vol[(zz * H + yy) * W + xx];
        }
        op[(n * C + c) * P + p] = acc;
      }
    }
  return 0;
}
