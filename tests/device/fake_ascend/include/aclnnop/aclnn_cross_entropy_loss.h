/* A stand-in for CANN's aclnnop/aclnn_cross_entropy_loss.h: the two-phase aclnnCrossEntropyLoss call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/loss/cross_entropy_loss/docs/
   aclnnCrossEntropyLoss.md). For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the
   host. */
#ifndef FAKE_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H
#define FAKE_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                  const aclTensor* weightOptional, char* reductionOptional,
                                                  int64_t ignoreIndex, double labelSmoothing,
                                                  double lseSquareScaleForZloss, bool returnZloss,
                                                  const aclTensor* lossOut, const aclTensor* logProbOut,
                                                  const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
