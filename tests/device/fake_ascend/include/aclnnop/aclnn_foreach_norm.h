/* A stand-in for CANN's aclnnop/aclnn_foreach_norm.h: the two-phase aclnnForeachNorm call with the
   documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/81RC1/apiref/aolapi/context/aclnnForeachNorm.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l1.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_FOREACH_NORM_H
#define FAKE_ACLNNOP_ACLNN_FOREACH_NORM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnForeachNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
