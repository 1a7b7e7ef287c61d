// Ascend library baseline for rms_norm: CANN's aclnnRmsNorm (y = x * rstd * gamma over the last dimension, rstd = 1 / sqrt(mean(x^2) + eps) (eps from the task's attrs)), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/aolapi/context/RmsNorm.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_rms_norm.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  const double eps = kope_attr_or(a, "eps", 1e-6);
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* gamma = kope_acl(a->inputs[1]);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* rstd = kope_acl(a->outputs[1]);
  st = aclnnRmsNormGetWorkspaceSize(x, gamma, eps, y, rstd, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnRmsNorm, "aclnnRmsNorm");
  aclDestroyTensor(x);
  aclDestroyTensor(gamma);
  aclDestroyTensor(y);
  aclDestroyTensor(rstd);
  return rc;
}
