// Ascend library baseline for grouped_matmul: CANN's aclnnGroupedMatmulV4, not quantised, grouped along M (groupType
// 0) with one x [M, K], one weight [G, K, N], one bias [G, N] and one y [M, N] (splitItem 3), group_list the rows of
// each group (groupListType 1, counts), no activation: rows start_g .. start_g + group_list[g] of y = those rows of x
// @ weight[g] + bias[g]. The documented two-phase call
// (https://gitcode.com/cann/ops-transformer/blob/master/gmm/grouped_matmul/docs/aclnnGroupedMatmulV4.md), built by
// the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. The page leaves y's rows past
// the counts' sum as they were ("not updated"), where the task wants 0: y is zeroed first with aclrtMemset, a
// runtime call, not a kernel, so the timing (msprof op, the first kernel) covers the operator alone. On Atlas A2/A3
// the page's non-quantised combinations are FLOAT x with a FLOAT bias, FLOAT16 with FLOAT16, and BFLOAT16 with a
// FLOAT bias: the task's bf16 cases carry a bf16 bias, which the operator refuses (161002), so they are timed
// against the naive baseline (casting the bias first would be a kernel of its own).
#include "kope_aclnn.h"
#include "aclnnop/aclnn_grouped_matmul_v4.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& y = a->outputs[0];
  const uint64_t bytes = kope_bytes(y);
  if (aclError e = aclrtMemset(y.data, bytes, 0, bytes); e != ACL_SUCCESS) return e;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensorList* x = kope_acl_list(&a->inputs[0], 1);
  aclTensorList* weight = kope_acl_list(&a->inputs[1], 1);
  aclTensorList* bias = kope_acl_list(&a->inputs[2], 1);
  aclTensor* groupList = kope_acl(a->inputs[3]);
  aclTensorList* out = kope_acl_list(&y, 1);
  const aclnnStatus st = aclnnGroupedMatmulV4GetWorkspaceSize(x, weight, bias, nullptr, nullptr, nullptr, nullptr,
                                                              nullptr, groupList, nullptr, nullptr, nullptr, 3, 0, 1,
                                                              0, out, nullptr, nullptr, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGroupedMatmulV4, "aclnnGroupedMatmulV4");
  for (aclTensorList* l : {x, weight, bias, out}) aclDestroyTensorList(l);
  aclDestroyTensor(groupList);
  return rc;
}
