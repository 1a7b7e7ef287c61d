/* A stand-in for CANN's aclnnop/aclnn_rms_norm.h: the two-phase aclnnRmsNorm call with the documented signature
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/aclnnRmsNorm.md).
   For contract tests only; tests/device/fake_ascend/fake_aclnn.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_RMS_NORM_H
#define FAKE_ACLNNOP_ACLNN_RMS_NORM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
