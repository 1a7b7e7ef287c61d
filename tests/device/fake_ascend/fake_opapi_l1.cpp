// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): aclnnForeachAddcdivScalar, aclnnForeachNorm,
// aclnnSwiGlu and aclnnGcd, each the documented two-phase pair with the signatures of the include/aclnnop headers
// beside this file. Computed on the host: the float operators in fp32 only, Gcd in int32 or int64 (the types its
// page lists for Atlas A2/A3 after promotion; the fake promotes nothing, so both inputs and out share one); other
// dtypes are refused with ACLNN_ERR_PARAM_INVALID. Each run tells the fake runtime it launched a kernel named after
// the operator. FAKE_ACLNN_FAIL=<Op> makes that operator's first phase fail.
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "fake_opapi_common.h"

namespace {

constexpr std::size_t kMaxDims = 8;  // what every one of these operators' pages allows

// Every tensor of the list present, fp32, of at most eight dimensions.
bool all_f32(const aclTensorList* l) {
  for (uint64_t i = 0; i < l->size(); ++i)
    if (!(*l)[i] || (*l)[i]->dtype != ACL_FLOAT || (*l)[i]->dims.size() > kMaxDims) return false;
  return true;
}

// |a| and |b| as unsigned, so that gcd(INT64_MIN, 0) wraps as the operator's integer arithmetic does rather than
// being undefined.
template <class T>
T gcd_of(T a, T b) {
  auto mag = [](T v) { return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); };
  return static_cast<T>(std::gcd(mag(a), mag(b)));
}

}  // namespace

extern "C" {

// out[i] = x1[i] + x2[i] / x3[i] * scalar. The scalar is a one-element tensor the kernel reads from device memory
// when it runs (the op_api hands it to the kernel as an input); for fp32 lists it is FLOAT or DOUBLE.
aclnnStatus aclnnForeachAddcdivScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* ws, aclOpExecutor** ex) {
  if (!x1 || !x2 || !x3 || !scalar || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const uint64_t n = x1->size();
  if (x2->size() != n || x3->size() != n || out->size() != n || !all_f32(x1) || !all_f32(x2) || !all_f32(x3) ||
      !all_f32(out) || (scalar->dtype != ACL_FLOAT && scalar->dtype != ACL_DOUBLE) || scalar->numel() < 1)
    return ACLNN_ERR_PARAM_INVALID;
  for (uint64_t i = 0; i < n; ++i)
    if ((*x2)[i]->dims != (*x1)[i]->dims || (*x3)[i]->dims != (*x1)[i]->dims || (*out)[i]->dims != (*x1)[i]->dims)
      return ACLNN_ERR_PARAM_INVALID;
  return make("ForeachAddcdivScalar", 0, [=](void*) {
    const float v = scalar->dtype == ACL_FLOAT ? *at<float>(scalar) : static_cast<float>(*at<double>(scalar));
    for (uint64_t i = 0; i < n; ++i) {
      const float *a = (*x1)[i]->f32(), *b = (*x2)[i]->f32(), *c = (*x3)[i]->f32();
      float* y = (*out)[i]->f32();
      for (int64_t k = 0; k < (*x1)[i]->numel(); ++k) y[k] = a[k] + b[k] / c[k] * v;
    }
  }, ws, ex);
}
aclnnStatus aclnnForeachAddcdivScalar(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) {
  return launch(w, n, e, s);
}

// One norm per tensor into a one-element out tensor. The Atlas A2/A3 kernel (ops-nn foreach/foreach_norm,
// op_kernel/foreach_norm.cpp) knows two orders only: int(p) == 1 sums |x|, any other p gives the Euclidean norm;
// the fake does the same, so a baseline that passed it another order would be caught giving a wrong norm. Sums
// are kept in double, near the kernel's blockwise fp32 ReduceSum, and rounded once to fp32.
aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                                             uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !scalar || !out) return ACLNN_ERR_PARAM_NULLPTR;
  if (!all_f32(x) || !all_f32(out) || out->size() != x->size() ||
      (scalar->dtype != ACL_FLOAT && scalar->dtype != ACL_DOUBLE && scalar->dtype != ACL_INT64))
    return ACLNN_ERR_PARAM_INVALID;
  for (uint64_t i = 0; i < out->size(); ++i)
    if ((*out)[i]->numel() != 1) return ACLNN_ERR_INNER_TILING_ERROR;
  const bool l1 = static_cast<int>(scalar->value()) == 1;
  return make("ForeachNorm", 0, [=](void*) {
    for (uint64_t i = 0; i < x->size(); ++i) {
      const float* v = (*x)[i]->f32();
      double acc = 0;
      for (int64_t k = 0; k < (*x)[i]->numel(); ++k) acc += l1 ? std::fabs(v[k]) : static_cast<double>(v[k]) * v[k];
      (*out)[i]->f32()[0] = static_cast<float>(l1 ? acc : std::sqrt(acc));
    }
  }, ws, ex);
}
aclnnStatus aclnnForeachNorm(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// x split in halves A, B along dim; out = Swish(A) * B with Swish(a) = a / (1 + exp(-a)): the first half is gated.
aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out, uint64_t* ws,
                                        aclOpExecutor** ex) {
  if (!x || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = static_cast<int64_t>(x->dims.size());
  if (x->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || nd == 0 || dim < -nd || dim >= nd)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t d = dim < 0 ? dim + nd : dim;
  std::vector<int64_t> halved = x->dims;
  halved[d] /= 2;
  if (x->dims[d] % 2 != 0 || out->dims != halved) return ACLNN_ERR_PARAM_INVALID;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= x->dims[k];
  for (int64_t k = d + 1; k < nd; ++k) inner *= x->dims[k];
  const int64_t h = halved[d];
  return make("SwiGlu", 0, [=](void*) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < h * inner; ++j) {
        const float a = x->f32()[o * 2 * h * inner + j], b = x->f32()[o * 2 * h * inner + h * inner + j];
        out->f32()[o * h * inner + j] = a / (1.0f + std::exp(-a)) * b;
      }
  }, ws, ex);
}
aclnnStatus aclnnSwiGlu(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Elementwise gcd(|self|, |other|), never negative; gcd(0, 0) = 0. Same shapes only: the fake does not broadcast.
aclnnStatus aclnnGcdGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* ws,
                                     aclOpExecutor** ex) {
  if (!self || !other || !out) return ACLNN_ERR_PARAM_NULLPTR;
  if ((self->dtype != ACL_INT32 && self->dtype != ACL_INT64) || other->dtype != self->dtype ||
      out->dtype != self->dtype || other->dims != self->dims || out->dims != self->dims ||
      self->dims.empty() || self->dims.size() > kMaxDims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("Gcd", 0, [=](void*) {
    for (int64_t i = 0; i < out->numel(); ++i) {
      if (out->dtype == ACL_INT32) at<int32_t>(out)[i] = gcd_of(at<int32_t>(self)[i], at<int32_t>(other)[i]);
      else at<int64_t>(out)[i] = gcd_of(at<int64_t>(self)[i], at<int64_t>(other)[i]);
    }
  }, ws, ex);
}
aclnnStatus aclnnGcd(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
