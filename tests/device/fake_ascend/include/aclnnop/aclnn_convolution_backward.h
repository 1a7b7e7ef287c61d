/* A stand-in for CANN's aclnnop/aclnn_convolution_backward.h: the two-phase aclnnConvolutionBackward call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/conv/convolution_backward/docs/aclnnConvolutionBackward.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H
#define FAKE_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input,
                                                     const aclTensor* weight, const aclIntArray* biasSizes,
                                                     const aclIntArray* stride, const aclIntArray* padding,
                                                     const aclIntArray* dilation, bool transposed,
                                                     const aclIntArray* outputPadding, int groups,
                                                     const aclBoolArray* outputMask, int8_t cubeMathType,
                                                     aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
