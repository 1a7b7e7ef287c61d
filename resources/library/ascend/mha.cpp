// Ascend library baseline for mha: CANN's aclnnFlashAttentionScore in BNSD layout (kope_aclnn_attention.h), one
// key/value head per query head, built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase
// -lascendcl. causal 0: sparseMode 0 and no mask (every key seen); causal 1: sparseMode 2 (leftUpCausal, key j <=
// query i: torch's is_causal, aligned to the top left as the task asks) with the page's optimised mask. The page
// takes FLOAT16, BFLOAT16 and FLOAT32 and D in [1, 768], N in [1, 256]: every case of the task is one the operator
// takes.
#include "kope_aclnn_attention.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  return kope_flash_attention_bnsd(a, stream, kope_attr_or(a, "causal", 0) != 0 ? 2 : 0);
}
