// Ascend library baseline for gather: CANN's aclnnGather (torch.gather: out[a, j, b] = x[a, index[a, j, b], b]
// along dim 1; int64 or int32 index), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnGather.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_gather.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* index = kope_acl(a->inputs[1]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnGatherGetWorkspaceSize(x, 1, index, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGather, "aclnnGather");
  aclDestroyTensor(x);
  aclDestroyTensor(index);
  aclDestroyTensor(out);
  return rc;
}
