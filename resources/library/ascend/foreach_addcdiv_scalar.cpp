// Ascend library baseline for foreach_addcdiv_scalar: CANN's aclnnForeachAddcdivScalar
// (out[i] = x1[i] + x2[i] / x3[i] * scalar over tensor lists, the value from the task's attrs), the documented
// two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/81RC1/apiref/aolapi/context/aclnnForeachAddcdivScalar.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  const int L = a->n_outputs;
  // The scalar is an aclTensor the operator hands its kernel as an input, so it lives in device memory (torch_npu's
  // op-plugin copies it there too); it is written only when the value changes, so a timed call copies nothing.
  void* dvalue = kope_device_float(static_cast<float>(kope_attr_or(a, "value", 1.0)));
  if (!dvalue) return 207001;
  const int64_t one = 1;
  aclTensor* scalar = aclCreateTensor(&one, 1, ACL_FLOAT, &one, 0, ACL_FORMAT_ND, &one, 1, dvalue);
  aclTensorList* x1 = kope_acl_list(a->inputs, L);
  aclTensorList* x2 = kope_acl_list(a->inputs + L, L);
  aclTensorList* x3 = kope_acl_list(a->inputs + 2 * L, L);
  aclTensorList* out = kope_acl_list(a->outputs, L);
  st = aclnnForeachAddcdivScalarGetWorkspaceSize(x1, x2, x3, scalar, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnForeachAddcdivScalar, "aclnnForeachAddcdivScalar");
  aclDestroyTensorList(x1);
  aclDestroyTensorList(x2);
  aclDestroyTensorList(x3);
  aclDestroyTensorList(out);
  aclDestroyTensor(scalar);
  return rc;
}
