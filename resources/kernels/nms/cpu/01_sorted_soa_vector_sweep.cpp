// thought: sort once by a packed (score key, index) word so equal scores stay in index order, gather the boxes into score-ordered x1/y1/x2/y2/area arrays, then for each surviving box sweep the rest with a branch-free vectorised IoU test (inter > thr * union, the same decision as inter / union > thr without the division), compacting the survivors every few kept boxes so the sweep only touches live boxes
// kope:cxxflags -O3 -march=native
#include <algorithm>
#include <cstring>
#include <vector>

#include "kope_kernel.h"

// The score's bits as a key that orders like the score (descending wanted: inverted below).
static inline uint32_t score_key(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (u == 0x80000000u) u = 0;  // -0 ties with 0
  return u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
}

int kope_kernel(const kope_args* a) {
  const float* b = static_cast<const float*>(a->inputs[0].data);
  const float* s = static_cast<const float*>(a->inputs[1].data);
  const int64_t n = a->inputs[1].shape[0];
  const float thr = (float)kope_attr_or(a, "iou_threshold", 0.5);
  int64_t* keep = static_cast<int64_t*>(a->outputs[0].data);
  if (n >= 0xffffffffLL) return 2;
  // Descending score, then ascending index: sort (~key << 32 | index) ascending.
  std::vector<uint64_t> order((size_t)n);
  for (int64_t i = 0; i < n; ++i) order[i] = ((uint64_t)(~score_key(s[i])) << 32) | (uint64_t)i;
  std::sort(order.begin(), order.end());
  // Live boxes in score order, structure of arrays; `id` the original index.
  std::vector<float> x1(n), y1(n), x2(n), y2(n), ar(n);
  std::vector<uint32_t> id(n);
  for (int64_t k = 0; k < n; ++k) {
    const uint32_t i = (uint32_t)order[k];
    const float* p = b + 4 * (int64_t)i;
    id[k] = i;
    x1[k] = std::min(p[0], p[2]);
    x2[k] = std::max(p[0], p[2]);
    y1[k] = std::min(p[1], p[3]);
    y2[k] = std::max(p[1], p[3]);
    ar[k] = (x2[k] - x1[k]) * (y2[k] - y1[k]);
  }
  std::vector<uint8_t> dead((size_t)n, 0);
  int64_t live = n, m = 0, since_compact = 0;
  for (int64_t k = 0; k < live; ++k) {
    if (dead[k]) continue;
    keep[m++] = id[k];
    const float bx1 = x1[k], by1 = y1[k], bx2 = x2[k], by2 = y2[k], ba = ar[k];
    uint8_t* __restrict d = dead.data();
    const float *__restrict X1 = x1.data(), *__restrict Y1 = y1.data(), *__restrict X2 = x2.data(),
                *__restrict Y2 = y2.data(), *__restrict A = ar.data();
    for (int64_t j = k + 1; j < live; ++j) {
      const float w = std::max(0.0f, std::min(bx2, X2[j]) - std::max(bx1, X1[j]));
      const float h = std::max(0.0f, std::min(by2, Y2[j]) - std::max(by1, Y1[j]));
      const float inter = w * h;
      d[j] |= (uint8_t)(inter > thr * (ba + A[j] - inter));
    }
    // Drop the dead behind k now and then, so later sweeps are shorter.
    if (++since_compact == 16 && live - k > 1024) {
      since_compact = 0;
      int64_t w = k + 1;
      for (int64_t j = k + 1; j < live; ++j)
        if (!d[j]) {
          x1[w] = x1[j], y1[w] = y1[j], x2[w] = x2[j], y2[w] = y2[j], ar[w] = ar[j], id[w] = id[j], d[w] = 0;
          ++w;
        }
      live = w;
    }
  }
  for (int64_t i = m; i < n; ++i) keep[i] = -1;
  static_cast<int64_t*>(a->outputs[1].data)[0] = m;
  return 0;
}
