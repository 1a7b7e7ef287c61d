// Ascend library baseline for resize_bilinear: CANN's aclnnUpsampleBilinear2d (torch's upsample_bilinear2d:
// alignCorners 1 maps dst to dst * (in - 1) / (out - 1), 0 to max(0, (dst + 0.5) * in / out - 0.5) when scalesH and
// scalesW are 0, as here; taps floor(src) and the next one, clamped to the edge), the documented two-phase call
// (https://gitcode.com/cann/ops-cv/blob/master/image/upsample_bilinear2d/docs/aclnnUpsampleBilinear2d.md), built by
// the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. Its page's coordinate rule is
// the task's (its op_api source runs ResizeBilinearV2 underneath for some shapes and dtypes, under the same rule).
// The operator checks that self and out are NCHW or NHWC (ND is refused: CheckFormat in its op_api source), so x and
// y are named NCHW; outputSize is the task's [HO, WO].
#include "kope_aclnn.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  const kope_tensor& y = a->outputs[0];
  const int64_t size[2] = {y.shape[2], y.shape[3]};
  const bool align = kope_attr_or(a, "align_corners", 0) != 0;
  aclTensor* self = kope_acl(a->inputs[0], ACL_FORMAT_NCHW);
  aclTensor* out = kope_acl(y, ACL_FORMAT_NCHW);
  aclIntArray* output_size = aclCreateIntArray(size, 2);
  st = aclnnUpsampleBilinear2dGetWorkspaceSize(self, output_size, align, 0.0, 0.0, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnUpsampleBilinear2d, "aclnnUpsampleBilinear2d");
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  aclDestroyIntArray(output_size);
  return rc;
}
