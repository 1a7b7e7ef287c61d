/* A stand-in for CANN's aclnnop/aclnn_slice_v2.h: the two-phase aclnnSliceV2 call with the
   documented signature (https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/API/aolapi/context/aclnnSliceV2.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_SLICE_V2_H
#define FAKE_ACLNNOP_ACLNN_SLICE_V2_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts, const aclIntArray* ends,
                                         const aclIntArray* axes, const aclIntArray* steps, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSliceV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
