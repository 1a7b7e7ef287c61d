// Ascend library baseline for apply_adam_w: CANN's aclnnApplyAdamWV2 with amsgrad and maximize off (m = b1 m +
// (1 - b1) g, v = b2 v + (1 - b2) g^2, var -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps) + lr * wd * var,
// the decay taken from the old var, as torch.optim.AdamW), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/optim/apply_adam_w_v2/docs/aclnnApplyAdamWV2_en.md), built by the
// Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. V2 rather than aclnnApplyAdamW: it
// takes the step count and forms the bias corrections itself, where aclnnApplyAdamW wants beta1^t and beta2^t as
// tensors. The operator updates var, m and v in place, so they are first copied into var_out, m_out and v_out; step
// is a one-element device tensor, written when it changes. Those copies are memcpys, not kernels: the timing (msprof
// op, the first kernel) covers the operator alone. lr, the betas, eps and weight_decay are float parameters of the
// operator (the task's doubles rounded to fp32).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_apply_adam_w_v2.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  void* step_dev = kope_device_float(static_cast<float>(kope_attr_or(a, "step", 1)));  // a one-element FLOAT32 tensor
  if (!step_dev) return 207001;
  int rc = ACL_SUCCESS;
  const uint64_t bytes = kope_bytes(a->inputs[0]);
  for (int i = 0; i < 3 && rc == ACL_SUCCESS; ++i)
    rc = aclrtMemcpy(a->outputs[i].data, bytes, a->inputs[i].data, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE);
  if (rc != ACL_SUCCESS) return rc;
  kope_tensor st = a->inputs[0];
  st.dtype = KOPE_F32;
  st.data = step_dev;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* var = kope_acl(a->outputs[0]);
  aclTensor* m = kope_acl(a->outputs[1]);
  aclTensor* v = kope_acl(a->outputs[2]);
  aclTensor* grad = kope_acl(a->inputs[3]);
  aclTensor* step_t = kope_acl(kope_view(st, {1}));
  const aclnnStatus s = aclnnApplyAdamWV2GetWorkspaceSize(
      var, m, v, nullptr, grad, step_t, static_cast<float>(kope_attr_or(a, "lr", 1e-3)),
      static_cast<float>(kope_attr_or(a, "beta1", 0.9)), static_cast<float>(kope_attr_or(a, "beta2", 0.999)),
      static_cast<float>(kope_attr_or(a, "weight_decay", 0.01)), static_cast<float>(kope_attr_or(a, "eps", 1e-8)),
      false, false, &ws, &ex);
  rc = kope_run(s, ws, ex, stream, aclnnApplyAdamWV2, "aclnnApplyAdamWV2");
  for (aclTensor* t : {var, m, v, grad, step_t}) aclDestroyTensor(t);
  return rc;
}
