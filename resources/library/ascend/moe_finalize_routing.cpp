// Ascend library baseline for moe_finalize_routing: CANN's aclnnMoeFinalizeRouting with x2 present (expanded_x, skip1,
// skip2, bias, scales, src_to_dst as expandedRowIdx, expert_idx as expandedExpertIdx), the documented two-phase call
// (CANN ops-transformer, moe/moe_finalize_routing/docs/aclnnMoeFinalizeRouting.md), built by the Ascend device's
// "library" mode and linked with -lopapi -lnnopbase -lascendcl.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* t[8];
  for (int i = 0; i < 7; ++i) t[i] = kope_acl(a->inputs[i]);
  t[7] = kope_acl(a->outputs[0]);
  const aclnnStatus st = aclnnMoeFinalizeRoutingGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnMoeFinalizeRouting, "aclnnMoeFinalizeRouting");
  for (aclTensor* x : t) aclDestroyTensor(x);
  return rc;
}
