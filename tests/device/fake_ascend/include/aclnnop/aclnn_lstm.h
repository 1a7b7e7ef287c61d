/* A stand-in for CANN's aclnnop/aclnn_lstm.h: the two-phase aclnnLSTM call with the documented signature
   (https://gitcode.com/cann/ops-nn/blob/master/rnn/dynamic_rnn/docs/aclnnLSTM.md).
   For contract tests only; tests/device/fake_ascend/fake_opapi_l4.cpp computes it on the host. */
#ifndef FAKE_ACLNNOP_ACLNN_LSTM_H
#define FAKE_ACLNNOP_ACLNN_LSTM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnLSTMGetWorkspaceSize(const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                                      const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double dropout,
                                      bool train, bool bidirectional, bool batchFirst, aclTensor* output,
                                      aclTensor* hy, aclTensor* cy, aclTensorList* iOut, aclTensorList* jOut,
                                      aclTensorList* fOut, aclTensorList* oOut, aclTensorList* hOut,
                                      aclTensorList* cOut, aclTensorList* tanhCOut, uint64_t* workspaceSize,
                                      aclOpExecutor** executor);
aclnnStatus aclnnLSTM(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
