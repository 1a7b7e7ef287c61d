// A stand-in for CANN's libnnopbase: the create / destroy calls of aclTensor, aclTensorList, aclScalar, aclIntArray
// and aclBoolArray with the documented signatures (include/aclnn/acl_meta.h cites each page). Only contiguous tensors
// in the ND, NCHW, NHWC and NCDHW formats are accepted (the format kept for the operators that check it): what kope's
// library baselines create; scalars only of the types the faked operators take.
#include "fake_aclnn_internal.h"

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  const bool known = format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW || format == ACL_FORMAT_NHWC ||
                     format == ACL_FORMAT_NCDHW;
  if ((viewDimsNum && !viewDims) || !known || (storageDimsNum && !storageDims)) return nullptr;
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
  t->format = format;
  t->offset = offset;
  t->data = tensorData;
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (!tensor || !viewDims || !viewDimsNum) return ACLNN_ERR_PARAM_NULLPTR;
  *viewDims = new int64_t[tensor->dims.empty() ? 1 : tensor->dims.size()];
  for (std::size_t i = 0; i < tensor->dims.size(); ++i) (*viewDims)[i] = tensor->dims[i];
  *viewDimsNum = tensor->dims.size();
  return ACLNN_SUCCESS;
}

// The documented size is a positive integer; a null entry is kept, for the operator to refuse.
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (!value || size == 0) return nullptr;
  auto* l = new aclTensorList;
  for (uint64_t i = 0; i < size; ++i) l->tensors.push_back(const_cast<aclTensor*>(value[i]));
  return l;
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  if (array)
    for (aclTensor* t : array->tensors) delete t;
  delete array;
  return ACLNN_SUCCESS;
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (!value) return nullptr;
  auto* s = new aclScalar;
  s->dtype = dataType;
  switch (dataType) {
    case ACL_FLOAT: s->real = *static_cast<const float*>(value); break;
    case ACL_DOUBLE: s->real = *static_cast<const double*>(value); break;
    case ACL_INT32: s->integer = *static_cast<const int32_t*>(value); break;
    case ACL_INT64: s->integer = *static_cast<const int64_t*>(value); break;
    default: delete s; return nullptr;
  }
  return s;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return ACLNN_SUCCESS;
}

// The documented size is a positive integer.
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (!value || size == 0) return nullptr;
  return new aclIntArray{std::vector<int64_t>(value, value + size)};
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

// The documented size is a positive integer.
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (!value || size == 0) return nullptr;
  return new aclBoolArray{std::vector<bool>(value, value + size)};
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

}  // extern "C"
