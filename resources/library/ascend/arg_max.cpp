// Ascend library baseline for arg_max: CANN's aclnnArgMax (out = the index of the maximum of x along dim 1 of
// [A, R, B], keepdim false, int64 out), the documented two-phase call
// (https://gitcode.com/cann/ops-math/blob/master/math/arg_max_v2/docs/aclnnArgMax.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_argmax.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnArgMaxGetWorkspaceSize(x, 1, false, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnArgMax, "aclnnArgMax");
  aclDestroyTensor(x);
  aclDestroyTensor(out);
  return rc;
}
