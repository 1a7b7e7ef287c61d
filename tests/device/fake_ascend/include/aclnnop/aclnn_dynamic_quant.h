/* A stand-in for CANN's aclnnop/aclnn_dynamic_quant.h: the two-phase aclnnDynamicQuant call with the documented
   signature (https://gitcode.com/cann/ops-nn/blob/master/quant/dynamic_quant/docs/aclnnDynamicQuant_en.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_DYNAMIC_QUANT_H
#define FAKE_ACLNNOP_ACLNN_DYNAMIC_QUANT_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                              const aclTensor* yOut, const aclTensor* scaleOut,
                                              uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnDynamicQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
