/* A stand-in for CANN's aclnnop/aclnn_gru.h: the two-phase aclnnGRU call with the documented signature
   (https://gitcode.com/cann/ops-nn/blob/master/rnn/gru/docs/aclnnGRU.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_GRU_H
#define FAKE_ACLNNOP_ACLNN_GRU_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnGRUGetWorkspaceSize(const aclTensor* input, const aclTensorList* params, const aclTensor* hx,
                                     const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double dropout,
                                     bool train, bool bidirection, bool batchFirst, aclTensor* output, aclTensor* hy,
                                     aclTensorList* rOut, aclTensorList* zOut, aclTensorList* nOut,
                                     aclTensorList* hnOut, aclTensorList* hOut, uint64_t* workspaceSize,
                                     aclOpExecutor** executor);
aclnnStatus aclnnGRU(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
