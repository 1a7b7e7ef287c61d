// thought: per output point compute the coordinates and the 8 trilinear weights once (in double: points just outside the volume have weights near 0 that fp32 coordinates lose), fold out-of-volume corners into zero weights on a zero of their own (never a voxel, whose NaN would leak in), then run the channel loop over precomputed offsets
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <math.h>

static inline double unnormalize(double g, int64_t size, bool align, bool border) {
  double c = align ? (g + 1) / 2 * (double)(size - 1) : ((g + 1) * (double)size - 1) / 2;
  if (border) c = c < 0 ? 0 : (c > (double)(size - 1) ? (double)(size - 1) : c);
  return c;
}

int kope_kernel(const kope_args* a) {
  const kope_tensor &in = a->inputs[0], &grid = a->inputs[1];
  const float* ip = static_cast<const float*>(in.data);
  const float* gp = static_cast<const float*>(grid.data);
  float* op = static_cast<float*>(a->outputs[0].data);
  const bool align = kope_attr_or(a, "align_corners", 0) != 0, border = kope_attr_or(a, "padding_mode", 0) == 1;
  const int64_t N = in.shape[0], C = in.shape[1], D = in.shape[2], H = in.shape[3], W = in.shape[4];
  const int64_t P = grid.shape[1] * grid.shape[2] * grid.shape[3], V = D * H * W;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t p = 0; p < P; ++p) {
      const float* g = gp + (n * P + p) * 3;
      const double ix = unnormalize(g[0], W, align, border), iy = unnormalize(g[1], H, align, border);
      const double iz = unnormalize(g[2], D, align, border);
      const int64_t x0 = (int64_t)floor(ix), y0 = (int64_t)floor(iy), z0 = (int64_t)floor(iz);
      const double fx = ix - (double)x0, fy = iy - (double)y0, fz = iz - (double)z0;
      // A corner outside the volume reads a zero of its own (stride 0 across channels), never a voxel: a NaN or
      // an infinity there must not leak in through a zero weight.
      static const float kZero = 0.0f;
      const float* base = ip + n * C * V;
      const float* tap[8];
      int64_t stride[8];
      float w[8];
      for (int k = 0; k < 8; ++k) {
        const int64_t xx = x0 + (k & 1), yy = y0 + ((k >> 1) & 1), zz = z0 + ((k >> 2) & 1);
        const bool inside = xx >= 0 && xx < W && yy >= 0 && yy < H && zz >= 0 && zz < D;
        const double wk = ((k & 1) ? fx : 1 - fx) * (((k >> 1) & 1) ? fy : 1 - fy) * (((k >> 2) & 1) ? fz : 1 - fz);
        w[k] = inside ? (float)wk : 0.0f;
        tap[k] = inside ? base + (zz * H + yy) * W + xx : &kZero;
        stride[k] = inside ? V : 0;
      }
      float* out = op + n * C * P + p;
      for (int64_t c = 0; c < C; ++c) {
        float acc = 0.0f;
        for (int k = 0; k < 8; ++k) acc += w[k] * tap[k][c * stride[k]];
        out[c * P] = acc;
      }
    }
  return 0;
}
