// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): operators of the L3 suite, aclnnMoeGatingTopKSoftmax,
// aclnnMoeFinalizeRouting and aclnnWeightQuantBatchMatmulV2, each the documented two-phase pair with the signatures
// of the include/aclnnop headers beside this file. Computed on the host: the MoE operators in fp32 with int32
// indices (the gating's logits and weights also fp16), the weight-quantised matmul for its fp16 activations and int8 weights (in fp32 with one rounding to
// fp16); other dtypes are refused with ACLNN_ERR_PARAM_INVALID. Each run tells the fake runtime it launched a kernel
// named after the operator. FAKE_ACLNN_FAIL=<Op> makes that operator's first phase fail.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "fake_opapi_common.h"

namespace {

_Float16* f16(const aclTensor* t) { return at<_Float16>(t); }
int8_t* s8(const aclTensor* t) { return at<int8_t>(t); }

}  // namespace

extern "C" {

// x [T, E] fp32 or fp16 (finished absent): softmax over E, the k largest in descending order (equal ones in expert order),
// row_idx[t, j] = j * T + t.
aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* finishedOptional, int64_t k,
                                                      const aclTensor* yOut, const aclTensor* expertIdxOut,
                                                      const aclTensor* rowIdxOut, uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !yOut || !expertIdxOut || !rowIdxOut) return ACLNN_ERR_PARAM_NULLPTR;
  if (finishedOptional || (x->dtype != ACL_FLOAT && x->dtype != ACL_FLOAT16) || yOut->dtype != x->dtype ||
      expertIdxOut->dtype != ACL_INT32 ||
      rowIdxOut->dtype != ACL_INT32 || x->dims.size() != 2 || yOut->dims.size() != 2 || k <= 0 ||
      k > x->dims[1] || yOut->dims[0] != x->dims[0] || yOut->dims[1] != k || expertIdxOut->dims != yOut->dims ||
      rowIdxOut->dims != yOut->dims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("MoeGatingTopKSoftmax", 0, [=](void*) {
    const int64_t T = x->dims[0], E = x->dims[1];
    std::vector<std::pair<float, int64_t>> p(E);
    for (int64_t t = 0; t < T; ++t) {
      auto r = [&](int64_t e) {
        return x->dtype == ACL_FLOAT ? x->f32()[t * E + e] : static_cast<float>(f16(x)[t * E + e]);
      };
      float m = -INFINITY, sum = 0.0f;
      for (int64_t e = 0; e < E; ++e) m = std::fmax(m, r(e));
      for (int64_t e = 0; e < E; ++e) sum += (p[e].first = std::exp(r(e) - m)), p[e].second = e;
      std::stable_sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      for (int64_t j = 0; j < k; ++j) {
        if (yOut->dtype == ACL_FLOAT) yOut->f32()[t * k + j] = p[j].first / sum;
        else f16(yOut)[t * k + j] = static_cast<_Float16>(p[j].first / sum);
        i32(expertIdxOut)[t * k + j] = static_cast<int32_t>(p[j].second);
        i32(rowIdxOut)[t * k + j] = static_cast<int32_t>(j * T + t);
      }
    }
  }, ws, ex);
}
aclnnStatus aclnnMoeGatingTopKSoftmax(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// out[i, h] = x1 + x2 + sum_k scales[i, k] * (expandedX[expandedRowIdx[k * N + i], h] + bias[expandedExpertIdx[i, k], h]),
// all fp32; rows and experts out of range are refused when the run finds them (CANN does not check them).
aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(const aclTensor* expandedX, const aclTensor* x1,
                                                    const aclTensor* x2Optional, const aclTensor* bias,
                                                    const aclTensor* scales, const aclTensor* expandedRowIdx,
                                                    const aclTensor* expandedExpertIdx, const aclTensor* out,
                                                    uint64_t* ws, aclOpExecutor** ex) {
  if (!expandedX || !x1 || !bias || !scales || !expandedRowIdx || !expandedExpertIdx || !out) return ACLNN_ERR_PARAM_NULLPTR;
  for (const aclTensor* t : {expandedX, x1, bias, scales, out})
    if (t->dtype != ACL_FLOAT || t->dims.size() != 2) return ACLNN_ERR_PARAM_INVALID;
  if (x2Optional && (x2Optional->dtype != ACL_FLOAT || x2Optional->dims != x1->dims)) return ACLNN_ERR_PARAM_INVALID;
  const int64_t N = x1->dims[0], H = x1->dims[1], K = scales->dims[1], E = bias->dims[0];
  if (out->dims != x1->dims || scales->dims[0] != N || bias->dims[1] != H || expandedX->dims[1] != H ||
      expandedX->dims[0] != N * K || expandedRowIdx->dtype != ACL_INT32 || expandedRowIdx->numel() != N * K ||
      expandedExpertIdx->dtype != ACL_INT32 || expandedExpertIdx->numel() != N * K)
    return ACLNN_ERR_PARAM_INVALID;
  return make("MoeFinalizeRouting", 0, [=](void*) {
    for (int64_t i = 0; i < N; ++i)
      for (int64_t h = 0; h < H; ++h) {
        float acc = x1->f32()[i * H + h] + (x2Optional ? x2Optional->f32()[i * H + h] : 0.0f);
        for (int64_t k = 0; k < K; ++k) {
          const int64_t r = i32(expandedRowIdx)[k * N + i], e = i32(expandedExpertIdx)[i * K + k];
          if (r < 0 || r >= N * K || e < 0 || e >= E) continue;  // undefined in CANN; left out here
          acc += scales->f32()[i * K + k] * (expandedX->f32()[r * H + h] + bias->f32()[e * H + h]);
        }
        out->f32()[i * H + h] = acc;
      }
  }, ws, ex);
}
aclnnStatus aclnnMoeFinalizeRouting(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// x [M, K] fp16, weight [K, N] int8 (not transposed), per-channel antiquantScale, antiquantOffsetOptional and
// biasOptional [N] fp16 (antiquantGroupSize 0, no output quantisation): y = x @ ((weight + offset) * scale) + bias.
aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                          const aclTensor* antiquantScale,
                                                          const aclTensor* antiquantOffsetOptional,
                                                          const aclTensor* quantScaleOptional,
                                                          const aclTensor* quantOffsetOptional,
                                                          const aclTensor* biasOptional, int antiquantGroupSize,
                                                          const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !weight || !antiquantScale || !y) return ACLNN_ERR_PARAM_NULLPTR;
  if (quantScaleOptional || quantOffsetOptional || antiquantGroupSize != 0 || x->dtype != ACL_FLOAT16 ||
      weight->dtype != ACL_INT8 || y->dtype != ACL_FLOAT16 || x->dims.size() != 2 || weight->dims.size() != 2 ||
      y->dims.size() != 2 || weight->dims[0] != x->dims[1] || y->dims[0] != x->dims[0] || y->dims[1] != weight->dims[1])
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t M = x->dims[0], K = x->dims[1], N = weight->dims[1];
  for (const aclTensor* t : {antiquantScale, antiquantOffsetOptional, biasOptional})
    if (t && (t->dtype != ACL_FLOAT16 || t->numel() != N)) return ACLNN_ERR_PARAM_INVALID;
  return make("WeightQuantBatchMatmulV2", 0, [=](void*) {
    std::vector<float> w(static_cast<size_t>(K * N));
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) {
        const float off = antiquantOffsetOptional ? static_cast<float>(f16(antiquantOffsetOptional)[n]) : 0.0f;
        w[k * N + n] = (static_cast<float>(s8(weight)[k * N + n]) + off) * static_cast<float>(f16(antiquantScale)[n]);
      }
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        float acc = biasOptional ? static_cast<float>(f16(biasOptional)[n]) : 0.0f;
        for (int64_t k = 0; k < K; ++k) acc += static_cast<float>(f16(x)[m * K + k]) * w[k * N + n];
        f16(y)[m * N + n] = static_cast<_Float16>(acc);
      }
  }, ws, ex);
}
aclnnStatus aclnnWeightQuantBatchMatmulV2(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
