/* A stand-in for CANN's aclnnop/aclnn_moe_gating_top_k_softmax.h: the two-phase aclnnMoeGatingTopKSoftmax call with
   the documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnMoeGatingTopKSoftmax.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H
#define FAKE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* finishedOptional, int64_t k,
                                                      const aclTensor* yOut, const aclTensor* expertIdxOut,
                                                      const aclTensor* rowIdxOut, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
aclnnStatus aclnnMoeGatingTopKSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
