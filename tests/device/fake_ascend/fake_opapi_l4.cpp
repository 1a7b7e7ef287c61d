// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): the operators of the L4 suite's library baselines,
// aclnnGRU, aclnnLSTM, aclnnFlashAttentionScore and aclnnFusedInferAttentionScoreV3, each the documented two-phase
// pair with the signatures of the include/aclnnop headers beside this file. As in fake_opapi_g3b.cpp, the first phase
// checks what the page says it checks and refuses the rest with ACLNN_ERR_PARAM_INVALID, as it does what the fake
// does not model (each says what); arithmetic in double with one rounding to the output's dtype. Each run tells the
// fake runtime it launched a kernel named after the operator's AI Core kernel; FAKE_ACLNN_FAIL=<that name> makes the
// first phase fail.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_gru.h"
#include "aclnnop/aclnn_lstm.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// A tensor's elements as doubles (FLOAT, FLOAT16 or BFLOAT16).
std::vector<double> reals(const aclTensor* t) {
  std::vector<double> v(static_cast<size_t>(t->numel()));
  for (int64_t e = 0; e < t->numel(); ++e) v[e] = real_at(t, e);
  return v;
}

}  // namespace

extern "C" {

// One layer, one direction, fixed length, sequence first (batchSizes null, numLayers 1, bidirection and batchFirst
// false: the multi-layer, bidirectional, packed and batch-first forms are not modelled), inference (train false, the
// five gate outputs null), with biases: input [T, B, I], params [w_ih [3H, I], w_hh [3H, H], b_ih [3H], b_hh [3H]]
// with the 3H rows in the page's order r, z, n, hx [1, B, H] (null: zeros), output [T, B, H], hy [1, B, H]. The
// page's formula: r = sigmoid(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = tanh(W_in x + b_in + r (W_hn h + b_hn)),
// h' = (1 - z) n + z h. Every tensor FLOAT or FLOAT16 (the page's two) and one dtype, as the page checks.
aclnnStatus aclnnGRUGetWorkspaceSize(const aclTensor* input, const aclTensorList* params, const aclTensor* hx,
                                     const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double dropout,
                                     bool train, bool bidirection, bool batchFirst, aclTensor* output, aclTensor* hy,
                                     aclTensorList* rOut, aclTensorList* zOut, aclTensorList* nOut,
                                     aclTensorList* hnOut, aclTensorList* hOut, uint64_t* ws, aclOpExecutor** ex) {
  (void)dropout;  // the page: not implemented, any value computes the same
  if (!input || !params || !output || !hy) return ACLNN_ERR_PARAM_NULLPTR;
  const aclDataType dt = input->dtype;
  if ((dt != ACL_FLOAT && dt != ACL_FLOAT16) || batchSizes || !hasBias || numLayers != 1 || train || bidirection ||
      batchFirst || rOut || zOut || nOut || hnOut || hOut || params->size() != 4 || rank(input) != 3)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t T = input->dims[0], B = input->dims[1], I = input->dims[2], H = hy->dims.size() == 3 ? hy->dims[2] : 0;
  const aclTensor *wi = params->tensors[0], *wh = params->tensors[1];
  const aclTensor *bi = params->tensors[2], *bh = params->tensors[3];
  for (const aclTensor* t : {wi, wh, bi, bh, hx, static_cast<const aclTensor*>(output),
                             static_cast<const aclTensor*>(hy)})
    if (t && t->dtype != dt) return ACLNN_ERR_PARAM_INVALID;
  if (!wi || !wh || !bi || !bh || wi->dims != std::vector<int64_t>{3 * H, I} ||
      wh->dims != std::vector<int64_t>{3 * H, H} || bi->dims != std::vector<int64_t>{3 * H} ||
      bh->dims != std::vector<int64_t>{3 * H} || (hx && hx->dims != std::vector<int64_t>{1, B, H}) ||
      output->dims != std::vector<int64_t>{T, B, H} || hy->dims != std::vector<int64_t>{1, B, H} || H < 1)
    return ACLNN_ERR_PARAM_INVALID;
  return make("Gru", 0, [=](void*) {
    const std::vector<double> x = reals(input), Wi = reals(wi), Wh = reals(wh), Bi = reals(bi), Bh = reals(bh);
    std::vector<double> h = hx ? reals(hx) : std::vector<double>(B * H, 0.0), next(B * H), gx(3 * H), gh(3 * H);
    for (int64_t t = 0; t < T; ++t) {
      for (int64_t b = 0; b < B; ++b) {
        for (int64_t r = 0; r < 3 * H; ++r) {
          double s = Bi[r], u = Bh[r];
          for (int64_t k = 0; k < I; ++k) s += Wi[r * I + k] * x[(t * B + b) * I + k];
          for (int64_t k = 0; k < H; ++k) u += Wh[r * H + k] * h[b * H + k];
          gx[r] = s, gh[r] = u;
        }
        for (int64_t e = 0; e < H; ++e) {
          const double rg = sigmoid(gx[e] + gh[e]), zg = sigmoid(gx[H + e] + gh[H + e]);
          const double ng = std::tanh(gx[2 * H + e] + rg * gh[2 * H + e]);
          next[b * H + e] = (1 - zg) * ng + zg * h[b * H + e];
          set_real(output, (t * B + b) * H + e, next[b * H + e]);
        }
      }
      h.swap(next);
    }
    for (int64_t e = 0; e < B * H; ++e) set_real(hy, e, h[e]);
  }, ws, ex);
}
aclnnStatus aclnnGRU(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// One layer, one direction, fixed length, sequence first (batchSizes null, numLayers 1, bidirectional and batchFirst
// false: the multi-layer, bidirectional, packed and batch-first forms are not modelled), inference (train false, the
// seven gate outputs null), with biases: input [T, B, I], params [w_ih [4H, I], w_hh [4H, H], b_ih [4H], b_hh [4H]],
// hx [h0, c0] each [1, B, H] (null: zeros), output [T, B, H], hy and cy [1, B, H]. The 4H rows are taken in torch's
// order i, f, g, o: the page gives torch's shapes and names and no other order, and the operator hands the
// concatenated, transposed weights to DynamicRNN with gate_order "ifjo" (j the cell input g) and forget_bias 0. gates = W_ih x + b_ih + W_hh h + b_hh; c' = sigmoid(f) c + sigmoid(i) tanh(g); h' = sigmoid(o) tanh(c'). Every
// tensor FLOAT or FLOAT16 (the page's two) and one dtype, as the page checks.
aclnnStatus aclnnLSTMGetWorkspaceSize(const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                                      const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double dropout,
                                      bool train, bool bidirectional, bool batchFirst, aclTensor* output,
                                      aclTensor* hy, aclTensor* cy, aclTensorList* iOut, aclTensorList* jOut,
                                      aclTensorList* fOut, aclTensorList* oOut, aclTensorList* hOut,
                                      aclTensorList* cOut, aclTensorList* tanhCOut, uint64_t* ws, aclOpExecutor** ex) {
  (void)dropout;  // the page: not supported, any value computes the same
  if (!input || !params || !output || !hy || !cy) return ACLNN_ERR_PARAM_NULLPTR;
  const aclDataType dt = input->dtype;
  if ((dt != ACL_FLOAT && dt != ACL_FLOAT16) || batchSizes || !hasBias || numLayers != 1 || train || bidirectional ||
      batchFirst || iOut || jOut || fOut || oOut || hOut || cOut || tanhCOut || params->size() != 4 ||
      (hx && hx->size() != 2) || rank(input) != 3 || rank(hy) != 3)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t T = input->dims[0], B = input->dims[1], I = input->dims[2], H = hy->dims[2];
  const aclTensor *wi = params->tensors[0], *wh = params->tensors[1];
  const aclTensor *bi = params->tensors[2], *bh = params->tensors[3];
  const aclTensor* h0 = hx ? hx->tensors[0] : nullptr;
  const aclTensor* c0 = hx ? hx->tensors[1] : nullptr;
  const std::vector<int64_t> state{1, B, H};
  for (const aclTensor* t : {wi, wh, bi, bh, h0, c0, static_cast<const aclTensor*>(output),
                             static_cast<const aclTensor*>(hy), static_cast<const aclTensor*>(cy)})
    if (t && t->dtype != dt) return ACLNN_ERR_PARAM_INVALID;
  if (!wi || !wh || !bi || !bh || (hx && (!h0 || !c0)) || wi->dims != std::vector<int64_t>{4 * H, I} ||
      wh->dims != std::vector<int64_t>{4 * H, H} || bi->dims != std::vector<int64_t>{4 * H} ||
      bh->dims != std::vector<int64_t>{4 * H} || (h0 && (h0->dims != state || c0->dims != state)) ||
      output->dims != std::vector<int64_t>{T, B, H} || hy->dims != state || cy->dims != state || H < 1)
    return ACLNN_ERR_PARAM_INVALID;
  return make("DynamicRNN", 0, [=](void*) {
    const std::vector<double> x = reals(input), Wi = reals(wi), Wh = reals(wh), Bi = reals(bi), Bh = reals(bh);
    std::vector<double> h = h0 ? reals(h0) : std::vector<double>(B * H, 0.0);
    std::vector<double> c = c0 ? reals(c0) : std::vector<double>(B * H, 0.0), hn(B * H), g(4 * H);
    for (int64_t t = 0; t < T; ++t) {
      for (int64_t b = 0; b < B; ++b) {
        for (int64_t r = 0; r < 4 * H; ++r) {
          double s = Bi[r] + Bh[r];
          for (int64_t k = 0; k < I; ++k) s += Wi[r * I + k] * x[(t * B + b) * I + k];
          for (int64_t k = 0; k < H; ++k) s += Wh[r * H + k] * h[b * H + k];
          g[r] = s;
        }
        for (int64_t e = 0; e < H; ++e) {
          const double ig = sigmoid(g[e]), fg = sigmoid(g[H + e]), gg = std::tanh(g[2 * H + e]);
          const double og = sigmoid(g[3 * H + e]);
          c[b * H + e] = fg * c[b * H + e] + ig * gg;
          hn[b * H + e] = og * std::tanh(c[b * H + e]);
          set_real(output, (t * B + b) * H + e, hn[b * H + e]);
        }
      }
      h.swap(hn);
    }
    for (int64_t e = 0; e < B * H; ++e) set_real(hy, e, h[e]), set_real(cy, e, c[e]);
  }, ws, ex);
}
aclnnStatus aclnnLSTM(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Attention in BNSD layout (BSH, SBH and BSND are not modelled): query [B, Nq, Sq, D], key [B, Nkv, Skv, D], value
// [B, Nkv, Skv, Dv] with Dv <= D (the page: qD == kD >= vD), attentionOut [B, Nq, Sq, Dv], one dtype among FLOAT,
// FLOAT16 and BFLOAT16; headNum = Nq, Nq a multiple of Nkv (query head n reads key/value head n / (Nq / Nkv)), and
// the page's ranges N in [1, 256], D in [1, 768]. out = softmax(scaleValue q k^T, masked) v, the keys a query does
// not see dropped: sparseMode 0 with no attenMask sees every key; 2 (leftUpCausal) sees j <= i and 3 (rightDownCausal)
// j <= i + Skv - Sq, each with the page's optimised mask, a BOOL or UINT8 [2048, 2048] that is 1 exactly above the
// diagonal (any other mask, which the page says computes wrong results, is refused, as is mode 3 with Sq > Skv,
// whose all-masked rows are not modelled). softmaxMaxOut and softmaxSumOut FLOAT [B, Nq, Sq, 8] get each row's
// maximum scaled score and its sum of exp(score - maximum), repeated 8 times. Not modelled, so refused: pse, dropout
// (keepProb other than 1), the padding mask, the prefix modes and other sparse modes, a full mask in mode 0, and
// innerPrecise other than 0.
aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* ws,
    aclOpExecutor** ex) {
  (void)prefixOptional, (void)preTokens, (void)nextTokens, (void)softmaxOutOut;  // unused in modes 0 (no mask), 2, 3
  if (!query || !key || !value || !attentionOutOut || !softmaxMaxOut || !softmaxSumOut || !inputLayout)
    return ACLNN_ERR_PARAM_NULLPTR;
  const aclDataType dt = query->dtype;
  const aclTensor* mask = attenMaskOptional;
  if (!is_real(query) || key->dtype != dt || value->dtype != dt || attentionOutOut->dtype != dt ||
      softmaxMaxOut->dtype != ACL_FLOAT || softmaxSumOut->dtype != ACL_FLOAT || std::strcmp(inputLayout, "BNSD") ||
      realShiftOptional || dropMaskOptional || paddingMaskOptional || keepProb != 1.0 || innerPrecise != 0 ||
      rank(query) != 4 || rank(key) != 4 || rank(value) != 4 || rank(attentionOutOut) != 4)
    return ACLNN_ERR_PARAM_INVALID;
  const bool mask_ok = mask && mask->dims == std::vector<int64_t>{2048, 2048} &&
                       (mask->dtype == ACL_BOOL || mask->dtype == ACL_UINT8);
  if (sparseMode == 0 ? mask != nullptr : (sparseMode != 2 && sparseMode != 3) || !mask_ok)
    return ACLNN_ERR_PARAM_INVALID;
  if (mask) {
    const uint8_t* m = at<uint8_t>(mask);
    for (int64_t i = 0; i < 2048; ++i)
      for (int64_t j = 0; j < 2048; ++j)
        if (m[i * 2048 + j] != (j > i ? 1 : 0)) return ACLNN_ERR_PARAM_INVALID;
  }
  const int64_t B = query->dims[0], Nq = query->dims[1], Sq = query->dims[2], D = query->dims[3];
  const int64_t Nkv = key->dims[1], Skv = key->dims[2], Dv = value->dims[3];
  const std::vector<int64_t> stats{B, Nq, Sq, 8};
  if (headNum != Nq || Nq < 1 || Nq > 256 || Nkv < 1 || Nq % Nkv || D < 1 || D > 768 || Dv < 1 || Dv > D ||
      key->dims != std::vector<int64_t>{B, Nkv, Skv, D} || value->dims != std::vector<int64_t>{B, Nkv, Skv, Dv} ||
      attentionOutOut->dims != std::vector<int64_t>{B, Nq, Sq, Dv} || softmaxMaxOut->dims != stats ||
      softmaxSumOut->dims != stats || (sparseMode == 3 && Sq > Skv))
    return ACLNN_ERR_PARAM_INVALID;
  return make("FlashAttentionScore", 0, [=](void*) {
    const std::vector<double> q = reals(query), k = reals(key), v = reals(value);
    std::vector<double> p(static_cast<size_t>(Skv));
    for (int64_t b = 0; b < B; ++b)
      for (int64_t n = 0; n < Nq; ++n) {
        const int64_t kv = (b * Nkv + n / (Nq / Nkv)) * Skv;
        for (int64_t i = 0; i < Sq; ++i) {
          const int64_t row = (b * Nq + n) * Sq + i;
          const int64_t last = sparseMode == 2 ? i : sparseMode == 3 ? i + Skv - Sq : Skv - 1;
          const int64_t seen = last + 1 < Skv ? last + 1 : Skv;
          double m = -INFINITY, sum = 0;
          for (int64_t j = 0; j < seen; ++j) {
            double s = 0;
            for (int64_t d = 0; d < D; ++d) s += q[row * D + d] * k[(kv + j) * D + d];
            p[j] = scaleValue * s;
            if (std::isnan(p[j]) || p[j] > m) m = std::isnan(m) ? m : p[j];
          }
          for (int64_t j = 0; j < seen; ++j) sum += p[j] = std::exp(p[j] - m);
          for (int64_t d = 0; d < Dv; ++d) {
            double acc = 0;
            for (int64_t j = 0; j < seen; ++j) acc += p[j] * v[(kv + j) * Dv + d];
            set_real(attentionOutOut, row * Dv + d, acc / sum);
          }
          for (int64_t e = 0; e < 8; ++e) softmaxMaxOut->f32()[row * 8 + e] = static_cast<float>(m),
                                           softmaxSumOut->f32()[row * 8 + e] = static_cast<float>(sum);
        }
      }
  }, ws, ex);
}
aclnnStatus aclnnFlashAttentionScore(void* w, uint64_t n, aclOpExecutor* e, const aclrtStream s) {
  return launch(w, n, e, s);
}

// Only the MLA form of the operator is modelled, as Atlas A2 takes it with a 512-wide query (the page's "query的d等于
// 512" rules): queryRope and keyRope given, layout BSND, query [B, S, N, 512] with S in [1, 16], queryRope
// [B, S, N, 64], numHeads N, numKeyValueHeads 1, FLOAT16 or BFLOAT16 throughout; page attention (which the page
// requires there): blockTable INT32 [B, maxBlocks], blockSize 16 or 128, key and value one tensor each of shape
// [blockNum, blockSize, 512] (BnBsH with one head), keyRope [blockNum, blockSize, 64], actualSeqLengthsKv of length 1
// or B (each in [1, maxBlocks blockSize]) and actualSeqLengths null; S = 1 takes sparseMode 0 and no mask, S > 1
// sparseMode 3 (rightDownCausal: query s sees keys j <= Lkv - S + s) with the optimised [2048, 2048] mask that is 1
// exactly above the diagonal (any other mask is refused). Key position j of batch b is row j % blockSize of block
// blockTable[b][j / blockSize] (a block id past blockNum, which the page leaves unchecked, is refused).
// out = softmax(scaleValue (q k^T + qRope kRope^T)) v, attentionOut [B, S, N, 512]. Everything else of the page is
// not modelled, so refused: the plain (non-MLA) forms, other layouts and query widths, masks in other modes, pse,
// every quantisation and antiquantisation input, padding, shared prefixes, tensor lists of more than one tensor, and
// softmaxLseFlag.
aclnnStatus aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, const aclTensor* attentionOut, const aclTensor* softmaxLse,
    uint64_t* ws, aclOpExecutor** ex) {
  (void)preTokens, (void)nextTokens, (void)softmaxLse;  // ignored in modes 0 (no mask) and 3; no lse asked for
  if (!query || !key || !value || !attentionOut) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* const unmodelled[] = {pseShiftOptional, deqScale1Optional, quantScale1Optional, deqScale2Optional,
                                         quantScale2Optional, quantOffset2Optional, antiquantScaleOptional,
                                         antiquantOffsetOptional, queryPaddingSizeOptional, kvPaddingSizeOptional,
                                         keyAntiquantScaleOptional, keyAntiquantOffsetOptional,
                                         valueAntiquantScaleOptional, valueAntiquantOffsetOptional,
                                         keySharedPrefixOptional, valueSharedPrefixOptional,
                                         keyRopeAntiquantScaleOptional};
  for (const aclTensor* t : unmodelled)
    if (t) return ACLNN_ERR_PARAM_INVALID;
  const aclTensor *qr = queryRopeOptional, *kr = keyRopeOptional, *table = blockTableOptional;
  const aclIntArray* kvLens = actualSeqLengthsKvOptional;
  const aclDataType dt = query->dtype;
  if ((dt != ACL_FLOAT16 && dt != ACL_BF16) || !qr || !kr || !table || !kvLens || actualSeqLengthsOptional ||
      actualSharedPrefixLenOptional || key->size() != 1 || value->size() != 1 || !inputLayout ||
      std::strcmp(inputLayout, "BSND") || softmaxLseFlag || antiquantMode || keyAntiquantMode || valueAntiquantMode ||
      (innerPrecise != 0 && innerPrecise != 1) || (blockSize != 16 && blockSize != 128))
    return ACLNN_ERR_PARAM_INVALID;
  const aclTensor *k = key->tensors[0], *v = value->tensors[0];
  if (!k || !v || k->dtype != dt || v->dtype != dt || qr->dtype != dt || kr->dtype != dt ||
      attentionOut->dtype != dt || table->dtype != ACL_INT32 || rank(query) != 4 || rank(k) != 3 || rank(table) != 2)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t B = query->dims[0], S = query->dims[1], N = query->dims[2], D = 512, R = 64;
  const int64_t blocks = k->dims[0], per = table->dims[1];
  if (query->dims[3] != D || S < 1 || S > 16 || numHeads != N || numKeyValueHeads != 1 ||
      qr->dims != std::vector<int64_t>{B, S, N, R} || k->dims != std::vector<int64_t>{blocks, blockSize, D} ||
      v->dims != k->dims || kr->dims != std::vector<int64_t>{blocks, blockSize, R} || table->dims[0] != B ||
      attentionOut->dims != query->dims || (kvLens->values.size() != 1 && kvLens->values.size() != size_t(B)))
    return ACLNN_ERR_PARAM_INVALID;
  for (int64_t len : kvLens->values)
    if (len < 1 || len > per * blockSize) return ACLNN_ERR_PARAM_INVALID;
  for (int64_t e = 0; e < B * per; ++e)
    if (i32(table)[e] < 0 || i32(table)[e] >= blocks) return ACLNN_ERR_PARAM_INVALID;
  const aclTensor* mask = attenMaskOptional;
  if (S == 1 ? sparseMode != 0 || mask : sparseMode != 3 || !mask || mask->numel() != 2048 * 2048 ||
                                             mask->dims.back() != 2048 ||
                                             (mask->dtype != ACL_BOOL && mask->dtype != ACL_UINT8 &&
                                              mask->dtype != ACL_INT8))
    return ACLNN_ERR_PARAM_INVALID;
  if (mask) {
    const uint8_t* m = at<uint8_t>(mask);
    for (int64_t i = 0; i < 2048; ++i)
      for (int64_t j = 0; j < 2048; ++j)
        if (m[i * 2048 + j] != (j > i ? 1 : 0)) return ACLNN_ERR_PARAM_INVALID;
  }
  const std::vector<int64_t> lens = kvLens->values;
  return make("FusedInferAttentionScore", 0, [=](void*) {
    const std::vector<double> q = reals(query), qrope = reals(qr), kc = reals(k), krope = reals(kr), vc = reals(v);
    std::vector<double> p;
    for (int64_t b = 0; b < B; ++b) {
      const int64_t L = lens.size() == 1 ? lens[0] : lens[b];
      std::vector<int64_t> row(static_cast<size_t>(L));  // key position j's row of the block pool
      for (int64_t j = 0; j < L; ++j) row[j] = i32(table)[b * per + j / blockSize] * blockSize + j % blockSize;
      p.assign(static_cast<size_t>(L), 0.0);
      for (int64_t s = 0; s < S; ++s)
        for (int64_t n = 0; n < N; ++n) {
          const int64_t qi = (b * S + s) * N + n, seen = S == 1 ? L : std::min(L, L - S + s + 1);
          double m = -INFINITY, sum = 0;
          for (int64_t j = 0; j < seen; ++j) {
            double dot = 0;
            for (int64_t d = 0; d < D; ++d) dot += q[qi * D + d] * kc[row[j] * D + d];
            for (int64_t d = 0; d < R; ++d) dot += qrope[qi * R + d] * krope[row[j] * R + d];
            p[j] = scaleValue * dot;
            if (std::isnan(p[j]) || p[j] > m) m = std::isnan(m) ? m : p[j];
          }
          for (int64_t j = 0; j < seen; ++j) sum += p[j] = std::exp(p[j] - m);
          for (int64_t d = 0; d < D; ++d) {
            double acc = 0;
            for (int64_t j = 0; j < seen; ++j) acc += p[j] * vc[row[j] * D + d];
            set_real(attentionOut, qi * D + d, acc / sum);
          }
        }
    }
  }, ws, ex);
}
aclnnStatus aclnnFusedInferAttentionScoreV3(void* w, uint64_t n, aclOpExecutor* e, const aclrtStream s) {
  return launch(w, n, e, s);
}

}  // extern "C"
