/* A stand-in for CANN's aclnnop/aclnn_permute.h: the two-phase aclnnPermute call with the
   documented signature (https://gitcode.com/cann/ops-math/blob/master/conversion/transpose/docs/aclnnPermute.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_PERMUTE_H
#define FAKE_ACLNNOP_ACLNN_PERMUTE_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
