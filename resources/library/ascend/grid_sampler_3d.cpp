// Ascend library baseline for grid_sampler_3d: CANN's aclnnGridSampler3D with interpolationMode 0 (trilinear over the
// 8 voxels around (x, y, z)), the task's padding_mode (0 zeros, 1 border) and align_corners, as
// torch.nn.functional.grid_sample on 5-D input; the documented two-phase call
// (https://gitcode.com/cann/ops-cv/blob/master/image/grid_sample/docs/aclnnGridSampler3D_en.md), built by the Ascend
// device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. ND tensors are read as NCDHW, as the page
// says. The operator computes its coordinates in the data's dtype, where the task's golden uses double: on samples
// just outside the volume its weights may differ by fp32 rounding, which the library check then reports.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_grid_sampler3d.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st;
  const int64_t padding = static_cast<int64_t>(kope_attr_or(a, "padding_mode", 0));
  const bool align = kope_attr_or(a, "align_corners", 0) != 0;
  aclTensor* input = kope_acl(a->inputs[0]);
  aclTensor* grid = kope_acl(a->inputs[1]);
  aclTensor* out = kope_acl(a->outputs[0]);
  st = aclnnGridSampler3DGetWorkspaceSize(input, grid, 0, padding, align, out, &ws, &ex);
  const int rc = kope_run(st, ws, ex, stream, aclnnGridSampler3D, "aclnnGridSampler3D");
  aclDestroyTensor(input);
  aclDestroyTensor(grid);
  aclDestroyTensor(out);
  return rc;
}
