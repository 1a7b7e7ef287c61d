/* A stand-in for CANN's aclnnop/aclnn_scatter_add.h: the two-phase aclnnScatterAdd call with the documented
   signature (https://gitcode.com/cann/ops-nn/blob/master/index/scatter_add/docs/aclnnScatterAdd.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_SCATTER_ADD_H
#define FAKE_ACLNNOP_ACLNN_SCATTER_ADD_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                            const aclTensor* src, aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor);
aclnnStatus aclnnScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
