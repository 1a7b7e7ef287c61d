// Ascend library baseline for dynamic_quant: CANN's aclnnDynamicQuant without smooth scales (per row, scaleOut =
// max |x| / 127 in fp32, yOut = round(x / scaleOut) as int8), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/quant/dynamic_quant/docs/aclnnDynamicQuant_en.md), built by the
// Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. The operator takes x in FLOAT16 and
// BFLOAT16 only: on the task's fp32 cases its first phase refuses the call (161002) and those cases are timed
// against the naive baseline alone.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_dynamic_quant.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* scale = kope_acl(a->outputs[1]);
  st = aclnnDynamicQuantGetWorkspaceSize(x, nullptr, y, scale, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnDynamicQuant, "aclnnDynamicQuant");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  aclDestroyTensor(scale);
  return rc;
}
