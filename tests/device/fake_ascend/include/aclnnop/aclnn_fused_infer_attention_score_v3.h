/* A stand-in for CANN's aclnnop/aclnn_fused_infer_attention_score_v3.h: the two-phase
   aclnnFusedInferAttentionScoreV3 call with the documented signature
   (https://gitcode.com/cann/ops-transformer/blob/master/attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV3.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_FUSED_INFER_ATTENTION_SCORE_V3_H
#define FAKE_ACLNNOP_ACLNN_FUSED_INFER_ATTENTION_SCORE_V3_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, const aclTensor* attentionOut, const aclTensor* softmaxLse,
    uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnFusedInferAttentionScoreV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
