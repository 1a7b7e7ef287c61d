/* A stand-in for CANN's aclnnop/aclnn_convolution.h: the two-phase aclnnConvolution call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/conv/convolution_forward/docs/aclnnConvolution.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_CONVOLUTION_H
#define FAKE_ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups,
                                             aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize,
                                             aclOpExecutor** executor);
aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor,
                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
