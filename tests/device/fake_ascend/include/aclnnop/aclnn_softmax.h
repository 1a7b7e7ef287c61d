/* A stand-in for CANN's aclnnop/aclnn_softmax.h: the two-phase aclnnSoftmax call with the documented signature
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/aclnnSoftmax.md).
   For contract tests only; tests/device/fake_ascend/fake_aclnn.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_SOFTMAX_H
#define FAKE_ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
