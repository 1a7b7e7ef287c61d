/* A stand-in for CANN's aclnnop/aclnn_grid_sampler3d.h: the two-phase aclnnGridSampler3D call with the documented
   signature (https://gitcode.com/cann/ops-cv/blob/master/image/grid_sample/docs/aclnnGridSampler3D_en.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GRID_SAMPLER3D_H
#define FAKE_ACLNNOP_ACLNN_GRID_SAMPLER3D_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGridSampler3DGetWorkspaceSize(const aclTensor* input, const aclTensor* grid, int64_t interpolationMode,
                                               int64_t paddingMode, bool alignCorners, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGridSampler3D(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
