/* A stand-in for CANN's aclnn/acl_meta.h (libnnopbase): the opaque aclTensor and aclOpExecutor, aclnnStatus, and
   aclCreateTensor / aclDestroyTensor with the documented signatures
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC2alpha003/apiref/appdevgapi/context/aclCreateTensor.md).
   For contract tests only: tensors live in host memory, as the fake runtime's device memory does. */
#ifndef FAKE_ACLNN_ACL_META_H
#define FAKE_ACLNN_ACL_META_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclnnStatus aclDestroyTensor(const aclTensor* tensor);

#ifdef __cplusplus
}
#endif

#endif
