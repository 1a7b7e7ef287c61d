/* A stand-in for CANN's aclnnop/aclnn_unique2.h: the two-phase aclnnUnique2 call with the documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnUnique2.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_UNIQUE2_H
#define FAKE_ACLNNOP_ACLNN_UNIQUE2_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, bool returnCounts,
                                         aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnUnique2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
