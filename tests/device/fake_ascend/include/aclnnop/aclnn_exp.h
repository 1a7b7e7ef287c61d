/* A stand-in for CANN's aclnnop/aclnn_exp.h: the two-phase aclnnExp call with the documented signature
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/aclnnExp&aclnnInplaceExp.md).
   For contract tests only; tests/device/fake_ascend/fake_aclnn.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_EXP_H
#define FAKE_ACLNNOP_ACLNN_EXP_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
