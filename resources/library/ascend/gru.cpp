// Ascend library baseline for gru: CANN's aclnnGRU (torch.nn.GRU's forward: gates r, z, n in torch's row order, the
// reset gate applied to the hidden projection together with b_hn, h' = (1 - z) n + z h), one layer, one direction,
// sequence first, with biases, inference (train false, no gate outputs), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/rnn/gru/docs/aclnnGRU.md), built by the Ascend device's "library" mode
// and linked with -lopapi -lnnopbase -lascendcl. params is the task's [w_ih, w_hh, b_ih, b_hh] as they are (the
// page's order and shapes: [3H, I], [3H, H], [3H], [3H]), hx is h0. The page takes FLOAT32 and FLOAT16 only: the
// task's bf16 case is refused here and timed against the naive baseline.
#include <cstdio>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_gru.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  if (a->inputs[0].dtype == KOPE_BF16) {
    std::fprintf(stderr, "aclnnGRU takes FLOAT32 and FLOAT16 only, not BFLOAT16\n");
    return ACLNN_ERR_PARAM_INVALID;
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* h0 = kope_acl(a->inputs[1]);
  aclTensorList* params = kope_acl_list(&a->inputs[2], 4);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* hy = kope_acl(a->outputs[1]);
  const aclnnStatus st = aclnnGRUGetWorkspaceSize(x, params, h0, nullptr, true, 1, 0.0, false, false, false, y, hy,
                                                  nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGRU, "aclnnGRU");
  for (aclTensor* t : {x, h0, y, hy}) aclDestroyTensor(t);
  aclDestroyTensorList(params);
  return rc;
}
