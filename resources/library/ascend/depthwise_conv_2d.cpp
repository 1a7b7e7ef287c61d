// Ascend library baseline for depthwise_conv_2d: CANN's aclnnConvolution, not transposed, with groups = C (torch's
// conv2d with groups = C: channel c cross-correlated with its own [1, KH, KW] filter, zero padding, stride and
// dilation per axis, bias added), the documented two-phase call
// (https://gitcode.com/cann/ops-nn/blob/master/conv/convolution_forward/docs/aclnnConvolution.md), built by the
// Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl (aclnnConvDepthwise2d, which the
// task's summary names, documents the same computation behind its own signature). x, weight and y are named NCHW
// (the page lists NCL, NCHW and NCDHW, not ND), bias ND; outputPadding, which a forward convolution ignores, is 0.
// cubeMathType is 0 (KEEP_DTYPE): the fp16 and bf16 cases run in their dtype. On Atlas A2/A3 the page
// does not support FLOAT input with KEEP_DTYPE; the modes that take FLOAT (1 ALLOW_FP32_DOWN_PRECISION, 3 USE_HF32)
// compute in HFLOAT32, whose 10-bit mantissa is no fp32 convolution and cannot be held to the task's fp32 threshold
// (2^-13) on short sums. So the fp32 cases are refused here and timed against the naive baseline.
#include <cstdio>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_convolution.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  if (a->inputs[0].dtype == KOPE_F32) {
    std::fprintf(stderr, "aclnnConvolution takes FLOAT on Atlas A2/A3 only in HFLOAT32 (cubeMathType 1 or 3), not "
                         "at fp32 precision\n");
    return ACLNN_ERR_PARAM_INVALID;
  }
  const int64_t stride[2] = {static_cast<int64_t>(kope_attr_or(a, "stride_h", 1)),
                             static_cast<int64_t>(kope_attr_or(a, "stride_w", 1))};
  const int64_t pad[2] = {static_cast<int64_t>(kope_attr_or(a, "pad_h", 0)),
                          static_cast<int64_t>(kope_attr_or(a, "pad_w", 0))};
  const int64_t dil[2] = {static_cast<int64_t>(kope_attr_or(a, "dil_h", 1)),
                          static_cast<int64_t>(kope_attr_or(a, "dil_w", 1))};
  const int64_t zero[2] = {0, 0}, groups = a->inputs[0].shape[1];
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* input = kope_acl(a->inputs[0], ACL_FORMAT_NCHW);
  aclTensor* weight = kope_acl(a->inputs[1], ACL_FORMAT_NCHW);
  aclTensor* bias = kope_acl(a->inputs[2]);
  aclTensor* output = kope_acl(a->outputs[0], ACL_FORMAT_NCHW);
  aclIntArray* s = aclCreateIntArray(stride, 2);
  aclIntArray* p = aclCreateIntArray(pad, 2);
  aclIntArray* d = aclCreateIntArray(dil, 2);
  aclIntArray* op = aclCreateIntArray(zero, 2);
  const aclnnStatus st = aclnnConvolutionGetWorkspaceSize(input, weight, bias, s, p, d, false, op, groups, output, 0,
                                                          &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnConvolution, "aclnnConvolution");
  for (aclTensor* t : {input, weight, bias, output}) aclDestroyTensor(t);
  for (aclIntArray* v : {s, p, d, op}) aclDestroyIntArray(v);
  return rc;
}
