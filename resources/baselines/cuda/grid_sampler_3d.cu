// CUDA baseline for grid_sampler_3d: one thread per output element (n, c, point), coordinates, weights and the sum
// in double; corners outside the volume are not read (zeros padding), border padding clips the coordinates.
#include "kope_cuda.h"

__device__ double unnormalize(double g, int64_t size, bool align, bool border) {
  double c = align ? (g + 1) / 2 * (double)(size - 1) : ((g + 1) * (double)size - 1) / 2;
  if (border) c = c < 0 ? 0 : (c > (double)(size - 1) ? (double)(size - 1) : c);
  return c;
}

__global__ void grid_sample_kernel(const float* in, const float* grid, float* out, int64_t N, int64_t C, int64_t D,
                                   int64_t H, int64_t W, int64_t P, bool align, bool border) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < N * C * P;
       o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t p = o % P, c = (o / P) % C, n = o / (P * C);
    const float* g = grid + (n * P + p) * 3;
    const double ix = unnormalize(g[0], W, align, border), iy = unnormalize(g[1], H, align, border);
    const double iz = unnormalize(g[2], D, align, border);
    const int64_t x0 = (int64_t)floor(ix), y0 = (int64_t)floor(iy), z0 = (int64_t)floor(iz);
    double acc = 0;
    for (int k = 0; k < 8; ++k) {
      const int64_t xx = x0 + (k & 1), yy = y0 + ((k >> 1) & 1), zz = z0 + ((k >> 2) & 1);
      if (xx < 0 || xx >= W || yy < 0 || yy >= H || zz < 0 || zz >= D) continue;
      const double w = ((k & 1) ? ix - x0 : 1 - (ix - x0)) * (((k >> 1) & 1) ? iy - y0 : 1 - (iy - y0)) *
                       (((k >> 2) & 1) ? iz - z0 : 1 - (iz - z0));
      acc += w * in[(((n * C + c) * D + zz) * H + yy) * W + xx];
    }
    out[o] = (float)acc;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &in = a->inputs[0], &grid = a->inputs[1];
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  grid_sample_kernel<<<(int)(want < 65535 ? want : 65535), 256, 0, s>>>(
      (const float*)in.data, (const float*)grid.data, (float*)a->outputs[0].data, in.shape[0], in.shape[1], in.shape[2],
      in.shape[3], in.shape[4], grid.shape[1] * grid.shape[2] * grid.shape[3], kope_attr_or(a, "align_corners", 0) != 0,
      kope_attr_or(a, "padding_mode", 0) == 1);
  return (int)cudaGetLastError();
}
