/* A stand-in for CANN's aclnnop/aclnn_weight_quant_batch_matmul_v2.h: the two-phase aclnnWeightQuantBatchMatmulV2
   call with the documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnWeightQuantBatchMatmulV2.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H
#define FAKE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                          const aclTensor* antiquantScale,
                                                          const aclTensor* antiquantOffsetOptional,
                                                          const aclTensor* quantScaleOptional,
                                                          const aclTensor* quantOffsetOptional,
                                                          const aclTensor* biasOptional, int antiquantGroupSize,
                                                          const aclTensor* y, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
aclnnStatus aclnnWeightQuantBatchMatmulV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
