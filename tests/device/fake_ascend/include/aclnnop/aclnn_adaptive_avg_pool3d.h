/* A stand-in for CANN's aclnnop/aclnn_adaptive_avg_pool3d.h: the two-phase aclnnAdaptiveAvgPool3d call with the
   documented signature (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/API/aolapi/context/aclnnAdaptiveAvgPool3d.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H
#define FAKE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
aclnnStatus aclnnAdaptiveAvgPool3d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
