/* A stand-in for CANN's aclnnop/aclnn_dequant_swiglu_quant.h: the two-phase aclnnDequantSwigluQuant call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuant.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H
#define FAKE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScaleOptional,
                                                    const aclTensor* activationScaleOptional,
                                                    const aclTensor* biasOptional,
                                                    const aclTensor* quantScaleOptional,
                                                    const aclTensor* quantOffsetOptional,
                                                    const aclTensor* groupIndexOptional, bool activateLeft,
                                                    char* quantModeOptional, const aclTensor* yOut,
                                                    const aclTensor* scaleOut, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
aclnnStatus aclnnDequantSwigluQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
