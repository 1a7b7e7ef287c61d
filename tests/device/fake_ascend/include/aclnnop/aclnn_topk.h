/* A stand-in for CANN's aclnnop/aclnn_topk.h: the two-phase aclnnTopk call with the
   documented signature (https://gitcode.com/cann/ops-math/blob/master/math/topk/docs/aclnnTopk.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_TOPK_H
#define FAKE_ACLNNOP_ACLNN_TOPK_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest, bool sorted,
                                      aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize,
                                      aclOpExecutor** executor);
aclnnStatus aclnnTopk(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
