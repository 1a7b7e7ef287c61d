// Ascend library baseline for lstm: CANN's aclnnLSTM (torch.nn.LSTM's forward), one layer, one direction, sequence
// first, with biases, inference (train false, no gate outputs), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/rnn/dynamic_rnn/docs/aclnnLSTM.md), built by the Ascend device's
// "library" mode and linked with -lopapi -lnnopbase -lascendcl. params is the task's [w_ih, w_hh, b_ih, b_hh] as they
// are, hx the list [h0, c0], as torch's at::lstm takes them; the page gives torch's names and shapes ([4H, I],
// [4H, H], [4H], [4H]) and no other gate order, and ops-nn's source says which: aclnn_lstm.cpp passes the weights on
// to DynamicRNN concatenated and transposed, not reordered, with b_ih + b_hh as its bias, and l0op::DynamicRNN
// launches it with gate_order "ifjo" (j the cell input: torch's i, f, g, o) and forget_bias 0 (rnn/dynamic_rnn in
// https://gitcode.com/cann/ops-nn). The page takes FLOAT32 and FLOAT16 only: the task's bf16 case is refused here and
// timed against the naive baseline.
#include <cstdio>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_lstm.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  if (a->inputs[0].dtype == KOPE_BF16) {
    std::fprintf(stderr, "aclnnLSTM takes FLOAT32 and FLOAT16 only, not BFLOAT16\n");
    return ACLNN_ERR_PARAM_INVALID;
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensorList* hx = kope_acl_list(&a->inputs[1], 2);
  aclTensorList* params = kope_acl_list(&a->inputs[3], 4);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* hy = kope_acl(a->outputs[1]);
  aclTensor* cy = kope_acl(a->outputs[2]);
  const aclnnStatus st =
      aclnnLSTMGetWorkspaceSize(x, params, hx, nullptr, true, 1, 0.0, false, false, false, y, hy, cy, nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnLSTM, "aclnnLSTM");
  for (aclTensor* t : {x, y, hy, cy}) aclDestroyTensor(t);
  for (aclTensorList* l : {hx, params}) aclDestroyTensorList(l);
  return rc;
}
