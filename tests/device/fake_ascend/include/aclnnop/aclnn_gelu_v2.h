/* A stand-in for CANN's aclnnop/aclnn_gelu_v2.h: the two-phase aclnnGeluV2 call with the documented signature
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/aclnnGeluV2.md).
   For contract tests only; tests/device/fake_ascend/fake_aclnn.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GELU_V2_H
#define FAKE_ACLNNOP_ACLNN_GELU_V2_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
