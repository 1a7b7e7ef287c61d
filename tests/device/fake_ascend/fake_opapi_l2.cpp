// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): the reductions and index operators of the L2 suite,
// aclnnArgMax, aclnnCummin, aclnnGather and aclnnGroupNorm, each the documented two-phase pair with the signatures of
// the include/aclnnop headers beside this file. The first phase checks what the documentation says it checks (null
// pointers, dtypes, dim ranges, shapes); the data are computed on the host in fp32 with int64 indices (aclnnGather
// also takes int32 ones); other dtypes are refused with ACLNN_ERR_PARAM_INVALID, as an operator refuses what it
// does not support. Each run tells the fake runtime it launched a kernel named after the operator's AI Core kernel,
// so the fake msprof times it; FAKE_ACLNN_FAIL=<that name> makes the first phase fail.
#include <cmath>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_group_norm.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }

// dim in [-rank, rank) as the operators document it, made non-negative; -1 when outside.
int64_t wrap_dim(int64_t dim, int64_t nd) {
  if (dim < -nd || dim >= nd) return -1;
  return dim < 0 ? dim + nd : dim;
}

// The tensor seen as [outer, len, inner] around dimension d (contiguous ND, as aclCreateTensor made it).
struct Around {
  int64_t outer = 1, len = 1, inner = 1;
};
Around around(const aclTensor* t, int64_t d) {
  Around a;
  for (int64_t k = 0; k < rank(t); ++k) (k < d ? a.outer : k == d ? a.len : a.inner) *= t->dims[k];
  return a;
}

}  // namespace

extern "C" {

// out = the index of the maximum of self along dim (keepdim keeps that dimension as 1). Ties go to the first index
// and NaN counts as the maximum (the first NaN wins), as the operator's golden (np.argmax) in
// ops-math/math/arg_max_v2/tests/assets/golden.py has it.
aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out, uint64_t* ws,
                                        aclOpExecutor** ex) {
  if (!self || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t d = wrap_dim(dim, rank(self));
  if (self->dtype != ACL_FLOAT || out->dtype != ACL_INT64 || rank(self) > 8 || d < 0) return ACLNN_ERR_PARAM_INVALID;
  std::vector<int64_t> want = self->dims;
  if (keepdim) want[d] = 1;
  else want.erase(want.begin() + d);
  if (out->dims != want) return ACLNN_ERR_PARAM_INVALID;
  return make("ArgMaxV2", 0, [=](void*) {
    const Around a = around(self, d);
    for (int64_t o = 0; o < a.outer; ++o)
      for (int64_t i = 0; i < a.inner; ++i) {
        const float* x = self->f32() + o * a.len * a.inner + i;
        int64_t best = 0;
        for (int64_t r = 1; r < a.len; ++r) {
          const float v = x[r * a.inner], b = x[best * a.inner];
          if (!std::isnan(b) && (std::isnan(v) || v > b)) best = r;
        }
        i64(out)[o * a.inner + i] = best;
      }
  }, ws, ex);
}
aclnnStatus aclnnArgMax(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// valuesOut / indicesOut = the running minimum along dim and where it was found. The running value is kept only
// while it is strictly less than the next one (the Compare LT / Select of ops-math/math/cummin/op_kernel/arch35/
// cummin.h): an equal value moves the index to the latest, a NaN is taken, and the next number replaces a NaN.
aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut, aclTensor* indicesOut,
                                        uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !valuesOut || !indicesOut) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t d = wrap_dim(dim, rank(self));
  if (self->dtype != ACL_FLOAT || valuesOut->dtype != ACL_FLOAT || indicesOut->dtype != ACL_INT64 ||
      rank(self) > 8 || d < 0 || valuesOut->dims != self->dims || indicesOut->dims != self->dims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("Cummin", 0, [=](void*) {
    const Around a = around(self, d);
    for (int64_t o = 0; o < a.outer; ++o)
      for (int64_t i = 0; i < a.inner; ++i) {
        const int64_t base = o * a.len * a.inner + i;
        float run = 0;
        int64_t at = 0;
        for (int64_t r = 0; r < a.len; ++r) {
          const int64_t e = base + r * a.inner;
          const float v = self->f32()[e];
          if (r == 0 || !(run < v)) run = v, at = r;
          valuesOut->f32()[e] = run;
          i64(indicesOut)[e] = at;
        }
      }
  }, ws, ex);
}
aclnnStatus aclnnCummin(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// torch.gather: out[..., j, ...] = self[..., index[..., j, ...], ...] along dim; index has self's rank and, off
// dim, sizes no larger than self's; out has index's shape. An index outside [0, size) is the caller's error (the
// operator does not check device data): the fake writes NaN there so a check sees it.
aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
                                        aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !index || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t d = wrap_dim(dim, rank(self));
  const bool int_index = index->dtype == ACL_INT64 || index->dtype == ACL_INT32;
  if (self->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || !int_index || d < 0 || rank(index) != rank(self) ||
      out->dims != index->dims)
    return ACLNN_ERR_PARAM_INVALID;
  for (int64_t k = 0; k < rank(self); ++k)
    if (k != d && index->dims[k] > self->dims[k]) return ACLNN_ERR_PARAM_INVALID;
  return make("GatherElements", 0, [=](void*) {
    const int64_t nd = rank(self);
    std::vector<int64_t> sstride(nd, 1), pos(nd, 0);
    for (int64_t k = nd - 2; k >= 0; --k) sstride[k] = sstride[k + 1] * self->dims[k + 1];
    for (int64_t e = 0; e < index->numel(); ++e) {
      const int64_t r = index->dtype == ACL_INT64 ? i64(index)[e] : i32(index)[e];
      int64_t src = 0;
      for (int64_t k = 0; k < nd; ++k) src += (k == d ? r : pos[k]) * sstride[k];
      out->f32()[e] = r >= 0 && r < self->dims[d] ? self->f32()[src] : NAN;
      for (int64_t k = nd - 1; k >= 0 && ++pos[k] == index->dims[k]; --k) pos[k] = 0;
    }
  }, ws, ex);
}
aclnnStatus aclnnGather(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Per (n, g): mean and the biased variance (1/n, as the operator's golden in ops-nn/norm/group_norm/tests/assets/
// golden.py computes it) over C/group channels times HxW, rstd = 1/sqrt(var + eps), out = (x - mean) * rstd * gamma
// + beta; meanOut and rstdOut [N, group] in self's dtype, as the operator checks. gamma / beta may be null (ones /
// zeros). Statistics in double on the host: the fake stands for the operator's contract, not its rounding.
aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
                                           aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut, uint64_t* ws,
                                           aclOpExecutor** ex) {
  if (!self || !out || !meanOut || !rstdOut) return ACLNN_ERR_PARAM_NULLPTR;
  if (self->dtype != ACL_FLOAT || (gamma && gamma->dtype != ACL_FLOAT) || (beta && beta->dtype != ACL_FLOAT) ||
      out->dtype != ACL_FLOAT || meanOut->dtype != ACL_FLOAT || rstdOut->dtype != ACL_FLOAT)
    return ACLNN_ERR_PARAM_INVALID;
  if (group <= 0 || C % group != 0 || !(eps > 0) || rank(self) < 2 || rank(self) > 8 || out->dims != self->dims)
    return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t> stats{N, group};
  int64_t hw = 1;
  for (int64_t k = 2; k < rank(self); ++k) hw *= self->dims[k];
  if (meanOut->dims != stats || rstdOut->dims != stats || self->dims[0] != N || self->dims[1] != C || hw != HxW)
    return ACLNN_ERR_PARAM_INVALID;
  for (const aclTensor* p : {gamma, beta})
    if (p && (rank(p) != 1 || p->dims[0] != C)) return ACLNN_ERR_PARAM_INVALID;
  return make("GroupNormSilu", 0, [=](void*) {
    const int64_t cg = C / group, count = cg * HxW;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t g = 0; g < group; ++g) {
        const float* x = self->f32() + (n * C + g * cg) * HxW;
        double sum = 0, sq = 0;
        for (int64_t i = 0; i < count; ++i) sum += x[i];
        const double mean = sum / count;
        for (int64_t i = 0; i < count; ++i) sq += (x[i] - mean) * (x[i] - mean);
        const double rstd = 1.0 / std::sqrt(sq / count + eps);
        meanOut->f32()[n * group + g] = static_cast<float>(mean);
        rstdOut->f32()[n * group + g] = static_cast<float>(rstd);
        for (int64_t c = 0; c < cg; ++c) {
          const int64_t ch = g * cg + c;
          const double w = gamma ? gamma->f32()[ch] : 1.0, b = beta ? beta->f32()[ch] : 0.0;
          for (int64_t i = 0; i < HxW; ++i)
            out->f32()[(n * C + ch) * HxW + i] = static_cast<float>((x[c * HxW + i] - mean) * rstd * w + b);
        }
      }
  }, ws, ex);
}
aclnnStatus aclnnGroupNorm(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
