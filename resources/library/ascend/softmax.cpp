// Ascend library baseline for softmax: CANN's aclnnSoftmax (softmax over the last dimension (dim = -1)), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/Softmax.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_softmax.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  st = aclnnSoftmaxGetWorkspaceSize(x, -1, y, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnSoftmax, "aclnnSoftmax");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  return rc;
}
