/* A stand-in for CANN's aclnnop/aclnn_argmax.h: the two-phase aclnnArgMax call with the documented signature
   (https://gitcode.com/cann/ops-math/blob/master/math/arg_max_v2/docs/aclnnArgMax.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l2.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_ARGMAX_H
#define FAKE_ACLNNOP_ACLNN_ARGMAX_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnArgMax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
