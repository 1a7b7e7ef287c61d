// Ascend library baseline for gcd: CANN's aclnnGcd (out = gcd(|self|, |other|) elementwise, int32 or int64), the
// documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/82RC1/API/aolapi/context/aclnnGcd.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_gcd.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* other = kope_acl(a->inputs[1]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnGcdGetWorkspaceSize(x, other, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGcd, "aclnnGcd");
  aclDestroyTensor(x);
  aclDestroyTensor(other);
  aclDestroyTensor(out);
  return rc;
}
