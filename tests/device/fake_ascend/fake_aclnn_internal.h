// What the fake libnnopbase and libopapi share: the aclTensor, aclTensorList, aclScalar and aclOpExecutor behind
// CANN's opaque types.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  std::vector<int64_t> dims, strides;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;  // the storage format it was created with (ND, NCHW or NHWC)
  int64_t offset = 0;
  void* data = nullptr;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
  float* f32() const { return static_cast<float*>(data) + offset; }
};

// A list owns its tensors: aclDestroyTensorList frees them, as CANN's documentation says it does.
struct aclTensorList {
  std::vector<aclTensor*> tensors;
  uint64_t size() const { return tensors.size(); }
  const aclTensor* operator[](uint64_t i) const { return tensors[i]; }
};

// A host value copied at creation, kept in the widest type of its kind.
struct aclScalar {
  aclDataType dtype = ACL_FLOAT;
  double real = 0;     // ACL_FLOAT, ACL_DOUBLE
  int64_t integer = 0; // ACL_INT32, ACL_INT64
  double value() const { return dtype == ACL_FLOAT || dtype == ACL_DOUBLE ? real : static_cast<double>(integer); }
};

// A host array of integers copied at creation (an operator's sizes, axes).
struct aclIntArray {
  std::vector<int64_t> values;
};

// A host array of booleans copied at creation (an operator's output mask).
struct aclBoolArray {
  std::vector<bool> values;
};

// The executor runs once, on the host, and is freed by the second phase, as CANN's is unless made repeatable.
struct aclOpExecutor {
  std::string kernel;          // what the fake runtime records as launched (and the fake msprof times)
  uint64_t workspace = 0;      // the bytes the first phase asked for; the second checks it got them
  std::function<void(void* workspace)> run;
};
