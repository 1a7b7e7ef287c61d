// Ascend library baseline for swi_glu: CANN's aclnnSwiGlu (x split in halves A, B on dim = -1, out = Swish(A) * B:
// the first half gated, as the task's silu(x[:, :H]) * x[:, H:]), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/82RC1/API/aolapi/context/aclnnSwiGlu.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_swi_glu.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  st = aclnnSwiGluGetWorkspaceSize(x, -1, y, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnSwiGlu, "aclnnSwiGlu");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  return rc;
}
