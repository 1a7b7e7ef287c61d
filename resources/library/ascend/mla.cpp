// Ascend library baseline for mla: CANN's aclnnFusedInferAttentionScoreV3 in its MLA form (queryRope and keyRope
// given: softmax(scale (q ckv^T + q_rope k_rope^T)) ckv, the absorbed attention of DeepSeek's decode), the documented
// two-phase call
// (https://gitcode.com/cann/ops-transformer/blob/master/attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV3.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. Layout BSND: query q
// [B, S, H, C], queryRope q_rope [B, S, H, R], numHeads H, numKeyValueHeads 1, scaleValue the task's scale. On Atlas
// A2 the page takes this form only with C = 512, R = 64, S in [1, 16], FLOAT16 or BFLOAT16, and page attention: the
// caches are handed over as they lie, ckv [B, L, C] as key and as value in blocks of 128 rows ([B L / 128, 128, C],
// BnBsH with one head), k_rope likewise, a block table [B, L / 128] naming batch b's blocks b L / 128 + i (written to
// device memory once per shape and kept), actualSeqLengthsKv L. S = 1 runs sparseMode 0 without a mask (the one
// query sees every key, causal or not); S > 1 only sparseMode 3 (rightDownCausal, query s sees keys j <= L - S + s,
// as the task's causal 1) with the page's optimised [2048, 2048] mask. Refused here, and timed against the naive
// baseline: fp32, C other than 512 or R other than 64 (the page's 128-wide MLA query is TND-only), S > 16, S > 1
// without causal, and L not a multiple of 128.
#include <cstdio>
#include <vector>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"

// The block table of B sequences of `per` blocks each (batch b's blocks b per .. b per + per - 1), INT32 [B, per] in
// device memory, written when the shape changes; nullptr when it cannot be had.
static aclTensor* block_table(int64_t B, int64_t per) {
  static void* block = nullptr;
  static uint64_t have = 0;
  static int64_t written_b = -1, written_per = -1;
  if (!kope_grow(block, have, static_cast<uint64_t>(B * per) * sizeof(int32_t))) return nullptr;
  if (written_b != B || written_per != per) {
    std::vector<int32_t> t(static_cast<size_t>(B * per));
    for (int64_t e = 0; e < B * per; ++e) t[e] = static_cast<int32_t>(e);
    written_b = written_per = -1;
    if (aclrtMemcpy(block, t.size() * sizeof(int32_t), t.data(), t.size() * sizeof(int32_t),
                    ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
      return nullptr;
    written_b = B, written_per = per;
  }
  const int64_t dims[2] = {B, per}, strides[2] = {per, 1};
  return aclCreateTensor(dims, 2, ACL_INT32, strides, 0, ACL_FORMAT_ND, dims, 2, block);
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor &q = a->inputs[0], &ckv = a->inputs[2], &kr = a->inputs[3];
  const int64_t B = q.shape[0], S = q.shape[1], H = q.shape[2], C = q.shape[3], L = ckv.shape[1];
  const int64_t R = kr.shape[2], bs = 128;
  const bool causal = kope_attr_or(a, "causal", 0) != 0;
  const char* refusal = q.dtype == KOPE_F32 ? "takes FLOAT16 and BFLOAT16 only"
                        : C != 512 || R != 64 ? "takes a query width of 512 and a rope width of 64 only in BSND"
                        : S > 16             ? "takes 1 to 16 queries per sequence only"
                        : S > 1 && !causal   ? "takes several queries with sparseMode 3 (causal) only"
                        : L % bs             ? "wants the cache in whole blocks (page attention), here of 128 rows"
                                             : nullptr;
  if (refusal) {
    std::fprintf(stderr, "aclnnFusedInferAttentionScoreV3's MLA form on Atlas A2 %s\n", refusal);
    return ACLNN_ERR_PARAM_INVALID;
  }
  aclTensor* table = block_table(B, L / bs);
  aclTensor* mask = S > 1 ? kope_causal_mask_2048() : nullptr;
  if (!table || (S > 1 && !mask)) {
    std::fprintf(stderr, "the block table or causal mask could not be had in device memory\n");
    if (table) aclDestroyTensor(table);
    return 207001;
  }
  aclTensor* kc = kope_acl(kope_view(ckv, {B * L / bs, bs, C}));
  aclTensor* vc = kope_acl(kope_view(ckv, {B * L / bs, bs, C}));
  aclTensorList* key = aclCreateTensorList(&kc, 1);
  aclTensorList* value = aclCreateTensorList(&vc, 1);
  aclTensor* query = kope_acl(q);
  aclTensor* queryRope = kope_acl(a->inputs[1]);
  aclTensor* keyRope = kope_acl(kope_view(kr, {B * L / bs, bs, R}));
  aclTensor* out = kope_acl(a->outputs[0]);
  aclIntArray* kvLens = aclCreateIntArray(&L, 1);
  char layout[] = "BSND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
      query, key, value, nullptr, mask, nullptr, kvLens, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, table, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, queryRope,
      keyRope, nullptr, H, kope_attr_or(a, "scale", 0.07216878364870322), 2147483647, 2147483647, layout, 1,
      S > 1 ? 3 : 0, 0, bs, 0, false, 0, 0, out, nullptr, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnFusedInferAttentionScoreV3, "aclnnFusedInferAttentionScoreV3");
  for (aclTensor* t : {query, queryRope, keyRope, out, table}) aclDestroyTensor(t);
  if (mask) aclDestroyTensor(mask);
  for (aclTensorList* l : {key, value}) aclDestroyTensorList(l);
  aclDestroyIntArray(kvLens);
  return rc;
}
