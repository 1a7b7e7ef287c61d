// What kope's Ascend library baselines (resources/library/ascend/<task>.cpp) share: a kope tensor as an aclTensor,
// and the second phase of an aclnn call with its workspace. Host code, built by the Ascend device's "library" mode
// against the toolkit's include/ and linked with -lopapi -lnnopbase -lascendcl.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "kope_ascend.h"

// The kope tensor as an aclTensor over the same device memory (contiguous, ND unless an operator wants its layout
// named, as NCHW); aclDestroyTensor frees only the descriptor.
static aclTensor* kope_acl(const kope_tensor& t, aclFormat format = ACL_FORMAT_ND) {
  aclDataType dt = ACL_FLOAT;
  switch (t.dtype) {
    case KOPE_F16: dt = ACL_FLOAT16; break;
    case KOPE_BF16: dt = ACL_BF16; break;
    case KOPE_F64: dt = ACL_DOUBLE; break;
    case KOPE_I32: dt = ACL_INT32; break;
    case KOPE_I64: dt = ACL_INT64; break;
    case KOPE_U8: dt = ACL_UINT8; break;
    case KOPE_I8: dt = ACL_INT8; break;
    default: break;
  }
  std::vector<int64_t> dims(t.shape, t.shape + t.ndim), strides(t.ndim, 1);
  for (int i = t.ndim - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
  return aclCreateTensor(dims.data(), dims.size(), dt, strides.data(), 0, format, dims.data(), dims.size(), t.data);
}

// Bytes per element of a kope_dtype, and the bytes a contiguous tensor spans.
static inline uint64_t kope_elem_bytes(int32_t d) {
  static const uint64_t size[] = {4, 8, 2, 2, 4, 8, 1, 1};  // by enum kope_dtype
  return size[d];
}
static inline uint64_t kope_bytes(const kope_tensor& t) { return static_cast<uint64_t>(t.numel) * kope_elem_bytes(t.dtype); }

// t seen with other dims (the same count or fewer elements, contiguous), from element `first` on: a [S, D] table as
// the [1, S, 1, D] an operator wants, or one batch of a [B, ...] tensor.
static inline kope_tensor kope_view(const kope_tensor& t, std::initializer_list<int64_t> dims, int64_t first = 0) {
  kope_tensor v = t;
  v.ndim = 0;
  v.numel = 1;
  for (int64_t d : dims) v.shape[v.ndim++] = d, v.numel *= d;
  v.data = static_cast<char*>(t.data) + first * kope_elem_bytes(t.dtype);
  return v;
}

// Device memory kept in `block` across calls and grown when a call needs more than `have` bytes; false when
// aclrtMalloc fails.
static inline bool kope_grow(void*& block, uint64_t& have, uint64_t need) {
  if (need <= have) return true;
  if (block) aclrtFree(block);
  block = nullptr;
  have = 0;
  if (aclrtMalloc(&block, need, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
  have = need;
  return true;
}

// Scratch device memory of the library source, apart from the operator's workspace (kept across calls); nullptr
// when it cannot be had.
static inline void* kope_scratch(uint64_t need) {
  static void* block = nullptr;
  static uint64_t have = 0;
  return kope_grow(block, have, need) ? block : nullptr;
}

// An fp32 value in device memory, for an operator that takes a scalar as a one-element tensor: written only when
// the value changes, so a timed call copies nothing. nullptr when it cannot be had.
static inline void* kope_device_float(float value) {
  static void* block = nullptr;
  static uint64_t have = 0;
  static bool written = false;
  static float now = 0;
  if (!kope_grow(block, have, sizeof(float))) {
    std::fprintf(stderr, "aclrtMalloc of a scalar's device copy failed\n");
    return nullptr;
  }
  if (!written || now != value) {
    written = aclrtMemcpy(block, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    if (!written) {
      std::fprintf(stderr, "aclrtMemcpy of a scalar to the device failed\n");
      return nullptr;
    }
    now = value;
  }
  return block;
}

// The optimised causal mask that CANN's attention operators take in sparse modes 2 and 3 (leftUpCausal and
// rightDownCausal; their pages ask for a 2048 x 2048 lower-triangular one, 1 where a position is masked): UINT8
// [2048, 2048], 1 above the diagonal and 0 on and below it, written to device memory on the first call and kept, so a
// timed call copies nothing. nullptr when it cannot be had.
static inline aclTensor* kope_causal_mask_2048() {
  static void* block = nullptr;
  static uint64_t have = 0;
  static bool written = false;
  const int64_t n = 2048, dims[2] = {n, n}, strides[2] = {n, 1};
  if (!kope_grow(block, have, n * n)) {
    std::fprintf(stderr, "aclrtMalloc of the causal mask failed\n");
    return nullptr;
  }
  if (!written) {
    std::vector<uint8_t> m(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) m[i * n + j] = 1;
    written = aclrtMemcpy(block, m.size(), m.data(), m.size(), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    if (!written) {
      std::fprintf(stderr, "aclrtMemcpy of the causal mask to the device failed\n");
      return nullptr;
    }
  }
  return aclCreateTensor(dims, 2, ACL_UINT8, strides, 0, ACL_FORMAT_ND, dims, 2, block);
}

// The second phase with its workspace (device memory, kept across calls and grown when a call asks for more).
static int kope_run(aclnnStatus st, uint64_t ws, aclOpExecutor* ex, void* stream,
                    aclnnStatus (*op)(void*, uint64_t, aclOpExecutor*, aclrtStream), const char* name) {
  static void* workspace = nullptr;
  static uint64_t have = 0;
  if (st != ACLNN_SUCCESS) {
    std::fprintf(stderr, "%sGetWorkspaceSize: %d\n", name, st);
    return st;
  }
  if (!kope_grow(workspace, have, ws)) return 207001;
  st = op(ws ? workspace : nullptr, ws, ex, stream);
  if (st != ACLNN_SUCCESS) std::fprintf(stderr, "%s: %d\n", name, st);
  return st;
}

// n kope tensors from `first` on as an aclTensorList (the foreach operators); aclDestroyTensorList frees the list
// and its tensors.
static inline aclTensorList* kope_acl_list(const kope_tensor* first, int n) {
  std::vector<aclTensor*> ts;
  for (int i = 0; i < n; ++i) ts.push_back(kope_acl(first[i]));
  return aclCreateTensorList(ts.data(), ts.size());
}
