// Ascend library baseline for add_rms_norm_dynamic_quant: CANN's aclnnAddRmsNormDynamicQuant with
// smoothScale1Optional given and smoothScale2Optional null (x = x1 + x2 into xOut, y = x / Rms(x) * gamma, then
// input = y * smoothScale1, scale1Out = row_max(|input|) / 127, y1Out = round(input / scale1Out)), the documented
// two-phase call (https://gitcode.com/cann/ops-nn/blob/master/norm/add_rms_norm_dynamic_quant/docs/aclnnAddRmsNormDynamicQuant.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. Without
// smoothScale2Optional the page gives y2Out and scale2Out no meaning but still wants them: y2Out as the [1] it asks for
// then, scale2Out of scale1Out's shape, both in scratch device memory. Every case of the task is one the operator
// takes (FLOAT16 or BFLOAT16 x1, x2, gamma and smooth scale, INT8 y1Out on Atlas A2/A3).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& scale = a->outputs[2];
  const uint64_t scale_bytes = static_cast<uint64_t>(scale.numel) * sizeof(float);
  char* scratch = static_cast<char*>(kope_scratch((scale_bytes + 31) / 32 * 32 + 32));  // scale2Out, then y2Out
  if (!scratch) return 207001;
  kope_tensor scale2 = scale, y2 = a->outputs[1];
  scale2.data = scratch;
  y2 = kope_view(y2, {1});
  y2.data = scratch + (scale_bytes + 31) / 32 * 32;
  const double epsilon = kope_attr_or(a, "epsilon", 1e-6);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x1 = kope_acl(a->inputs[0]);
  aclTensor* x2 = kope_acl(a->inputs[1]);
  aclTensor* gamma = kope_acl(a->inputs[2]);
  aclTensor* smooth1 = kope_acl(a->inputs[3]);
  aclTensor* xOut = kope_acl(a->outputs[0]);
  aclTensor* y1Out = kope_acl(a->outputs[1]);
  aclTensor* scale1Out = kope_acl(scale);
  aclTensor* y2Out = kope_acl(y2);
  aclTensor* scale2Out = kope_acl(scale2);
  const aclnnStatus st = aclnnAddRmsNormDynamicQuantGetWorkspaceSize(x1, x2, gamma, smooth1, nullptr, epsilon, y1Out,
                                                                     y2Out, xOut, scale1Out, scale2Out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnAddRmsNormDynamicQuant, "aclnnAddRmsNormDynamicQuant");
  for (aclTensor* t : {x1, x2, gamma, smooth1, xOut, y1Out, scale1Out, y2Out, scale2Out}) aclDestroyTensor(t);
  return rc;
}
