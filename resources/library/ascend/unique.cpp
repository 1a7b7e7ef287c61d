// Ascend library baseline for unique: CANN's aclnnUnique2 (torch.unique(x, sorted=True, return_inverse=True,
// return_counts=True)), the documented two-phase call
// (https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnUnique2.md),
// built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase -lascendcl.
// How many values are unique (U) is known only once the operator has run: as torch_npu's _unique2 does, the stream
// is synchronised and aclGetViewShape reads valueOut's shape, [U] (the array it returns is the caller's to
// delete[]). The task's fixed layout is then made on the device: values and counts beyond U zeroed, num = U. The
// synchronisation, the two memsets and the 8-byte copy are what using the operator costs here, and are timed with it.
#include "kope_aclnn.h"
#include "aclnnop/aclnn_unique2.h"

// The layout after the operator: false (with a message) where the runtime or the view shape says otherwise.
static bool finish_layout(const kope_args* a, aclTensor* values, void* stream) {
  const kope_tensor& v = a->outputs[0];
  const kope_tensor& counts = a->outputs[2];
  const int64_t n = v.numel;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclrtSynchronizeStream after aclnnUnique2 failed\n");
    return false;
  }
  int64_t* dims = nullptr;
  uint64_t nd = 0;
  if (aclGetViewShape(values, &dims, &nd) != ACLNN_SUCCESS || !dims) {
    std::fprintf(stderr, "aclGetViewShape of aclnnUnique2's valueOut failed\n");
    return false;
  }
  const int64_t u = nd == 1 ? dims[0] : -1;
  delete[] dims;
  if (u < 0 || u > n) {
    std::fprintf(stderr, "aclnnUnique2's valueOut has a view shape of %llu dims, [%lld] (expected [U], U <= %lld)\n",
                 static_cast<unsigned long long>(nd), static_cast<long long>(u), static_cast<long long>(n));
    return false;
  }
  const uint64_t vb = kope_elem_bytes(v.dtype), rest = static_cast<uint64_t>(n - u);
  if (rest && (aclrtMemset(static_cast<char*>(v.data) + u * vb, rest * vb, 0, rest * vb) != ACL_SUCCESS ||
               aclrtMemset(static_cast<char*>(counts.data) + u * 8, rest * 8, 0, rest * 8) != ACL_SUCCESS)) {
    std::fprintf(stderr, "aclrtMemset of the values and counts beyond U failed\n");
    return false;
  }
  const int64_t num = u;
  if (aclrtMemcpy(a->outputs[3].data, sizeof num, &num, sizeof num, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclrtMemcpy of U to the device failed\n");
    return false;
  }
  return true;
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = kope_acl(a->inputs[0]);
  aclTensor* values = kope_acl(a->outputs[0]);
  aclTensor* inverse = kope_acl(a->outputs[1]);
  aclTensor* counts = kope_acl(a->outputs[2]);
  const aclnnStatus st = aclnnUnique2GetWorkspaceSize(x, true, true, true, values, inverse, counts, &ws, &ex);
  int rc = kope_run(st, ws, ex, stream, aclnnUnique2, "aclnnUnique2");
  if (rc == 0 && !finish_layout(a, values, stream)) rc = 507000;
  aclDestroyTensor(x);
  aclDestroyTensor(values);
  aclDestroyTensor(inverse);
  aclDestroyTensor(counts);
  return rc;
}
