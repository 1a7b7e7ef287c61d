// What the fake libopapi's operator files share (fake_opapi.cpp, fake_opapi_g3.cpp, fake_opapi_l1.cpp,
// fake_opapi_l2.cpp, fake_opapi_l3.cpp): the two phases' common ends.
#pragma once

#include <cmath>
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

// A FLOAT16 or BFLOAT16 tensor's element e as a float.
inline float half_at(const aclTensor* t, int64_t e) {
  const uint16_t h = at<uint16_t>(t)[e];
  uint32_t bits;
  if (t->dtype == ACL_BF16) {
    bits = static_cast<uint32_t>(h) << 16;
  } else {
    const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) bits = sign | 0x7f800000u | (man << 13);
    else if (exp != 0) bits = sign | ((exp + 112) << 23) | (man << 13);
    else if (man == 0) bits = sign;
    else {  // a denormal: normalise it
      int e = -1;
      uint32_t m = man;
      do ++e, m <<= 1; while (!(m & 0x400));
      bits = sign | ((112 - e) << 23) | ((m & 0x3ff) << 13);
    }
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}


// A float rounded to FLOAT16 or BFLOAT16 (to nearest, ties to even; NaN stays NaN), as the operators write them.
inline uint16_t to_half(float f, aclDataType dtype) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  if (dtype == ACL_BF16) {
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);
    return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
  }
  const uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0));
  if (ax >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // 65520 and above round to inf
  if (ax < 0x38800000u) {  // below 2^-14: a denormal, round(|f| * 2^24) units of 2^-24
    float a;
    std::memcpy(&a, &ax, sizeof a);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t h = ((((ax >> 23) - 112) << 10) | ((ax & 0x7fffffu) >> 13));
  const uint32_t rest = ax & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// Bytes per element of the dtypes the fakes move (0 for the others).
inline int64_t elem_bytes(aclDataType d) {
  switch (d) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: return 8;
    default: return 0;
  }
}

// A FLOAT, FLOAT16 or BFLOAT16 tensor's element e as a float, and a value written into one (rounded to fp32, then
// to the half type).
inline float real_at(const aclTensor* t, int64_t e) { return t->dtype == ACL_FLOAT ? t->f32()[e] : half_at(t, e); }
inline void set_real(const aclTensor* t, int64_t e, double v) {
  if (t->dtype == ACL_FLOAT) t->f32()[e] = static_cast<float>(v);
  else at<uint16_t>(t)[e] = to_half(static_cast<float>(v), t->dtype);
}
inline bool is_real(const aclTensor* t) {
  return t->dtype == ACL_FLOAT || t->dtype == ACL_FLOAT16 || t->dtype == ACL_BF16;
}

}  // namespace
