/* A stand-in for CANN's aclnnop/aclnn_cummin.h: the two-phase aclnnCummin call with the documented signature
   (https://gitcode.com/cann/ops-math/blob/master/math/cummin/docs/aclnnCummin.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l2.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_CUMMIN_H
#define FAKE_ACLNNOP_ACLNN_CUMMIN_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut, aclTensor* indicesOut,
                                        uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCummin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
