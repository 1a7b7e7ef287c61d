// Ascend library baseline for weight_quant_batch_matmul: CANN's aclnnWeightQuantBatchMatmulV2 (per-channel antiquant with
// offset, bias present, antiquantGroupSize 0, no output quantisation), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnWeightQuantBatchMatmulV2.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

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
