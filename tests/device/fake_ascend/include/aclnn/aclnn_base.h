/* A stand-in for CANN's aclnn/aclnn_base.h: what every aclnnop header builds on. For contract tests only. */
#ifndef FAKE_ACLNN_ACLNN_BASE_H
#define FAKE_ACLNN_ACLNN_BASE_H
#include "aclnn/acl_meta.h"
#endif
