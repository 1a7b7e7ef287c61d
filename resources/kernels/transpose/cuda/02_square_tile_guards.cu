// thought: collapse the permutation on the host; rows that stay innermost are copied with the widest vector their length allows; otherwise 32x32 tiles go through shared memory (padded against bank conflicts) so both the reads and the writes are coalesced; values move as raw bits, so every dtype and special value is exact
// flaw: the tile's load is guarded by the output-side extents (tx < nb, r < na) and the store by the input-side ones, as if every tile were square: on an edge tile of a non-square tail (m127_n257) part of the tile is never loaded and its garbage is stored, or elements past the row are read
#include "kope_cuda.h"

#include <cstdint>

namespace {

constexpr int TD = 32;  // tile side
constexpr int TR = 8;   // thread rows per tile (32 x 8 threads, 4 rows each)

// The collapsed view: input lengths L, output axis k is input axis q[k]; strides of both sides.
struct Plan {
  int64_t L[4], q[4], is[4], M[4], os[4];
};

// Rows mode: y's rows of rowLen vectors (V = 4, 8 or 16 bytes) are x's rows at j0 is[q0] + j1 is[q1] + j2 is[q2].
template <class V>
__global__ void copy_rows(const V* __restrict__ x, V* __restrict__ y, Plan p, int64_t rowLen, int64_t n) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < n; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = o / rowLen, c = o - r * rowLen;
    const int64_t j2 = r % p.M[2], j1 = r / p.M[2] % p.M[1], j0 = r / p.M[2] / p.M[1];
    // is[] of the outer axes are multiples of L[3], so the row start in vectors is the element start / per-vector
    const int64_t src = (j0 * p.is[p.q[0]] + j1 * p.is[p.q[1]] + j2 * p.is[p.q[2]]) / p.L[3] * rowLen + c;
    y[o] = __ldg(x + src);
  }
}

// Tiles mode: input axis 3 sits at output position ka, the output's inner axis is input axis b = q[3]; k1 < k2
// are the other output positions. Each unit is one TD x TD tile (ib along b, ia along axis 3) of one (o1, o2).
template <class T>
__global__ void __launch_bounds__(TD * TR) transpose_tiles(const T* __restrict__ x, T* __restrict__ y, Plan p, int ka,
                                                           int k1, int k2, int64_t tb, int64_t ta, int64_t units) {
  __shared__ T tile[TD][TD + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t b = p.q[3];
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    int64_t v = u;
    const int64_t ia = v % ta;
    v /= ta;
    const int64_t ib = v % tb;
    v /= tb;
    const int64_t o2 = v % p.M[k2], o1 = v / p.M[k2];
    const int64_t nb = min((int64_t)TD, p.L[b] - ib * TD), na = min((int64_t)TD, p.L[3] - ia * TD);
    const int64_t src = o1 * p.is[p.q[k1]] + o2 * p.is[p.q[k2]] + ib * TD * p.is[b] + ia * TD;
    const int64_t dst = o1 * p.os[k1] + o2 * p.os[k2] + ia * TD * p.os[ka] + ib * TD;
    if (tx < nb)
      for (int r = ty; r < na; r += TR) tile[r][tx] = __ldg(x + src + r * p.is[b] + tx);
    __syncthreads();
    if (tx < na)
      for (int r = ty; r < nb; r += TR) y[dst + r * p.os[ka] + tx] = tile[tx][r];
    __syncthreads();
  }
}

// The permutation p of shape s with axes of length 1 dropped and output-neighbours that are input-neighbours
// merged, as a 4-D view L (leading 1s) with permutation q (leading axes kept in place).
void collapse(const int64_t* s, const int64_t* p, int64_t* L, int64_t* q) {
  int64_t ax[4], n = 0;
  for (int j = 0; j < 4; ++j)
    if (s[p[j]] != 1) ax[n++] = p[j];
  int64_t gFirst[4], gLen[4], g = 0;
  for (int j = 0; j < n; ++j) {
    bool merge = false;
    if (j > 0) {
      int64_t prev = -1;
      for (int k = 0; k < n; ++k)
        if (ax[k] < ax[j] && ax[k] > prev) prev = ax[k];
      merge = prev == ax[j - 1];
    }
    if (merge) gLen[g - 1] *= s[ax[j]];
    else gFirst[g] = ax[j], gLen[g] = s[ax[j]], ++g;
  }
  for (int k = 0; k < 4; ++k) L[k] = 1, q[k] = k;
  const int64_t lead = 4 - g;
  for (int j = 0; j < g; ++j) {
    int64_t rank = 0;
    for (int k = 0; k < g; ++k) rank += gFirst[k] < gFirst[j];
    L[lead + rank] = gLen[j];
    q[lead + j] = lead + rank;
  }
}

int grid_for(int64_t work, int threads) {
  const int64_t b = (work + threads - 1) / threads;
  return (int)(b < 1 ? 1 : b > 132 * 16 ? 132 * 16 : b);
}

template <class V> int rows(const kope_args* a, const Plan& p, int esize, cudaStream_t s) {
  const int64_t rowLen = p.L[3] * esize / (int64_t)sizeof(V), n = a->outputs[0].numel * esize / (int64_t)sizeof(V);
  copy_rows<V><<<grid_for(n, 256), 256, 0, s>>>((const V*)a->inputs[0].data, (V*)a->outputs[0].data, p, rowLen, n);
  return (int)cudaGetLastError();
}

template <class T> int run(const kope_args* a, const Plan& p, cudaStream_t s) {
  constexpr int es = (int)sizeof(T);
  if (p.q[3] == 3) {
    const int64_t rowBytes = p.L[3] * es;
    if (rowBytes % 16 == 0) return rows<uint4>(a, p, es, s);
    if (rowBytes % 8 == 0) return rows<uint2>(a, p, es, s);
    if (rowBytes % 4 == 0) return rows<uint32_t>(a, p, es, s);
    return rows<T>(a, p, es, s);
  }
  int ka = 0, k1 = -1, k2 = -1;
  for (int k = 0; k < 3; ++k)
    if (p.q[k] == 3) ka = k;
  for (int k = 0; k < 3; ++k)
    if (k != ka) (k1 < 0 ? k1 : k2) = k;
  const int64_t tb = (p.L[p.q[3]] + TD - 1) / TD, ta = (p.L[3] + TD - 1) / TD;
  const int64_t units = p.M[k1] * p.M[k2] * tb * ta;
  const int blocks = (int)(units < 132 * 32 ? units : 132 * 32);
  transpose_tiles<T><<<blocks, dim3(TD, TR), 0, s>>>((const T*)a->inputs[0].data, (T*)a->outputs[0].data, p, ka, k1,
                                                       k2, tb, ta, units);
  return (int)cudaGetLastError();
}

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 4 || y.ndim != 4 || x.dtype != y.dtype) return 1;
  static const char* const names[4] = {"p0", "p1", "p2", "p3"};
  int64_t perm[4];
  int seen = 0;
  for (int k = 0; k < 4; ++k) {
    perm[k] = (int64_t)kope_attr_or(a, names[k], k);
    if (perm[k] < 0 || perm[k] > 3 || ((seen >> perm[k]) & 1)) return 2;
    seen |= 1 << perm[k];
  }
  for (int k = 0; k < 4; ++k)
    if (y.shape[k] != x.shape[perm[k]]) return 3;
  if (x.numel == 0) return 0;
  Plan p;
  collapse(x.shape, perm, p.L, p.q);
  p.is[3] = 1;
  for (int k = 2; k >= 0; --k) p.is[k] = p.is[k + 1] * p.L[k + 1];
  for (int k = 0; k < 4; ++k) p.M[k] = p.L[p.q[k]];
  p.os[3] = 1;
  for (int k = 2; k >= 0; --k) p.os[k] = p.os[k + 1] * p.M[k + 1];
  switch (x.dtype) {
    case KOPE_F32: case KOPE_I32: return run<uint32_t>(a, p, s);
    case KOPE_F16: case KOPE_BF16: return run<uint16_t>(a, p, s);
    case KOPE_I8: case KOPE_U8: return run<uint8_t>(a, p, s);
    case KOPE_F64: case KOPE_I64: return run<uint64_t>(a, p, s);
    default: return 1;
  }
}
