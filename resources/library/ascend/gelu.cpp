// Ascend library baseline for gelu: CANN's aclnnGeluV2 (exact GELU (approximate = 0, the erf form; 1 would be the tanh form)), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/GeluV2.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_gelu_v2.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  st = aclnnGeluV2GetWorkspaceSize(x, 0, y, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGeluV2, "aclnnGeluV2");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  return rc;
}
