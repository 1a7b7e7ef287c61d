// Ascend library baseline for scatter: CANN's aclnnScatterAdd (torch.scatter_add: out = self, then
// out[a, index[a, j, b], b] += src[a, j, b] along dim 1, duplicates accumulating; int64 or int32 index), the
// documented two-phase call (https://gitcode.com/cann/ops-nn/blob/master/index/scatter_add/docs/aclnnScatterAdd.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. Every case of the task
// is one the operator takes (fp32 self and src, index of self's rank, out of self's shape).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_scatter_add.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* self = kope_acl(a->inputs[0]);
  aclTensor* index = kope_acl(a->inputs[1]);
  aclTensor* src = kope_acl(a->inputs[2]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnScatterAddGetWorkspaceSize(self, 1, index, src, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnScatterAdd, "aclnnScatterAdd");
  aclDestroyTensor(self);
  aclDestroyTensor(index);
  aclDestroyTensor(src);
  aclDestroyTensor(out);
  return rc;
}
