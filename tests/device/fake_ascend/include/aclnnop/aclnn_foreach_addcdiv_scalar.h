/* A stand-in for CANN's aclnnop/aclnn_foreach_addcdiv_scalar.h: the two-phase aclnnForeachAddcdivScalar call with the
   documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/81RC1/apiref/aolapi/context/aclnnForeachAddcdivScalar.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l1.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_H
#define FAKE_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnForeachAddcdivScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
aclnnStatus aclnnForeachAddcdivScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
