// Ascend library baseline for maximum: CANN's aclnnMaximum (out = max(a, b) with broadcasting, NaN propagating), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/Maximum.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_maximum.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* other = kope_acl(a->inputs[1]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnMaximumGetWorkspaceSize(x, other, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnMaximum, "aclnnMaximum");
  aclDestroyTensor(x);
  aclDestroyTensor(other);
  aclDestroyTensor(out);
  return rc;
}
