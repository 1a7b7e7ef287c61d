// Ascend library baseline for cummin: CANN's aclnnCummin (values = the running minimum of x along dim 1 of
// [A, R, B], indices = where it was found, int64), the documented two-phase call
// (https://gitcode.com/cann/ops-math/blob/master/math/cummin/docs/aclnnCummin.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. The documentation
// names no tie rule; the published kernel (ops-math math/cummin/op_kernel/arch35/cummin.h) keeps the running
// minimum only while it is strictly less than the next value, so equal values move the index to the latest, as
// the task asks. By the same rule a number after a NaN replaces it, where the task keeps the NaN: on the cases
// special and special_mid the baseline may miss the golden, which the report then says.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_cummin.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* values = kope_acl(a->outputs[0]);
  aclTensor* indices = kope_acl(a->outputs[1]);
  st = aclnnCumminGetWorkspaceSize(x, 1, values, indices, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnCummin, "aclnnCummin");
  aclDestroyTensor(x);
  aclDestroyTensor(values);
  aclDestroyTensor(indices);
  return rc;
}
