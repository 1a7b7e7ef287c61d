// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): operators of the L2 suite, aclnnScatterAdd and
// aclnnApplyRotaryPosEmb, each the documented two-phase pair with the signatures of the include/aclnnop headers beside
// this file. The first phase checks what the documentation says it checks (null pointers, dtypes, ranks, shapes,
// attributes); the data are computed on the host in fp32, other dtypes refused with ACLNN_ERR_PARAM_INVALID as the
// other fake files do. Each run tells the fake runtime it launched a kernel named after the operator's AI Core kernel,
// so the fake msprof times it; FAKE_ACLNN_FAIL=<that name> makes the first phase fail.
#include <cmath>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }

// An index tensor's element e (int32 or int64).
int64_t index_at(const aclTensor* t, int64_t e) { return t->dtype == ACL_INT64 ? i64(t)[e] : i32(t)[e]; }

}  // namespace

extern "C" {

// torch.scatter_add: out = self, then out[..., index[..., j, ...], ...] += src[..., j, ...] along dim, every
// duplicate accumulating. self, index and src have one rank (at most 8); index no larger than src in every
// dimension and than self off dim; out has self's shape; index int32 or int64. An index outside [0, size(dim)) is
// the caller's error (the page requires it in range; the operator does not check device data): the fake makes
// out[0] NaN so a check sees it.
aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                            const aclTensor* src, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !index || !src || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self);
  const int64_t d = dim < 0 ? dim + nd : dim;
  const bool int_index = index->dtype == ACL_INT64 || index->dtype == ACL_INT32;
  if (self->dtype != ACL_FLOAT || src->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || !int_index || nd > 8 ||
      d < 0 || d >= nd || rank(index) != nd || rank(src) != nd || out->dims != self->dims)
    return ACLNN_ERR_PARAM_INVALID;
  for (int64_t k = 0; k < nd; ++k)
    if (index->dims[k] > src->dims[k] || (k != d && index->dims[k] > self->dims[k])) return ACLNN_ERR_PARAM_INVALID;
  return make("ScatterElementsV2", 0, [=](void*) {
    std::vector<int64_t> ostride(nd, 1), sstride(nd, 1), pos(nd, 0);
    for (int64_t k = nd - 2; k >= 0; --k) {
      ostride[k] = ostride[k + 1] * self->dims[k + 1];
      sstride[k] = sstride[k + 1] * src->dims[k + 1];
    }
    for (int64_t e = 0; e < self->numel(); ++e) out->f32()[e] = self->f32()[e];
    for (int64_t e = 0; e < index->numel(); ++e) {
      const int64_t r = index_at(index, e);
      int64_t o = 0, s = 0;
      for (int64_t k = 0; k < nd; ++k) {
        o += (k == d ? r : pos[k]) * ostride[k];
        s += pos[k] * sstride[k];
      }
      if (r >= 0 && r < self->dims[d]) out->f32()[o] += src->f32()[s];
      else out->f32()[0] = NAN;
      for (int64_t k = nd - 1; k >= 0 && ++pos[k] == index->dims[k]; --k) pos[k] = 0;
    }
  }, ws, ex);
}
aclnnStatus aclnnScatterAdd(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Rotate-half RoPE in place on queryRef [B, S, N, D] and keyRef [B, S, NK, D] (layout 1, BSND; the fake does not
// model layout 4, TND): x = x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin, cos and sin [B, S, 1, D] with the
// query's B and S, D 64 or 128, one dtype for all four.
aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef, const aclTensor* cos,
                                                   const aclTensor* sin, int64_t layout, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  if (!queryRef || !keyRef || !cos || !sin) return ACLNN_ERR_PARAM_NULLPTR;
  if (layout != 1 || rank(queryRef) != 4 || rank(keyRef) != 4 || rank(cos) != 4) return ACLNN_ERR_PARAM_INVALID;
  for (const aclTensor* t : std::initializer_list<const aclTensor*>{queryRef, keyRef, cos, sin})
    if (t->dtype != ACL_FLOAT || t->numel() == 0) return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& q = queryRef->dims;
  const int64_t D = q[3];
  if ((D != 64 && D != 128) || cos->dims != std::vector<int64_t>{q[0], q[1], 1, D} || sin->dims != cos->dims ||
      keyRef->dims != std::vector<int64_t>{q[0], q[1], keyRef->dims[2], D})
    return ACLNN_ERR_PARAM_INVALID;
  return make("ApplyRotaryPosEmb", 0, [=](void*) {
    const int64_t B = q[0], S = q[1], H = D / 2;
    for (aclTensor* x : {queryRef, keyRef}) {
      const int64_t N = x->dims[2];
      std::vector<float> row(D);
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t n = 0; n < N; ++n) {
            float* r = x->f32() + ((b * S + s) * N + n) * D;
            const float* c = cos->f32() + (b * S + s) * D;
            const float* sn = sin->f32() + (b * S + s) * D;
            row.assign(r, r + D);
            for (int64_t d = 0; d < D; ++d) r[d] = row[d] * c[d] + (d < H ? -row[d + H] : row[d - H]) * sn[d];
          }
    }
  }, ws, ex);
}
aclnnStatus aclnnApplyRotaryPosEmb(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
