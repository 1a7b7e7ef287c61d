// Ascend library baseline for dequant_swiglu_quant: CANN's aclnnDequantSwigluQuant with x INT32, weightScaleOptional,
// activationScaleOptional (the task's [M] seen as the [M, 1] the page asks for) and quantScaleOptional given,
// biasOptional, quantOffsetOptional and groupIndexOptional null, quantModeOptional "dynamic", activateLeft from the
// task's attribute; the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuant.md), built by
// the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
// What the operator does not promise: on Atlas A2/A3 its page caps the memory its inputs take, 10 times x's last
// dimension among them, under 192 KB, so the task's rows of 2H = 8192 and 14336 int32 are refused (561002) and those
// cases are timed against the naive baseline alone. Its kernel quantises with a multiply by 1 / scale and its own
// fp32 Exp, not the task's divide and correctly rounded Swish: where that moves an int8 by one, the library's answer
// is reported wrong for that case, as the library's miss, and the case is timed against the naive baseline.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_dequant_swiglu_quant.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& act = a->inputs[2];
  const kope_tensor act_m1 = kope_view(act, {act.shape[0], 1});
  char mode[] = "dynamic";
  const bool left = kope_attr_or(a, "activate_left", 1) != 0;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* weightScale = kope_acl(a->inputs[1]);
  aclTensor* activationScale = kope_acl(act_m1);
  aclTensor* quantScale = kope_acl(a->inputs[3]);
  aclTensor* y = kope_acl(a->outputs[0]);
  aclTensor* scale = kope_acl(a->outputs[1]);
  const aclnnStatus st = aclnnDequantSwigluQuantGetWorkspaceSize(x, weightScale, activationScale, nullptr, quantScale,
                                                                 nullptr, nullptr, left, mode, y, scale, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnDequantSwigluQuant, "aclnnDequantSwigluQuant");
  for (aclTensor* t : {x, weightScale, activationScale, quantScale, y, scale}) aclDestroyTensor(t);
  return rc;
}
