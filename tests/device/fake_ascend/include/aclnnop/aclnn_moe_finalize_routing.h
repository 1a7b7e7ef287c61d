/* A stand-in for CANN's aclnnop/aclnn_moe_finalize_routing.h: the two-phase aclnnMoeFinalizeRouting call with the
   documented signature (CANN ops-transformer, moe/moe_finalize_routing/docs/aclnnMoeFinalizeRouting.md; the
   hiascend API reference's aclnnMoeFinalizeRouting page). For contract tests only;
   tests/device/fake_ascend/fake_opapi_g3.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H
#define FAKE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(const aclTensor* expandedX, const aclTensor* x1,
                                                    const aclTensor* x2Optional, const aclTensor* bias,
                                                    const aclTensor* scales, const aclTensor* expandedRowIdx,
                                                    const aclTensor* expandedExpertIdx, const aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnMoeFinalizeRouting(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
