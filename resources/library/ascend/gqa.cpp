// Ascend library baseline for gqa: CANN's aclnnFlashAttentionScore in BNSD layout (kope_aclnn_attention.h) with H
// query heads over HKV key/value heads (the page's GQA: query head n reads key/value head n / (Nq / Nkv), as the
// task's repeat_interleave), built by the Ascend device's "library" mode and linked with -lopapi -lnnopbase
// -lascendcl. The task is causal with queries at the end of the sequence: sparseMode 3 (rightDownCausal, key j <=
// L - S + i) with the page's optimised mask. The page takes FLOAT16, BFLOAT16 and FLOAT32, D in [1, 768], Nq in
// [1, 256], and L >= S in every case: every case of the task is one the operator takes.
#include "kope_aclnn_attention.h"

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) { return kope_flash_attention_bnsd(a, stream, 3); }
