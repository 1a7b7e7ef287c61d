/* A stand-in for CANN's aclnnop/aclnn_group_norm.h: the two-phase aclnnGroupNorm call with the documented signature
   (https://gitcode.com/cann/ops-nn/blob/master/norm/group_norm/docs/aclnnGroupNorm.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l2.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GROUP_NORM_H
#define FAKE_ACLNNOP_ACLNN_GROUP_NORM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor* out,
                                           aclTensor* meanOut, aclTensor* rstdOut, uint64_t* workspaceSize,
                                           aclOpExecutor** executor);
aclnnStatus aclnnGroupNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
