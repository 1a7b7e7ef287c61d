// CANN's aclnnFlashAttentionScore (softmax(scale q k^T, masked) v) in BNSD layout for the library baselines of mha and
// gqa: headNum = the query heads (fewer key/value heads are the page's GQA: Nq a multiple of Nkv, consecutive query
// heads sharing one), scale 1/sqrt(D), no pse, dropout (keepProb 1) or padding, the documented two-phase call
// (https://gitcode.com/cann/ops-transformer/blob/master/attention/flash_attention_score/docs/aclnnFlashAttentionScore.md).
// sparse_mode 0 sees every key, without a mask; 2 (leftUpCausal) and 3 (rightDownCausal) take the page's optimised
// [2048, 2048] mask. softmaxMaxOut and softmaxSumOut, which the operator writes for its backward, live in scratch
// device memory.
#pragma once

#include <cmath>

#include "kope_aclnn.h"
#include "aclnnop/aclnn_flash_attention_score.h"

static inline int kope_flash_attention_bnsd(const kope_args* a, void* stream, int64_t sparse_mode) {
  const kope_tensor& q = a->inputs[0];
  const int64_t B = q.shape[0], N = q.shape[1], S = q.shape[2], D = q.shape[3];
  const uint64_t stat_bytes = static_cast<uint64_t>(B * N * S * 8) * sizeof(float);
  char* scratch = static_cast<char*>(kope_scratch(2 * stat_bytes));  // softmaxMaxOut, then softmaxSumOut
  if (!scratch) return 207001;
  kope_tensor smax = kope_view(q, {B, N, S, 8}), ssum = smax;
  smax.dtype = ssum.dtype = KOPE_F32;
  smax.data = scratch;
  ssum.data = scratch + stat_bytes;
  aclTensor* mask = sparse_mode != 0 ? kope_causal_mask_2048() : nullptr;
  if (sparse_mode != 0 && !mask) return 207001;
  char layout[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* query = kope_acl(q);
  aclTensor* key = kope_acl(a->inputs[1]);
  aclTensor* value = kope_acl(a->inputs[2]);
  aclTensor* out = kope_acl(a->outputs[0]);
  aclTensor* maxOut = kope_acl(smax);
  aclTensor* sumOut = kope_acl(ssum);
  const aclnnStatus st = aclnnFlashAttentionScoreGetWorkspaceSize(
      query, key, value, nullptr, nullptr, nullptr, mask, nullptr, 1.0 / std::sqrt(static_cast<double>(D)), 1.0,
      2147483647, 2147483647, N, layout, 0, sparse_mode, maxOut, sumOut, nullptr, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnFlashAttentionScore, "aclnnFlashAttentionScore");
  for (aclTensor* t : {query, key, value, out, maxOut, sumOut}) aclDestroyTensor(t);
  if (mask) aclDestroyTensor(mask);
  return rc;
}
