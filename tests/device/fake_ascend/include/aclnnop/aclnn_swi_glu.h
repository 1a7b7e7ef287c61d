/* A stand-in for CANN's aclnnop/aclnn_swi_glu.h: the two-phase aclnnSwiGlu call with the
   documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/82RC1/API/aolapi/context/aclnnSwiGlu.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l1.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_SWI_GLU_H
#define FAKE_ACLNNOP_ACLNN_SWI_GLU_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor);
aclnnStatus aclnnSwiGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
