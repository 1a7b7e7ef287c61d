// Ascend library baseline for mish: CANN's aclnnMish (y = x * tanh(softplus(x))), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/Mish&aclnnInplaceMish.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_mish.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  st = aclnnMishGetWorkspaceSize(x, y, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnMish, "aclnnMish");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  return rc;
}
