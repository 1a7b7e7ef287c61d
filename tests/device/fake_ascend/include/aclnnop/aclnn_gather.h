/* A stand-in for CANN's aclnnop/aclnn_gather.h: the two-phase aclnnGather call with the documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnGather.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l2.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GATHER_H
#define FAKE_ACLNNOP_ACLNN_GATHER_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGather(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
