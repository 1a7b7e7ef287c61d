/* A stand-in for CANN's aclnnop/aclnn_quant_matmul_v4.h: the two-phase aclnnQuantMatmulV4 call with the
   documented signature (https://gitcode.com/cann/ops-nn/blob/master/matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulV4.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_g3b.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H
#define FAKE_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                                               const aclTensor* offset, const aclTensor* pertokenScaleOptional,
                                               const aclTensor* bias, bool transposeX1, bool transposeX2,
                                               const aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
aclnnStatus aclnnQuantMatmulV4(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
