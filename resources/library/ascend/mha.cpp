// Ascend library baseline for mha: CANN's aclnnFlashAttentionScore (softmax(scale q k^T, masked) v) in BNSD layout,
// headNum = H with one key/value head per query head, scale 1/sqrt(D), no pse, dropout (keepProb 1) or padding, the
// documented two-phase call
// (https://gitcode.com/cann/ops-transformer/blob/master/attention/flash_attention_score/docs/aclnnFlashAttentionScore.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. causal 0: sparseMode 0
// and no mask (every key seen); causal 1: sparseMode 2 (leftUpCausal, key j <= query i: torch's is_causal, aligned to
// the top left as the task asks) with the page's optimised [2048, 2048] mask. softmaxMaxOut and softmaxSumOut, which
// the operator writes for its backward, live in scratch device memory. The page takes FLOAT16, BFLOAT16 and FLOAT32
// and D in [1, 768], N in [1, 256]: every case of the task is one the operator takes.
#include <cmath>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_flash_attention_score.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& q = a->inputs[0];
  const int64_t B = q.shape[0], N = q.shape[1], S = q.shape[2], D = q.shape[3];
  const bool causal = kope_attr_or(a, "causal", 0) != 0;
  const uint64_t stat_bytes = static_cast<uint64_t>(B * N * S * 8) * sizeof(float);
  char* scratch = static_cast<char*>(kope_scratch(2 * stat_bytes));  // softmaxMaxOut, then softmaxSumOut
  if (!scratch) return 207001;
  kope_tensor smax = kope_view(q, {B, N, S, 8}), ssum = smax;
  smax.dtype = ssum.dtype = KOPE_F32;
  smax.data = scratch;
  ssum.data = scratch + stat_bytes;
  aclTensor* mask = causal ? kope_causal_mask_2048() : nullptr;
  if (causal && !mask) return 207001;
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
      2147483647, 2147483647, N, layout, 0, causal ? 2 : 0, maxOut, sumOut, nullptr, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnFlashAttentionScore, "aclnnFlashAttentionScore");
  for (aclTensor* t : {query, key, value, out, maxOut, sumOut}) aclDestroyTensor(t);
  if (mask) aclDestroyTensor(mask);
  return rc;
}
