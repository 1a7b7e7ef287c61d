// Ascend library baseline for top_k: CANN's aclnnTopk along the last axis with largest and sorted true (values in
// descending order, int64 indices), the documented two-phase call
// (https://gitcode.com/cann/ops-math/blob/master/math/topk/docs/aclnnTopk.md), built by the Ascend device's
// "library" mode and linked with -lopapi -lnnopbase -lascendcl. Every case of the task is one the operator takes
// (FLOAT32, FLOAT16 and BFLOAT16 on Atlas A2/A3, k in [0, N], sorted true, the only value the page allows). Which of
// equal elements comes first is left open by the page as by torch; the task checks indices by what they point at.
// Where NaN goes is not documented: the task orders it above every number (torch's CPU rule), and a board that
// ordered it otherwise would have its special case reported by the library check.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_topk.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const int64_t k = a->outputs[0].shape[1];
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* self = kope_acl(a->inputs[0]);
  aclTensor* values = kope_acl(a->outputs[0]);
  aclTensor* indices = kope_acl(a->outputs[1]);
  const aclnnStatus st = aclnnTopkGetWorkspaceSize(self, k, -1, true, true, values, indices, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnTopk, "aclnnTopk");
  aclDestroyTensor(self);
  aclDestroyTensor(values);
  aclDestroyTensor(indices);
  return rc;
}
