/* A stand-in for CANN's aclnnop/aclnn_gcd.h: the two-phase aclnnGcd call with the
   documented signature
   (https://www.hiascend.com/document/detail/zh/canncommercial/82RC1/API/aolapi/context/aclnnGcd.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l1.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GCD_H
#define FAKE_ACLNNOP_ACLNN_GCD_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGcdGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGcd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
