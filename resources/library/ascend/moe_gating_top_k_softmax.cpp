// Ascend library baseline for moe_gating_top_k_softmax: CANN's aclnnMoeGatingTopKSoftmax (finished absent, k from
// the output's last dimension), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnMoeGatingTopKSoftmax.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* expert = kope_acl(a->outputs[1]);
  aclTensor* row = kope_acl(a->outputs[2]);
  const aclnnStatus st =
      aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(x, nullptr, a->outputs[0].shape[1], y, expert, row, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnMoeGatingTopKSoftmax, "aclnnMoeGatingTopKSoftmax");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  aclDestroyTensor(expert);
  aclDestroyTensor(row);
  return rc;
}
