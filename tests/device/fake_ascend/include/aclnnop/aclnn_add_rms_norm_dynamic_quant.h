/* A stand-in for CANN's aclnnop/aclnn_add_rms_norm_dynamic_quant.h: the two-phase aclnnAddRmsNormDynamicQuant call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/norm/add_rms_norm_dynamic_quant/docs/aclnnAddRmsNormDynamicQuant.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_H
#define FAKE_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddRmsNormDynamicQuantGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                        const aclTensor* gamma,
                                                        const aclTensor* smoothScale1Optional,
                                                        const aclTensor* smoothScale2Optional, double epsilon,
                                                        aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
                                                        aclTensor* scale1Out, aclTensor* scale2Out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAddRmsNormDynamicQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
