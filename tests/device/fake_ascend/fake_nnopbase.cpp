// A stand-in for CANN's libnnopbase: aclCreateTensor / aclDestroyTensor with the documented signatures
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC2alpha003/apiref/appdevgapi/context/aclCreateTensor.md).
// Only contiguous ND tensors are accepted: what kope's library baselines create.
#include "fake_aclnn_internal.h"

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  if ((viewDimsNum && !viewDims) || format != ACL_FORMAT_ND || (storageDimsNum && !storageDims)) return nullptr;
  auto* t = new aclTensor;
  t->dims.assign(viewDims, viewDims + viewDimsNum);
  if (stride) t->strides.assign(stride, stride + viewDimsNum);
  int64_t want = 1;  // contiguous: the last dimension's stride is 1, each earlier one the product of those after
  for (uint64_t i = viewDimsNum; i-- > 0;) {
    if (stride && stride[i] != want && t->dims[i] != 1) {
      delete t;
      return nullptr;
    }
    want *= t->dims[i];
  }
  t->dtype = dataType;
  t->offset = offset;
  t->data = tensorData;
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}

}  // extern "C"
