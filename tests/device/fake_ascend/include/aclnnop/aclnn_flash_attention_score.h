/* A stand-in for CANN's aclnnop/aclnn_flash_attention_score.h: the two-phase aclnnFlashAttentionScore call with the
   documented signature
   (https://gitcode.com/cann/ops-transformer/blob/master/attention/flash_attention_score/docs/aclnnFlashAttentionScore.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H
#define FAKE_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnFlashAttentionScore(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
