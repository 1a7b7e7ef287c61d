// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): the L2 suite's scatter, position-embedding,
// quantisation, loss, optimizer, sampling and resize operators, aclnnScatterAdd, aclnnApplyRotaryPosEmb,
// aclnnDynamicQuant, aclnnCrossEntropyLoss, aclnnApplyAdamWV2, aclnnGridSampler3D and aclnnUpsampleBilinear2d, each the
// documented two-phase pair with the signatures of the include/aclnnop headers beside this file. The first phase checks
// what the documentation says it checks (null pointers, dtypes, ranks, shapes, attributes); the data are computed on
// the host in fp32 (FLOAT16 and BFLOAT16 for aclnnDynamicQuant, which takes only those), other dtypes refused with
// ACLNN_ERR_PARAM_INVALID as the other fake files do. Each run tells the fake runtime it launched a kernel named after
// the operator's AI Core kernel, so the fake msprof times it; FAKE_ACLNN_FAIL=<that name> makes the first phase fail.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_grid_sampler3d.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }

// An index tensor's element e (int32 or int64).
int64_t index_at(const aclTensor* t, int64_t e) { return t->dtype == ACL_INT64 ? i64(t)[e] : i32(t)[e]; }

}  // namespace

extern "C" {

// torch.scatter_add: out = self, then out[..., index[..., j, ...], ...] += src[..., j, ...] along dim, every
// duplicate accumulating. self, index and src have one rank (at most 8); index no larger than src in every
// dimension and than self off dim; out has self's shape; index int32 or int64. An index outside [0, size(dim)) is
// the caller's error (the page requires it in range; the operator does not check device data): the fake makes
// out[0] NaN so a check sees it.
aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                            const aclTensor* src, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !index || !src || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self);
  const int64_t d = dim < 0 ? dim + nd : dim;
  const bool int_index = index->dtype == ACL_INT64 || index->dtype == ACL_INT32;
  if (self->dtype != ACL_FLOAT || src->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || !int_index || nd > 8 ||
      d < 0 || d >= nd || rank(index) != nd || rank(src) != nd || out->dims != self->dims)
    return ACLNN_ERR_PARAM_INVALID;
  for (int64_t k = 0; k < nd; ++k)
    if (index->dims[k] > src->dims[k] || (k != d && index->dims[k] > self->dims[k])) return ACLNN_ERR_PARAM_INVALID;
  return make("ScatterElementsV2", 0, [=](void*) {
    std::vector<int64_t> ostride(nd, 1), sstride(nd, 1), pos(nd, 0);
    for (int64_t k = nd - 2; k >= 0; --k) {
      ostride[k] = ostride[k + 1] * self->dims[k + 1];
      sstride[k] = sstride[k + 1] * src->dims[k + 1];
    }
    for (int64_t e = 0; e < self->numel(); ++e) out->f32()[e] = self->f32()[e];
    for (int64_t e = 0; e < index->numel(); ++e) {
      const int64_t r = index_at(index, e);
      int64_t o = 0, s = 0;
      for (int64_t k = 0; k < nd; ++k) {
        o += (k == d ? r : pos[k]) * ostride[k];
        s += pos[k] * sstride[k];
      }
      if (r >= 0 && r < self->dims[d]) out->f32()[o] += src->f32()[s];
      else out->f32()[0] = NAN;
      for (int64_t k = nd - 1; k >= 0 && ++pos[k] == index->dims[k]; --k) pos[k] = 0;
    }
  }, ws, ex);
}
aclnnStatus aclnnScatterAdd(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Rotate-half RoPE in place on queryRef [B, S, N, D] and keyRef [B, S, NK, D] (layout 1, BSND; the fake does not
// model layout 4, TND): x = x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin, cos and sin [B, S, 1, D] with the
// query's B and S, D 64 or 128, one dtype for all four.
aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef, const aclTensor* cos,
                                                   const aclTensor* sin, int64_t layout, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  if (!queryRef || !keyRef || !cos || !sin) return ACLNN_ERR_PARAM_NULLPTR;
  if (layout != 1 || rank(queryRef) != 4 || rank(keyRef) != 4 || rank(cos) != 4) return ACLNN_ERR_PARAM_INVALID;
  for (const aclTensor* t : std::initializer_list<const aclTensor*>{queryRef, keyRef, cos, sin})
    if (t->dtype != ACL_FLOAT || t->numel() == 0) return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& q = queryRef->dims;
  const int64_t D = q[3];
  if ((D != 64 && D != 128) || cos->dims != std::vector<int64_t>{q[0], q[1], 1, D} || sin->dims != cos->dims ||
      keyRef->dims != std::vector<int64_t>{q[0], q[1], keyRef->dims[2], D})
    return ACLNN_ERR_PARAM_INVALID;
  return make("ApplyRotaryPosEmb", 0, [=](void*) {
    const int64_t B = q[0], S = q[1], H = D / 2;
    for (aclTensor* x : {queryRef, keyRef}) {
      const int64_t N = x->dims[2];
      std::vector<float> row(D);
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t n = 0; n < N; ++n) {
            float* r = x->f32() + ((b * S + s) * N + n) * D;
            const float* c = cos->f32() + (b * S + s) * D;
            const float* sn = sin->f32() + (b * S + s) * D;
            row.assign(r, r + D);
            for (int64_t d = 0; d < D; ++d) r[d] = row[d] * c[d] + (d < H ? -row[d + H] : row[d - H]) * sn[d];
          }
    }
  }, ws, ex);
}
aclnnStatus aclnnApplyRotaryPosEmb(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Per-token symmetric quantisation to int8 over x's last dimension: scaleOut = max |x| / 127 (fp32), yOut =
// round(x / scaleOut), ties to even (rint). x FLOAT16 or BFLOAT16 of rank 2..8, yOut INT8 of x's shape (the fake
// does not model INT4 or INT32 packing), scaleOut FLOAT32 of x's shape without the last dimension; smooth scales,
// when given, multiply x first. A row whose scale is 0 quantises to 0 (0 / 0 is NaN before the int8 cast, which
// the page leaves undefined).
aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                              const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* ws,
                                              aclOpExecutor** ex) {
  if (!x || !yOut || !scaleOut) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* smooth = smoothScalesOptional;
  if ((x->dtype != ACL_FLOAT16 && x->dtype != ACL_BF16) || yOut->dtype != ACL_INT8 || scaleOut->dtype != ACL_FLOAT ||
      rank(x) < 2 || rank(x) > 8 || yOut->dims != x->dims ||
      scaleOut->dims != std::vector<int64_t>(x->dims.begin(), x->dims.end() - 1))
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t K = x->dims.back();
  if (smooth && (smooth->dtype != x->dtype || smooth->dims != std::vector<int64_t>{K})) return ACLNN_ERR_PARAM_INVALID;
  return make("DynamicQuant", 0, [=](void*) {
    const int64_t M = x->numel() / K;
    std::vector<float> row(K);
    for (int64_t m = 0; m < M; ++m) {
      float amax = 0;
      for (int64_t k = 0; k < K; ++k) {
        row[k] = half_at(x, m * K + k) * (smooth ? half_at(smooth, k) : 1.0f);
        amax = std::fmax(amax, std::fabs(row[k]));
      }
      const float scale = amax / 127.0f;
      scaleOut->f32()[m] = scale;
      for (int64_t k = 0; k < K; ++k) {
        const float q = scale == 0 ? 0.0f : std::rint(row[k] / scale);
        at<int8_t>(yOut)[m * K + k] = static_cast<int8_t>(std::fmin(127.0f, std::fmax(-128.0f, q)));
      }
    }
  }, ws, ex);
}
aclnnStatus aclnnDynamicQuant(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// Cross-entropy over classes with class-index targets: logProbOut = x - logsumexp(x) per row; per row l = (1 - ls) *
// weight[y] * -logProb[y] + ls * sum_c(weight[c] * -logProb[c]) / C, rows whose target is ignoreIndex giving 0;
// lossOut is their sum over sum(weight[y]) of the rows kept ("mean"), their sum ("sum") or each row ("none", [N]);
// [1] otherwise. zlossOut and lseForZlossOut must be given but are not computed (the page: not supported yet).
// input FLOAT [N, C] (the fake computes fp32 only), target INT32 or INT64 [N], weight FLOAT [C] or null, the outputs
// in input's dtype. A reduction or labelSmoothing outside what the page lists fails tiling (561002).
aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                  const aclTensor* weightOptional, char* reductionOptional,
                                                  int64_t ignoreIndex, double labelSmoothing,
                                                  double lseSquareScaleForZloss, bool returnZloss,
                                                  const aclTensor* lossOut, const aclTensor* logProbOut,
                                                  const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                                  uint64_t* ws, aclOpExecutor** ex) {
  (void)lseSquareScaleForZloss;
  (void)returnZloss;
  if (!input || !target || !lossOut || !logProbOut || !zlossOut || !lseForZlossOut) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* w = weightOptional;
  const bool int_target = target->dtype == ACL_INT64 || target->dtype == ACL_INT32;
  if (input->dtype != ACL_FLOAT || !int_target || (w && w->dtype != ACL_FLOAT) || lossOut->dtype != input->dtype ||
      logProbOut->dtype != input->dtype || zlossOut->dtype != input->dtype || lseForZlossOut->dtype != input->dtype)
    return ACLNN_ERR_PARAM_INVALID;
  const std::string reduction = reductionOptional ? reductionOptional : "mean";
  if (rank(input) != 2 || input->dims[0] <= 0 || input->dims[1] <= 0) return ACLNN_ERR_INNER_TILING_ERROR;
  const int64_t N = input->dims[0], C = input->dims[1];
  if (target->dims != std::vector<int64_t>{N} || (w && w->dims != std::vector<int64_t>{C}) ||
      (reduction != "mean" && reduction != "sum" && reduction != "none") || !(labelSmoothing >= 0) ||
      labelSmoothing > 1)
    return ACLNN_ERR_INNER_TILING_ERROR;
  if (lossOut->dims != (reduction == "none" ? std::vector<int64_t>{N} : std::vector<int64_t>{1}) ||
      logProbOut->dims != input->dims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("CrossEntropyLoss", 0, [=](void*) {
    double total = 0, weights = 0;
    for (int64_t n = 0; n < N; ++n) {
      const float* x = input->f32() + n * C;
      float* lp = logProbOut->f32() + n * C;
      double mx = x[0], sum = 0, smooth = 0;
      for (int64_t c = 1; c < C; ++c) mx = x[c] > mx ? x[c] : mx;
      for (int64_t c = 0; c < C; ++c) sum += std::exp(x[c] - mx);
      const double lse = std::log(sum);
      for (int64_t c = 0; c < C; ++c) {
        lp[c] = static_cast<float>((x[c] - mx) - lse);
        smooth -= (w ? w->f32()[c] : 1.0) * ((x[c] - mx) - lse);
      }
      const int64_t y = index_at(target, n);
      double l = 0;
      if (y != ignoreIndex) {
        const double wy = y >= 0 && y < C ? (w ? w->f32()[y] : 1.0) : NAN;
        const double nll = y >= 0 && y < C ? -wy * ((x[y] - mx) - lse) : NAN;
        l = labelSmoothing == 0 ? nll : (1 - labelSmoothing) * nll + labelSmoothing * smooth / C;
        total += l;
        weights += wy;
      }
      if (reduction == "none") lossOut->f32()[n] = static_cast<float>(l);
    }
    if (reduction != "none") lossOut->f32()[0] = static_cast<float>(reduction == "sum" ? total : total / weights);
  }, ws, ex);
}
aclnnStatus aclnnCrossEntropyLoss(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// One AdamW step in place: g = maximize ? -grad : grad; m = beta1 m + (1 - beta1) g; v = beta2 v + (1 - beta2) g^2;
// with amsgrad, maxGradNorm = max(maxGradNorm, v) stands for v below; var = var - lr * (m / (1 - beta1^t)) /
// (sqrt(v / (1 - beta2^t)) + eps) - lr * weightDecay * var (the old var). varRef, mRef, vRef and grad of one dtype
// (the fake computes FLOAT only) and one shape of rank 1..8; step a one-element INT64 or FLOAT tensor; maxGradNorm
// required with amsgrad, of var's shape.
aclnnStatus aclnnApplyAdamWV2GetWorkspaceSize(aclTensor* varRef, aclTensor* mRef, aclTensor* vRef,
                                              aclTensor* maxGradNormOptionalRef, const aclTensor* grad,
                                              const aclTensor* step, float lr, float beta1, float beta2,
                                              float weightDecay, float eps, bool amsgrad, bool maximize,
                                              uint64_t* ws, aclOpExecutor** ex) {
  aclTensor* mx = maxGradNormOptionalRef;
  if (!varRef || !mRef || !vRef || !grad || !step || (amsgrad && !mx)) return ACLNN_ERR_PARAM_NULLPTR;
  for (const aclTensor* t : std::initializer_list<const aclTensor*>{varRef, mRef, vRef, grad})
    if (t->dtype != ACL_FLOAT || t->dims != varRef->dims) return ACLNN_ERR_PARAM_INVALID;
  if (rank(varRef) < 1 || rank(varRef) > 8 || (step->dtype != ACL_INT64 && step->dtype != ACL_FLOAT) ||
      step->numel() != 1 || (amsgrad && (mx->dtype != ACL_FLOAT || mx->dims != varRef->dims)))
    return ACLNN_ERR_PARAM_INVALID;
  return make("ApplyAdamWV2", 0, [=](void*) {
    const double t = step->dtype == ACL_INT64 ? static_cast<double>(i64(step)[0]) : step->f32()[0];
    const float bc1 = static_cast<float>(1 - std::pow(static_cast<double>(beta1), t));
    const float bc2 = static_cast<float>(1 - std::pow(static_cast<double>(beta2), t));
    for (int64_t i = 0; i < varRef->numel(); ++i) {
      const float g = maximize ? -grad->f32()[i] : grad->f32()[i];
      float& var = varRef->f32()[i];
      float& m = mRef->f32()[i];
      float& v = vRef->f32()[i];
      m = beta1 * m + (1 - beta1) * g;
      v = beta2 * v + (1 - beta2) * g * g;
      float vv = v;
      if (amsgrad) vv = mx->f32()[i] = std::fmax(mx->f32()[i], v);
      var = var - lr * (m / bc1) / (std::sqrt(vv / bc2) + eps) - lr * weightDecay * var;
    }
  }, ws, ex);
}
aclnnStatus aclnnApplyAdamWV2(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// torch.nn.functional.grid_sample on 5-D input: input [N, C, D, H, W] (ND read as NCDHW), grid [N, DO, HO, WO, 3]
// holding (x, y, z) for (W, H, D) in [-1, 1], out [N, C, DO, HO, WO], one dtype for all three. A coordinate maps to
// ((g + 1) / 2) * (size - 1) with alignCorners, else ((g + 1) * size - 1) / 2; paddingMode 0 reads 0 outside the
// volume, 1 clips the coordinate to [0, size - 1]. Of the documented modes the fake computes interpolationMode 0
// (trilinear) with paddingMode 0 and 1 and refuses nearest (1) and reflection (2), which no baseline asks for.
// Coordinates and sums in double: the fake stands for the operator's contract, not its rounding.
aclnnStatus aclnnGridSampler3DGetWorkspaceSize(const aclTensor* input, const aclTensor* grid, int64_t interpolationMode,
                                               int64_t paddingMode, bool alignCorners, aclTensor* out, uint64_t* ws,
                                               aclOpExecutor** ex) {
  if (!input || !grid || !out) return ACLNN_ERR_PARAM_NULLPTR;
  if (input->dtype != ACL_FLOAT || grid->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT || rank(input) != 5 ||
      rank(grid) != 5 || rank(out) != 5 || interpolationMode != 0 || (paddingMode != 0 && paddingMode != 1))
    return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& i = input->dims;
  const std::vector<int64_t>& g = grid->dims;
  if (g[0] != i[0] || g[4] != 3 || out->dims != std::vector<int64_t>{i[0], i[1], g[1], g[2], g[3]})
    return ACLNN_ERR_PARAM_INVALID;
  return make("GridSampler3D", 0, [=](void*) {
    const int64_t N = i[0], C = i[1], D = i[2], H = i[3], W = i[4], P = g[1] * g[2] * g[3];
    auto coord = [&](double v, int64_t size) {
      double c = alignCorners ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
      if (paddingMode == 1) c = std::fmin(std::fmax(c, 0.0), static_cast<double>(size - 1));
      return c;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t p = 0; p < P; ++p) {
        const float* gp = grid->f32() + (n * P + p) * 3;
        const double ix = coord(gp[0], W), iy = coord(gp[1], H), iz = coord(gp[2], D);
        const int64_t x0 = static_cast<int64_t>(std::floor(ix)), y0 = static_cast<int64_t>(std::floor(iy)),
                      z0 = static_cast<int64_t>(std::floor(iz));
        const double fx = ix - x0, fy = iy - y0, fz = iz - z0;
        for (int64_t c = 0; c < C; ++c) {
          double acc = 0;
          for (int k = 0; k < 8; ++k) {
            const int64_t x = x0 + (k & 1), y = y0 + ((k >> 1) & 1), z = z0 + ((k >> 2) & 1);
            if (x < 0 || x >= W || y < 0 || y >= H || z < 0 || z >= D) continue;
            const double w = ((k & 1) ? fx : 1 - fx) * (((k >> 1) & 1) ? fy : 1 - fy) * (((k >> 2) & 1) ? fz : 1 - fz);
            acc += w * input->f32()[(((n * C + c) * D + z) * H + y) * W + x];
          }
          out->f32()[(n * C + c) * P + p] = static_cast<float>(acc);
        }
      }
  }, ws, ex);
}
aclnnStatus aclnnGridSampler3D(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// torch's upsample_bilinear2d over the last two dimensions of an NCHW self [N, C, H, W] into out [N, C, outputSize[0],
// outputSize[1]] (the fake computes NCHW only, and refuses NHWC, which no baseline asks for): per axis the scale is
// (in - 1) / (out - 1) with alignCorners (0 for out = 1), else 1 / scales when scales > 0, else in / out; dst maps to
// dst * scale with alignCorners, else max(0, (dst + 0.5) * scale - 0.5); the taps are floor(src) and the next one,
// clamped to in - 1, weighted by the distance. self and out of one dtype (the fake computes FLOAT only) and one
// format, NCHW or NHWC (ND refused, as the operator's CheckFormat does), equal N and C; scales not negative.
aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                    const bool alignCorners, const double scalesH,
                                                    const double scalesW, aclTensor* out, uint64_t* ws,
                                                    aclOpExecutor** ex) {
  if (!self || !out || !outputSize) return ACLNN_ERR_PARAM_NULLPTR;
  if (self->dtype != ACL_FLOAT || out->dtype != self->dtype || self->format != out->format ||
      self->format != ACL_FORMAT_NCHW || rank(self) != 4 || rank(out) != 4 || scalesH < 0 || scalesW < 0 ||
      outputSize->values.size() != 2)
    return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& i = self->dims;
  const std::vector<int64_t>& o = out->dims;
  if (o[0] != i[0] || o[1] != i[1] || outputSize->values[0] != o[2] || outputSize->values[1] != o[3] || o[2] <= 0 ||
      o[3] <= 0)
    return ACLNN_ERR_PARAM_INVALID;
  return make("UpsampleBilinear2d", 0, [=](void*) {
    struct Tap {
      int64_t i0, i1;
      double w1;
    };
    auto taps = [&](int64_t in, int64_t n, double scales) {
      const double scale = in == n ? 1.0
                           : alignCorners ? (n > 1 ? static_cast<double>(in - 1) / (n - 1) : 0.0)
                           : scales > 0 ? 1.0 / scales
                                        : static_cast<double>(in) / n;
      std::vector<Tap> t(n);
      for (int64_t d = 0; d < n; ++d) {
        const double src = alignCorners ? d * scale : std::fmax(0.0, (d + 0.5) * scale - 0.5);
        const int64_t i0 = static_cast<int64_t>(src);
        t[d] = {i0, std::min(i0 + 1, in - 1), src - i0};
      }
      return t;
    };
    const int64_t NC = i[0] * i[1], H = i[2], W = i[3], HO = o[2], WO = o[3];
    const std::vector<Tap> th = taps(H, HO, scalesH), tw = taps(W, WO, scalesW);
    for (int64_t p = 0; p < NC; ++p)
      for (int64_t y = 0; y < HO; ++y)
        for (int64_t x = 0; x < WO; ++x) {
          const float* s = self->f32() + p * H * W;
          const Tap &a = th[y], &b = tw[x];
          const double v = (1 - a.w1) * ((1 - b.w1) * s[a.i0 * W + b.i0] + b.w1 * s[a.i0 * W + b.i1]) +
                           a.w1 * ((1 - b.w1) * s[a.i1 * W + b.i0] + b.w1 * s[a.i1 * W + b.i1]);
          out->f32()[(p * HO + y) * WO + x] = static_cast<float>(v);
        }
  }, ws, ex);
}
aclnnStatus aclnnUpsampleBilinear2d(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
