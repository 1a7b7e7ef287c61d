// Ascend library baseline for weight_quant_batch_matmul: CANN's aclnnWeightQuantBatchMatmulV2 (per-channel antiquant with
// offset, bias present, antiquantGroupSize 0, no output quantisation), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnWeightQuantBatchMatmulV2.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "kope_ascend.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

// The kope tensor as an aclTensor over the same device memory (contiguous ND); aclDestroyTensor frees only the
// descriptor.
static aclTensor* kope_acl(const kope_tensor& t) {
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
  return aclCreateTensor(dims.data(), dims.size(), dt, strides.data(), 0, ACL_FORMAT_ND, dims.data(), dims.size(), t.data);
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
  if (ws > have) {
    if (workspace) aclrtFree(workspace);
    workspace = nullptr;
    have = 0;
    if (aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 207001;
    have = ws;
  }
  st = op(ws ? workspace : nullptr, ws, ex, stream);
  if (st != ACLNN_SUCCESS) std::fprintf(stderr, "%s: %d\n", name, st);
  return st;
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* t[6];
  for (int i = 0; i < 5; ++i) t[i] = kope_acl(a->inputs[i]);  // x, weight, antiquant_scale, antiquant_offset, bias
  t[5] = kope_acl(a->outputs[0]);
  const aclnnStatus st = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(t[0], t[1], t[2], t[3], nullptr, nullptr, t[4], 0,
                                                                       t[5], &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnWeightQuantBatchMatmulV2, "aclnnWeightQuantBatchMatmulV2");
  for (aclTensor* x : t) aclDestroyTensor(x);
  return rc;
}
