/* A stand-in for CANN's aclnnop/aclnn_apply_rotary_pos_emb.h: the two-phase aclnnApplyRotaryPosEmb call with the
   documented signature (https://gitcode.com/cann/ops-transformer/blob/master/posembedding/apply_rotary_pos_emb/docs/
   aclnnApplyRotaryPosEmb_en.md). For contract tests only; tests/device/fake_ascend/fake_opapi_l3.cpp computes it on
   the host. */
#ifndef FAKE_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H
#define FAKE_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef, const aclTensor* cos,
                                                   const aclTensor* sin, int64_t layout, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
aclnnStatus aclnnApplyRotaryPosEmb(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
