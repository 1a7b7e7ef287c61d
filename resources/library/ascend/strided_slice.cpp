// Ascend library baseline for strided_slice: CANN's aclnnSliceV2 (out takes self's elements starts[i],
// starts[i] + steps[i], ... below ends[i] along axes[i]), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/API/aolapi/context/aclnnSliceV2.md), built by the
// Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl. aclnnStridedSlice, which takes
// TensorFlow's begin and end masks itself, runs only on Ascend 950PR/950DT
// (https://gitcode.com/cann/ops-math/blob/master/conversion/strided_slice/docs/aclnnStridedSlice.md); here the task's
// begin, end and masks are resolved on the host to each axis's [start, end) in [0, D] (TensorFlow's rule for a
// positive stride), which aclnnSliceV2's own clamping then leaves as they are, and all four axes are sliced in one
// call. aclnnSliceV2 takes positive steps only (a step <= 0 is refused, 161002): a case with a negative stride on any
// axis would need a flip first, a second kernel the timing would not see, so those cases are refused here and timed
// against the naive baseline.
#include <cstdio>
#include "kope_aclnn.h"
#include "aclnnop/aclnn_slice_v2.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  static const char* const bn[4] = {"b0", "b1", "b2", "b3"};
  static const char* const en[4] = {"e0", "e1", "e2", "e3"};
  static const char* const sn[4] = {"s0", "s1", "s2", "s3"};
  const kope_tensor& x = a->inputs[0];
  const int bmask = static_cast<int>(kope_attr_or(a, "begin_mask", 0));
  const int emask = static_cast<int>(kope_attr_or(a, "end_mask", 0));
  int64_t starts[4], ends[4], steps[4];
  const int64_t axes[4] = {0, 1, 2, 3};
  for (int k = 0; k < 4; ++k) {
    const int64_t D = x.shape[k];
    steps[k] = static_cast<int64_t>(kope_attr_or(a, sn[k], 1));
    if (steps[k] <= 0) {
      std::fprintf(stderr, "aclnnSliceV2 takes positive steps only, not %lld on axis %d\n",
                   static_cast<long long>(steps[k]), k);
      return ACLNN_ERR_PARAM_INVALID;
    }
    const double b = kope_attr_or(a, bn[k], 0), e = kope_attr_or(a, en[k], 1e18);
    auto clamp = [D](double v) {  // a negative index counts from the end; then into [0, D]
      if (v < 0) v += D;
      return v < 0 ? int64_t{0} : v > D ? D : static_cast<int64_t>(v);
    };
    starts[k] = (bmask >> k) & 1 ? 0 : clamp(b);
    ends[k] = (emask >> k) & 1 ? D : clamp(e);
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* self = kope_acl(x);
  aclTensor* out = kope_acl(a->outputs[0]);
  aclIntArray* s = aclCreateIntArray(starts, 4);
  aclIntArray* e = aclCreateIntArray(ends, 4);
  aclIntArray* ax = aclCreateIntArray(axes, 4);
  aclIntArray* st = aclCreateIntArray(steps, 4);
  const aclnnStatus rc0 = aclnnSliceV2GetWorkspaceSize(self, s, e, ax, st, out, &ws, &ex);
  const int rc = kope_run(rc0, ws, ex, stream, aclnnSliceV2, "aclnnSliceV2");
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  for (aclIntArray* v : {s, e, ax, st}) aclDestroyIntArray(v);
  return rc;
}
