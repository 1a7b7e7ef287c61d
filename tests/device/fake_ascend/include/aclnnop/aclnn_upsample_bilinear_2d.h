/* A stand-in for CANN's aclnnop/aclnn_upsample_bilinear_2d.h: the two-phase aclnnUpsampleBilinear2d call with the
   documented signature
   (https://gitcode.com/cann/ops-cv/blob/master/image/upsample_bilinear2d/docs/aclnnUpsampleBilinear2d.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H
#define FAKE_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                    const bool alignCorners, const double scalesH,
                                                    const double scalesW, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
aclnnStatus aclnnUpsampleBilinear2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
