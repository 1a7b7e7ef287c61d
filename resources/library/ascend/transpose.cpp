// Ascend library baseline for transpose: CANN's aclnnPermute (out's axis k is self's axis dims[k], out dense), the
// documented two-phase call (https://gitcode.com/cann/ops-math/blob/master/conversion/transpose/docs/aclnnPermute.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. dims is the task's
// permutation p0..p3; every case of the task is one the operator takes (FLOAT, FLOAT16, BFLOAT16 and INT8 are among
// its Atlas A2/A3 dtypes, rank 4 of at most 8, ND).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_permute.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  static const char* const names[4] = {"p0", "p1", "p2", "p3"};
  int64_t p[4];
  for (int k = 0; k < 4; ++k) p[k] = static_cast<int64_t>(kope_attr_or(a, names[k], k));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* self = kope_acl(a->inputs[0]);
  aclTensor* out = kope_acl(a->outputs[0]);
  aclIntArray* dims = aclCreateIntArray(p, 4);
  const aclnnStatus st = aclnnPermuteGetWorkspaceSize(self, dims, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnPermute, "aclnnPermute");
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  aclDestroyIntArray(dims);
  return rc;
}
