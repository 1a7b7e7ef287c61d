// Ascend library baseline for quant_matmul: CANN's aclnnQuantMatmulV4 with int8 x1 [M, K] and x2 [K, N], an int32
// bias, a FLOAT32 per-channel scale and a FLOAT32 pertokenScaleOptional (out = (x1 @ x2 + bias) * scale *
// pertokenScale, no offset, neither input transposed), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulV4.md), built by
// the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. On Atlas A2/A3 the page's dtype
// table gives that combination FLOAT16 or BFLOAT16 out only: the operator's first phase refuses the task's fp32
// outputs (161002), and those cases are timed against the naive baseline.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x1 = kope_acl(a->inputs[0]);
  aclTensor* x2 = kope_acl(a->inputs[1]);
  aclTensor* scale = kope_acl(a->inputs[2]);
  aclTensor* pertoken = kope_acl(a->inputs[3]);
  aclTensor* bias = kope_acl(a->inputs[4]);
  aclTensor* out = kope_acl(a->outputs[0]);
  const aclnnStatus st =
      aclnnQuantMatmulV4GetWorkspaceSize(x1, x2, scale, nullptr, pertoken, bias, false, false, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnQuantMatmulV4, "aclnnQuantMatmulV4");
  for (aclTensor* t : {x1, x2, scale, pertoken, bias, out}) aclDestroyTensor(t);
  return rc;
}
