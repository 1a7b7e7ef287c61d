// A stand-in for CANN's libopapi: the aclnn operators kope's Ascend library baselines call, each the documented
// two-phase pair (aclnnXxxGetWorkspaceSize checks the tensors and returns the workspace size and an executor;
// aclnnXxx runs it on a stream and frees it), with the signatures of the include/aclnnop headers beside this
// file (each cites its documentation). The computing is done on the host in fp32 (other dtypes are refused with
// ACLNN_ERR_PARAM_INVALID, as an operator refuses what it does not support), and each run tells the fake runtime
// it launched a kernel named after the operator, so the fake msprof times it. FAKE_ACLNN_FAIL=<Op> makes that
// operator's first phase fail with ACLNN_ERR_PARAM_INVALID.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "fake_opapi_common.h"

namespace {

bool same_f32(const aclTensor* a, const aclTensor* b) {
  return a->dtype == ACL_FLOAT && b->dtype == ACL_FLOAT && a->dims == b->dims;
}

template <class F>
aclnnStatus unary(const char* op, const aclTensor* x, aclTensor* y, F f, uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !y) return ACLNN_ERR_PARAM_NULLPTR;
  if (!same_f32(x, y)) return ACLNN_ERR_PARAM_INVALID;
  return make(op, 0, [=](void*) {
    for (int64_t i = 0; i < x->numel(); ++i) y->f32()[i] = f(x->f32()[i]);
  }, ws, ex);
}

}  // namespace

extern "C" {

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y, uint64_t* ws,
                                        aclOpExecutor** ex) {
  if (approximate != 0 && approximate != 1) return ACLNN_ERR_PARAM_INVALID;
  if (approximate == 1)
    return unary("GeluV2", x, y, [](float v) {
      return 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    }, ws, ex);
  return unary("GeluV2", x, y, [](float v) { return v * 0.5f * (1.0f + std::erf(v * 0.70710678f)); }, ws, ex);
}
aclnnStatus aclnnGeluV2(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return unary("Exp", self, out, [](float v) { return std::exp(v); }, ws, ex);
}
aclnnStatus aclnnExp(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return unary("Sigmoid", self, out, [](float v) { return 1.0f / (1.0f + std::exp(-v)); }, ws, ex);
}
aclnnStatus aclnnSigmoid(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return unary("Mish", self, out, [](float v) {
    return v * std::tanh(std::fmax(v, 0.0f) + std::log1p(std::exp(-std::fabs(v))));
  }, ws, ex);
}
aclnnStatus aclnnMish(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Over the last dimension only (what the suite's softmax asks); a workspace holds a row's exponentials.
aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* ws,
                                         aclOpExecutor** ex) {
  if (!self || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = static_cast<int64_t>(self->dims.size());
  if (!same_f32(self, out) || nd == 0 || (dim != -1 && dim != nd - 1)) return ACLNN_ERR_PARAM_INVALID;
  const int64_t n = self->dims.back(), rows = n ? self->numel() / n : 0;
  return make("SoftmaxV2", static_cast<uint64_t>(n) * sizeof(float), [=](void* w) {
    float* e = static_cast<float*>(w);
    for (int64_t r = 0; r < rows; ++r) {
      const float* x = self->f32() + r * n;
      float m = -INFINITY, sum = 0;
      for (int64_t k = 0; k < n; ++k) m = std::fmax(m, x[k]);
      for (int64_t k = 0; k < n; ++k) sum += (e[k] = std::exp(x[k] - m));
      for (int64_t k = 0; k < n; ++k) out->f32()[r * n + k] = e[k] / sum;
    }
  }, ws, ex);
}
aclnnStatus aclnnSoftmax(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// gamma spans x's last dimensions; rstd has one value per row.
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* ws,
                                         aclOpExecutor** ex) {
  if (!x || !gamma || !yOut || !rstdOut) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t d = gamma->numel();
  if (!same_f32(x, yOut) || gamma->dtype != ACL_FLOAT || rstdOut->dtype != ACL_FLOAT || d == 0 ||
      x->numel() % d != 0 || rstdOut->numel() != x->numel() / d)
    return ACLNN_ERR_PARAM_INVALID;
  return make("RmsNorm", 0, [=](void*) {
    for (int64_t r = 0; r < rstdOut->numel(); ++r) {
      const float* xr = x->f32() + r * d;
      double ss = 0;
      for (int64_t k = 0; k < d; ++k) ss += static_cast<double>(xr[k]) * xr[k];
      const float rstd = static_cast<float>(1.0 / std::sqrt(ss / d + epsilon));
      rstdOut->f32()[r] = rstd;
      for (int64_t k = 0; k < d; ++k) yOut->f32()[r * d + k] = xr[k] * rstd * gamma->f32()[k];
    }
  }, ws, ex);
}
aclnnStatus aclnnRmsNorm(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Two-dimensional broadcasting (each dimension of self and other either out's or 1), NaN propagating.
aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* ws,
                                         aclOpExecutor** ex) {
  if (!self || !other || !out) return ACLNN_ERR_PARAM_NULLPTR;
  if (self->dtype != ACL_FLOAT || other->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || out->dims.size() != 2 ||
      self->dims.size() != 2 || other->dims.size() != 2)
    return ACLNN_ERR_PARAM_INVALID;
  for (int k = 0; k < 2; ++k)
    for (const aclTensor* t : {self, other})
      if (t->dims[k] != out->dims[k] && t->dims[k] != 1) return ACLNN_ERR_PARAM_INVALID;
  return make("Maximum", 0, [=](void*) {
    const int64_t m = out->dims[0], n = out->dims[1];
    auto at = [&](const aclTensor* t, int64_t i, int64_t j) {
      return t->f32()[(t->dims[0] == 1 ? 0 : i) * t->dims[1] + (t->dims[1] == 1 ? 0 : j)];
    };
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const float a = at(self, i, j), b = at(other, i, j);
        out->f32()[i * n + j] = std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b);
      }
  }, ws, ex);
}
aclnnStatus aclnnMaximum(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
