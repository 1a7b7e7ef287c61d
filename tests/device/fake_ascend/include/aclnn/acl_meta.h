/* A stand-in for CANN's aclnn/acl_meta.h (libnnopbase): the opaque aclTensor, aclTensorList, aclScalar and
   aclOpExecutor, aclnnStatus, and their create / destroy calls with the documented signatures
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC2alpha003/apiref/appdevgapi/context/aclCreateTensor.md;
   https://hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/operatorlist_0023.html,
   aclCreateTensorList; https://www.hiascend.com/document/detail/zh/canncommercial/850/API/aolapi/operatorlist_00028.html,
   aclDestroyTensorList, whose list owns its tensors;
   https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/910beta3/API/aolapi/operatorlist_00017.html,
   aclCreateScalar; https://hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/operatorlist_00025.html,
   aclDestroyScalar; https://www.hiascend.com/document/detail/en/canncommercial/850/API/aolapi/operatorlist_00016.html,
   aclCreateIntArray; https://www.hiascend.com/document/detail/en/canncommercial/850/API/aolapi/operatorlist_00024.html,
   aclDestroyIntArray; https://www.hiascend.com/document/detail/en/canncommercial/850/API/aolapi/operatorlist_00014.html,
   aclCreateBoolArray, to be used with aclDestroyBoolArray).
   For contract tests only: tensors live in host memory, as the fake runtime's device memory does. */
#ifndef FAKE_ACLNN_ACL_META_H
#define FAKE_ACLNN_ACL_META_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclBoolArray aclBoolArray;
typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER_TILING_ERROR 561002

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclnnStatus aclDestroyTensor(const aclTensor* tensor);
/* The tensor's view shape, in an array this call allocates and the caller frees with delete[] (as the documentation
   of aclGetViewShape says); after a data-dependent operator (aclnnUnique2) it is the shape the operator gave it. */
aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum);
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
aclnnStatus aclDestroyTensorList(const aclTensorList* array);
aclScalar* aclCreateScalar(void* value, aclDataType dataType);
aclnnStatus aclDestroyScalar(const aclScalar* scalar);
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclnnStatus aclDestroyIntArray(const aclIntArray* array);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);

#ifdef __cplusplus
}
#endif

#endif
