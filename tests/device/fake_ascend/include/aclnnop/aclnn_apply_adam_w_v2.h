/* A stand-in for CANN's aclnnop/aclnn_apply_adam_w_v2.h: the two-phase aclnnApplyAdamWV2 call with the documented
   signature (https://gitcode.com/cann/ops-nn/blob/master/optim/apply_adam_w_v2/docs/aclnnApplyAdamWV2_en.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_APPLY_ADAM_W_V2_H
#define FAKE_ACLNNOP_ACLNN_APPLY_ADAM_W_V2_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnApplyAdamWV2GetWorkspaceSize(aclTensor* varRef, aclTensor* mRef, aclTensor* vRef,
                                              aclTensor* maxGradNormOptionalRef, const aclTensor* grad,
                                              const aclTensor* step, float lr, float beta1, float beta2,
                                              float weightDecay, float eps, bool amsgrad, bool maximize,
                                              uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnApplyAdamWV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
