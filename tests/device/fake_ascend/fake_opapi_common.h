// What the fake libopapi's operator files share (fake_opapi.cpp, fake_opapi_g3.cpp, fake_opapi_l1.cpp,
// fake_opapi_l2.cpp, fake_opapi_l3.cpp): the two phases' common ends.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "acl/acl.h"
#include "fake_aclnn_internal.h"

namespace {

// A tensor's elements as T, from its offset on (aclTensor::f32() for fp32).
template <class T>
T* at(const aclTensor* t) {
  return static_cast<T*>(t->data) + t->offset;
}
inline int32_t* i32(const aclTensor* t) { return at<int32_t>(t); }
inline int64_t* i64(const aclTensor* t) { return at<int64_t>(t); }

bool fails(const char* op) {
  const char* f = std::getenv("FAKE_ACLNN_FAIL");
  return f && std::strcmp(f, op) == 0;
}

// The first phase's common end: the executor, its workspace size, and the run.
aclnnStatus make(const char* op, uint64_t ws, std::function<void(void*)> run, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
  if (!workspaceSize || !executor) return ACLNN_ERR_PARAM_NULLPTR;
  if (fails(op)) return ACLNN_ERR_PARAM_INVALID;
  *executor = new aclOpExecutor{op, ws, std::move(run)};
  *workspaceSize = ws;
  return ACLNN_SUCCESS;
}

// The second phase: a workspace as large as the first phase asked for, a stream, then the run on the host.
aclnnStatus launch(void* workspace, uint64_t workspaceSize, aclOpExecutor* e, aclrtStream stream) {
  if (!e || !stream) return ACLNN_ERR_PARAM_NULLPTR;
  if (e->workspace && (!workspace || workspaceSize < e->workspace)) return ACLNN_ERR_PARAM_INVALID;
  fake_acl_record_launch(e->kernel.c_str(), 8);
  e->run(workspace);
  delete e;
  return ACLNN_SUCCESS;
}

}  // namespace
