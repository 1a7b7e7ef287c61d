// Ascend library baseline for adaptive_avg_pool_3d: CANN's aclnnAdaptiveAvgPool3d (torch's adaptive windows
// [floor(o in / out), ceil((o + 1) in / out)) on D, H and W, the window's mean), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/API/aolapi/context/aclnnAdaptiveAvgPool3d.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. outputSize is y's
// [OD, OH, OW]; self and out are given as ND, a format the page lists beside NCDHW. Every case of the task is one the
// operator takes (5-D, FLOAT, FLOAT16 and BFLOAT16 on Atlas A2/A3, no empty tensor).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& y = a->outputs[0];
  const int64_t size[3] = {y.shape[2], y.shape[3], y.shape[4]};
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* self = kope_acl(a->inputs[0]);
  aclTensor* out = kope_acl(y);
  aclIntArray* outputSize = aclCreateIntArray(size, 3);
  const aclnnStatus st = aclnnAdaptiveAvgPool3dGetWorkspaceSize(self, outputSize, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnAdaptiveAvgPool3d, "aclnnAdaptiveAvgPool3d");
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  aclDestroyIntArray(outputSize);
  return rc;
}
