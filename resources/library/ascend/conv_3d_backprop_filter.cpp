// Ascend library baseline for conv_3d_backprop_filter: CANN's aclnnConvolutionBackward with outputMask [false, true,
// false] (the weight gradient only), not transposed, groups 1, the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/conv/convolution_backward/docs/aclnnConvolutionBackward.md), built by
// the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. x, grad_y and grad_w are named
// NCDHW (the page lists NCL, NCHW and NCDHW). The operator wants a weight (it gives only gradWeight's shape; its
// values are not read for the weight gradient) and a gradInput (the page refuses a null one, though outputMask leaves
// it unwritten): both live in scratch device memory. biasSizes is [Co], outputPadding zeros. cubeMathType 0
// (KEEP_DTYPE): the page's Atlas A2/A3 column puts no constraint on it, so fp32 cases run in FLOAT and fp16 and bf16
// in their dtype (1 and 3 would turn FLOAT into HFLOAT32). The page's Atlas A2/A3 limits (strideH, strideW <= 63,
// padding H, W <= 255, dilation <= 255, the filter's H, W <= 255) hold for every case of the task, so none is refused.
#include <cstdio>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_convolution_backward.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& gw = a->outputs[0];
  const uint64_t w_bytes = (kope_bytes(gw) + 511) / 512 * 512;
  char* scratch = static_cast<char*>(kope_scratch(w_bytes + kope_bytes(x)));  // weight, then gradInput
  if (!scratch) {
    std::fprintf(stderr, "aclrtMalloc of the weight and gradInput scratch failed\n");
    return 207001;
  }
  kope_tensor wt = gw, gi = x;
  wt.data = scratch;
  gi.data = scratch + w_bytes;
  const int64_t stride[3] = {static_cast<int64_t>(kope_attr_or(a, "stride_d", 1)),
                             static_cast<int64_t>(kope_attr_or(a, "stride_h", 1)),
                             static_cast<int64_t>(kope_attr_or(a, "stride_w", 1))};
  const int64_t pad[3] = {static_cast<int64_t>(kope_attr_or(a, "pad_d", 0)),
                          static_cast<int64_t>(kope_attr_or(a, "pad_h", 0)),
                          static_cast<int64_t>(kope_attr_or(a, "pad_w", 0))};
  const int64_t dil[3] = {static_cast<int64_t>(kope_attr_or(a, "dil_d", 1)),
                          static_cast<int64_t>(kope_attr_or(a, "dil_h", 1)),
                          static_cast<int64_t>(kope_attr_or(a, "dil_w", 1))};
  const int64_t zero[3] = {0, 0, 0};
  const int64_t bias_sizes[1] = {gw.shape[0]};
  const bool mask[3] = {false, true, false};
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* grad_output = kope_acl(a->inputs[1], ACL_FORMAT_NCDHW);
  aclTensor* input = kope_acl(x, ACL_FORMAT_NCDHW);
  aclTensor* weight = kope_acl(wt, ACL_FORMAT_NCDHW);
  aclTensor* grad_input = kope_acl(gi, ACL_FORMAT_NCDHW);
  aclTensor* grad_weight = kope_acl(gw, ACL_FORMAT_NCDHW);
  aclIntArray* b = aclCreateIntArray(bias_sizes, 1);
  aclIntArray* s = aclCreateIntArray(stride, 3);
  aclIntArray* p = aclCreateIntArray(pad, 3);
  aclIntArray* d = aclCreateIntArray(dil, 3);
  aclIntArray* op = aclCreateIntArray(zero, 3);
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  const aclnnStatus st = aclnnConvolutionBackwardGetWorkspaceSize(grad_output, input, weight, b, s, p, d, false, op, 1,
                                                                  m, 0, grad_input, grad_weight, nullptr, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnConvolutionBackward, "aclnnConvolutionBackward");
  for (aclTensor* t : {grad_output, input, weight, grad_input, grad_weight}) aclDestroyTensor(t);
  for (aclIntArray* v : {b, s, p, d, op}) aclDestroyIntArray(v);
  aclDestroyBoolArray(m);
  return rc;
}
