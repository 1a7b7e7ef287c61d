/* A stand-in for CANN's acl/acl_base.h: the data types and formats aclCreateTensor takes, with CANN's values
   (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclcppdevg_03_0011.html,
   aclDataType; ND is format 2, NCDHW 30). For contract tests only. */
#ifndef FAKE_ACL_ACL_BASE_H
#define FAKE_ACL_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtStream;
typedef enum {
  ACL_DT_UNDEFINED = -1, ACL_FLOAT = 0, ACL_FLOAT16 = 1, ACL_INT8 = 2, ACL_INT32 = 3, ACL_UINT8 = 4, ACL_INT16 = 6,
  ACL_UINT16 = 7, ACL_UINT32 = 8, ACL_INT64 = 9, ACL_UINT64 = 10, ACL_DOUBLE = 11, ACL_BOOL = 12, ACL_BF16 = 27
} aclDataType;
typedef enum {
  ACL_FORMAT_UNDEFINED = -1, ACL_FORMAT_NCHW = 0, ACL_FORMAT_NHWC = 1, ACL_FORMAT_ND = 2, ACL_FORMAT_NCDHW = 30
} aclFormat;

#ifdef __cplusplus
}
#endif

#endif
