// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): operators of the L3 suite beside fake_opapi_g3.cpp's,
// aclnnPermute, aclnnTopk, aclnnAdaptiveAvgPool3d, aclnnAddRmsNormDynamicQuant, aclnnConvolution, aclnnSliceV2,
// aclnnQuantMatmulV4, aclnnGroupedMatmulV4 and aclnnUnique2, each the documented two-phase pair with the signatures of the
// include/aclnnop headers beside this file. The first phase checks what the documentation says it checks (null
// pointers, dtypes, ranks, shapes, attributes) and refuses the rest with ACLNN_ERR_PARAM_INVALID, as it does what the
// fake does not model (each says what); the data are computed on the host: values that are only moved, in any dtype the
// page lists; arithmetic in fp32 or double with one rounding to the output's dtype (FLOAT, and FLOAT16 and BFLOAT16
// where the operator takes them). Each run tells the fake runtime it launched a kernel named after the operator's AI
// Core kernel, so the fake msprof times it; FAKE_ACLNN_FAIL=<that name> makes the first phase fail.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_grouped_matmul_v4.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_unique2.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }

// Row-major strides of dims.
std::vector<int64_t> strides_of(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int64_t k = static_cast<int64_t>(dims.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * dims[k + 1];
  return s;
}

// out's elements in order, each taken from self's element base + sum over out's axes k of pos[k] * from[k]: a
// permutation (from = self's strides in out's axis order) or a strided slice. Values moved, `size` bytes each.
void gather_strided(const aclTensor* self, aclTensor* out, int64_t size, int64_t base, const std::vector<int64_t>& from) {
  const int64_t nd = rank(out);
  std::vector<int64_t> pos(nd, 0);
  const char* src = static_cast<const char*>(self->data) + self->offset * size;
  char* dst = static_cast<char*>(out->data) + out->offset * size;
  for (int64_t o = 0; o < out->numel(); ++o) {
    int64_t i = base;
    for (int64_t k = 0; k < nd; ++k) i += pos[k] * from[k];
    std::memcpy(dst + o * size, src + i * size, size);
    for (int64_t k = nd - 1; k >= 0 && ++pos[k] == out->dims[k]; --k) pos[k] = 0;
  }
}

// aclnnUnique2's data, keys of type T: the distinct values ascending in valueOut[0..U) (-0 and 0 are one value),
// inverseOut[i] = the position of self[i] among them, countsOut[u] = how often values[u] occurs; what lies beyond U
// in valueOut and countsOut is left as it was (the operator defines only the first U). Their view shapes become [U],
// as the operator's are once the stream is synchronised, for aclGetViewShape to read.
template <class T>
void unique_sorted(const aclTensor* self, aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut) {
  const int64_t n = self->numel();
  std::vector<std::pair<T, int64_t>> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = {at<T>(self)[i], i};
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t u = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (i == 0 || v[i - 1].first < v[i].first) {
      ++u;
      at<T>(valueOut)[u] = v[i].first;
      i64(countsOut)[u] = 0;
    }
    ++i64(countsOut)[u];
    i64(inverseOut)[v[i].second] = u;
  }
  valueOut->dims = countsOut->dims = {u + 1};
}

}  // namespace

extern "C" {

// torch.permute(self, dims).contiguous(): out's axis k is self's axis dims[k] (a negative axis counts from the end),
// so out.shape[k] = self.shape[dims[k]]. self and out of one dtype among those the page lists for Atlas A2/A3, rank
// at most 8; dims a permutation of self's axes. Values are moved, not computed: any element size.
aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* ws,
                                         aclOpExecutor** ex) {
  if (!self || !dims || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self), size = elem_bytes(self->dtype);
  if (size == 0 || out->dtype != self->dtype || nd > 8 || rank(out) != nd ||
      static_cast<int64_t>(dims->values.size()) != nd)
    return ACLNN_ERR_PARAM_INVALID;
  std::vector<int64_t> perm(nd);
  std::vector<bool> seen(nd, false);
  for (int64_t k = 0; k < nd; ++k) {
    const int64_t d = dims->values[k] < 0 ? dims->values[k] + nd : dims->values[k];
    if (d < 0 || d >= nd || seen[d] || out->dims[k] != self->dims[d]) return ACLNN_ERR_PARAM_INVALID;
    seen[d] = true;
    perm[k] = d;
  }
  return make("Transpose", 0, [=](void*) {
    const std::vector<int64_t> is = strides_of(self->dims);
    std::vector<int64_t> from(nd);
    for (int64_t k = 0; k < nd; ++k) from[k] = is[perm[k]];
    gather_strided(self, out, size, 0, from);
  }, ws, ex);
}
aclnnStatus aclnnPermute(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// The k largest (largest) or smallest elements of self along dim, in descending (ascending) order; indicesOut their
// INT64 positions along dim. self of rank 1..8 (the fake takes FLOAT, FLOAT16 and BFLOAT16, which it copies bit
// for bit), k in [0, self.size(dim)], dim in [-rank, rank), sorted true (the page: false is not supported yet);
// valuesOut of self's dtype and shape but k along dim, indicesOut INT64 of that shape. Equal elements come in index
// order; NaN ranks above every number (below, for smallest), as torch orders it on the CPU: the page says nothing of
// NaN, so this is the fake's assumption.
aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest, bool sorted,
                                      aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !valuesOut || !indicesOut) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self), d = dim < 0 ? dim + nd : dim;
  if (!is_real(self) || valuesOut->dtype != self->dtype || indicesOut->dtype != ACL_INT64 || nd < 1 || nd > 8 ||
      d < 0 || d >= nd || !sorted || k < 0 || k > self->dims[d])
    return ACLNN_ERR_PARAM_INVALID;
  std::vector<int64_t> want = self->dims;
  want[d] = k;
  if (valuesOut->dims != want || indicesOut->dims != want) return ACLNN_ERR_PARAM_INVALID;
  return make("TopKV2", 0, [=](void*) {
    const int64_t N = self->dims[d], inner = strides_of(self->dims)[d], outer = self->numel() / (N * inner);
    const int64_t size = elem_bytes(self->dtype);
    std::vector<int64_t> idx(N);
    auto first = [&](int64_t base) {
      return [=](int64_t p, int64_t q) {
        const float a = real_at(self, base + p * inner), b = real_at(self, base + q * inner);
        if (std::isnan(a) != std::isnan(b)) return std::isnan(a) == largest;
        if (!std::isnan(a) && a != b) return largest ? a > b : a < b;
        return p < q;
      };
    };
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t base = o * N * inner + i, obase = o * k * inner + i;
        std::iota(idx.begin(), idx.end(), 0);
        std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), first(base));
        for (int64_t j = 0; j < k; ++j) {
          std::memcpy(static_cast<char*>(valuesOut->data) + (valuesOut->offset + obase + j * inner) * size,
                      static_cast<const char*>(self->data) + (self->offset + base + idx[j] * inner) * size, size);
          i64(indicesOut)[obase + j * inner] = idx[j];
        }
      }
  }, ws, ex);
}
aclnnStatus aclnnTopk(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// torch's adaptive_avg_pool3d over the last three axes of self [N, C, D, H, W] or [C, D, H, W] (ND or NCDHW) into
// out of self's leading axes and outputSize [OD, OH, OW]: out index o on an axis of size in averages the inputs
// [floor(o in / out), ceil((o + 1) in / out)). self and out of one dtype (the fake computes FLOAT only) and format;
// no empty tensor; outputSize three positive values. Sums in double, one rounding to fp32.
aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize, aclTensor* out,
                                                   uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !outputSize || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self);
  if (self->dtype != ACL_FLOAT || out->dtype != self->dtype || out->format != self->format || (nd != 4 && nd != 5) ||
      rank(out) != nd || outputSize->values.size() != 3 || self->numel() == 0)
    return ACLNN_ERR_PARAM_INVALID;
  std::vector<int64_t> want = self->dims;
  for (int k = 0; k < 3; ++k) {
    if (outputSize->values[k] <= 0) return ACLNN_ERR_PARAM_INVALID;
    want[nd - 3 + k] = outputSize->values[k];
  }
  if (out->dims != want) return ACLNN_ERR_PARAM_INVALID;
  return make("AdaptiveAvgPool3d", 0, [=](void*) {
    const int64_t D = self->dims[nd - 3], H = self->dims[nd - 2], W = self->dims[nd - 1];
    const int64_t OD = want[nd - 3], OH = want[nd - 2], OW = want[nd - 1], planes = self->numel() / (D * H * W);
    auto lo = [](int64_t o, int64_t in, int64_t n) { return o * in / n; };
    auto hi = [](int64_t o, int64_t in, int64_t n) { return ((o + 1) * in + n - 1) / n; };
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            double sum = 0;
            const int64_t d0 = lo(od, D, OD), d1 = hi(od, D, OD), h0 = lo(oh, H, OH), h1 = hi(oh, H, OH);
            const int64_t w0 = lo(ow, W, OW), w1 = hi(ow, W, OW);
            for (int64_t d = d0; d < d1; ++d)
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w) sum += self->f32()[((p * D + d) * H + h) * W + w];
            out->f32()[((p * OD + od) * OH + oh) * OW + ow] =
                static_cast<float>(sum / static_cast<double>((d1 - d0) * (h1 - h0) * (w1 - w0)));
          }
  }, ws, ex);
}
aclnnStatus aclnnAdaptiveAvgPool3d(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) {
  return launch(w, n, e, s);
}

// x = x1 + x2 into xOut; per row of D = x1's last axis, y = x / sqrt(mean(x^2) + epsilon) * gamma; with
// smoothScale1Optional, input = y * smoothScale1, scale1Out = row_max(|input|) / 127, y1Out = round(input /
// scale1Out) (ties to even, INT8); without it, input = y; with smoothScale2Optional too, the same into y2Out and
// scale2Out. x1, x2, gamma and the smooth scales FLOAT16 or BFLOAT16 of one dtype, x1 and x2 of one shape of rank
// 2..8, gamma and the smooth scales [D]; smoothScale2Optional only with smoothScale1Optional; y1Out INT8 of x1's
// shape (or [rows, D]); y2Out INT8 of y1Out's shape, or [1] without smoothScale2Optional; xOut of x1's dtype and
// shape; scale1Out and scale2Out FLOAT of x1's shape without the last axis (or [rows]). The page does not say in
// what precision: the fake computes as CANN's kernels do, in fp32 (s = x1 + x2, the mean of s^2 summed in double and
// rounded once, r = 1 / sqrt(ms + epsilon), ((s r) gamma) smooth, a divide by the scale), a row whose scale is 0
// quantising to 0.
aclnnStatus aclnnAddRmsNormDynamicQuantGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                        const aclTensor* gamma,
                                                        const aclTensor* smoothScale1Optional,
                                                        const aclTensor* smoothScale2Optional, double epsilon,
                                                        aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
                                                        aclTensor* scale1Out, aclTensor* scale2Out, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  if (!x1 || !x2 || !gamma || !y1Out || !y2Out || !xOut || !scale1Out || !scale2Out) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor *s1 = smoothScale1Optional, *s2 = smoothScale2Optional;
  const aclDataType dt = x1->dtype;
  if ((dt != ACL_FLOAT16 && dt != ACL_BF16) || x2->dtype != dt || gamma->dtype != dt || xOut->dtype != dt ||
      (s1 && s1->dtype != dt) || (s2 && (!s1 || s2->dtype != dt)) || y1Out->dtype != ACL_INT8 ||
      y2Out->dtype != ACL_INT8 || scale1Out->dtype != ACL_FLOAT || scale2Out->dtype != ACL_FLOAT)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t nd = rank(x1);
  if (nd < 2 || nd > 8 || x2->dims != x1->dims || xOut->dims != x1->dims) return ACLNN_ERR_PARAM_INVALID;
  const int64_t D = x1->dims.back(), M = x1->numel() / D;
  const std::vector<int64_t> lead(x1->dims.begin(), x1->dims.end() - 1);
  if (gamma->dims != std::vector<int64_t>{D} || (s1 && s1->dims != gamma->dims) || (s2 && s2->dims != gamma->dims) ||
      (y1Out->dims != x1->dims && y1Out->dims != std::vector<int64_t>{M, D}) ||
      (s2 ? y2Out->dims != y1Out->dims : y2Out->dims != std::vector<int64_t>{1}) ||
      (scale1Out->dims != lead && scale1Out->dims != std::vector<int64_t>{M}) || scale2Out->dims != scale1Out->dims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("AddRmsNormDynamicQuant", 0, [=](void*) {
    std::vector<float> s(D), t(D);
    for (int64_t m = 0; m < M; ++m) {
      double sq = 0;
      for (int64_t j = 0; j < D; ++j) {
        s[j] = half_at(x1, m * D + j) + half_at(x2, m * D + j);
        at<uint16_t>(xOut)[m * D + j] = to_half(s[j], dt);
        sq += static_cast<double>(s[j]) * s[j];
      }
      const float ms = static_cast<float>(sq / static_cast<double>(D));
      const float r = 1.0f / std::sqrt(ms + static_cast<float>(epsilon));
      for (int q = 0; q < (s2 ? 2 : 1); ++q) {
        const aclTensor* smooth = q == 0 ? s1 : s2;
        float amax = 0;
        for (int64_t j = 0; j < D; ++j) {
          t[j] = (s[j] * r) * half_at(gamma, j);
          if (smooth) t[j] = t[j] * half_at(smooth, j);
          amax = std::fmax(amax, std::fabs(t[j]));
        }
        const float scale = amax / 127.0f;
        (q == 0 ? scale1Out : scale2Out)->f32()[m] = scale;
        for (int64_t j = 0; j < D; ++j) {
          const float v = scale == 0 ? 0.0f : std::nearbyint(t[j] / scale);
          at<int8_t>(q == 0 ? y1Out : y2Out)[m * D + j] = static_cast<int8_t>(std::fmin(127.0f, std::fmax(-128.0f, v)));
        }
      }
    }
  }, ws, ex);
}
aclnnStatus aclnnAddRmsNormDynamicQuant(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) {
  return launch(w, n, e, s);
}

// A forward (not transposed) 2-D convolution, torch's conv2d: output[n, co, oh, ow] = bias[co] + sum over the
// input channels of co's group, kh and kw of weight[co, ci, kh, kw] input[n, g Cg + ci, oh sh - ph + kh dh, ow sw -
// pw + kw dw], zero outside input; OH = (H + 2 ph - dh (KH - 1) - 1) / sh + 1, likewise OW. input, weight and output
// NCHW of rank 4 (the fake computes conv2d only, and neither NCL nor NCDHW), bias 1-D [Co] (ND or NCHW) or null;
// stride, dilation 2 values >= 1, padding 2 values in [0, 255] (the page's 4-value padding is not modelled);
// groups in [1, 65535] with Ci = groups * weight's C and Co a multiple of groups; output of the inferred shape and
// input's dtype. Dtypes: FLOAT16 or BFLOAT16 for all four; cubeMathType 0 (KEEP_DTYPE) does not take FLOAT on
// Atlas A2/A3 (the page), and the HFLOAT32 modes (1, 3) are not modelled, so FLOAT is refused; 2 (USE_FP16) refuses
// BFLOAT16, as the page says. Sums in double, one rounding to the output's dtype (through fp32).
aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups,
                                             aclTensor* output, int8_t cubeMathType, uint64_t* ws,
                                             aclOpExecutor** ex) {
  if (!input || !weight || !stride || !padding || !dilation || !output) return ACLNN_ERR_PARAM_NULLPTR;
  (void)outputPadding;  // ignored by a forward convolution
  const aclDataType dt = input->dtype;
  if ((dt != ACL_FLOAT16 && dt != ACL_BF16) || weight->dtype != dt || output->dtype != dt ||
      (bias && bias->dtype != dt) || cubeMathType < 0 || cubeMathType > 3 || (cubeMathType == 2 && dt == ACL_BF16) ||
      transposed)
    return ACLNN_ERR_PARAM_INVALID;
  if (rank(input) != 4 || rank(weight) != 4 || rank(output) != 4 || input->format != ACL_FORMAT_NCHW ||
      weight->format != ACL_FORMAT_NCHW || output->format != ACL_FORMAT_NCHW || stride->values.size() != 2 ||
      padding->values.size() != 2 || dilation->values.size() != 2 || groups < 1 || groups > 65535)
    return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& i = input->dims;
  const std::vector<int64_t>& w = weight->dims;
  const int64_t N = i[0], Ci = i[1], H = i[2], W = i[3], Co = w[0], Cg = w[1], KH = w[2], KW = w[3];
  const int64_t sh = stride->values[0], sw = stride->values[1], ph = padding->values[0], pw = padding->values[1];
  const int64_t dh = dilation->values[0], dw = dilation->values[1];
  if (Ci != groups * Cg || Co % groups != 0 || (bias && bias->dims != std::vector<int64_t>{Co}) || sh < 1 || sw < 1 ||
      dh < 1 || dw < 1 || ph < 0 || ph > 255 || pw < 0 || pw > 255 || H + 2 * ph < dh * (KH - 1) + 1 ||
      W + 2 * pw < dw * (KW - 1) + 1)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t OH = (H + 2 * ph - dh * (KH - 1) - 1) / sh + 1, OW = (W + 2 * pw - dw * (KW - 1) - 1) / sw + 1;
  if (output->dims != std::vector<int64_t>{N, Co, OH, OW}) return ACLNN_ERR_PARAM_INVALID;
  return make("Conv2D", 0, [=](void*) {
    const int64_t per = Co / groups;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t co = 0; co < Co; ++co)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            double acc = bias ? real_at(bias, co) : 0.0;
            for (int64_t c = 0; c < Cg; ++c) {
              const int64_t ci = co / per * Cg + c;
              for (int64_t kh = 0; kh < KH; ++kh) {
                const int64_t y = oh * sh - ph + kh * dh;
                if (y < 0 || y >= H) continue;
                for (int64_t kw = 0; kw < KW; ++kw) {
                  const int64_t x = ow * sw - pw + kw * dw;
                  if (x < 0 || x >= W) continue;
                  acc += static_cast<double>(real_at(weight, ((co * Cg + c) * KH + kh) * KW + kw)) *
                         real_at(input, ((n * Ci + ci) * H + y) * W + x);
                }
              }
            }
            set_real(output, ((n * Co + co) * OH + oh) * OW + ow, acc);
          }
  }, ws, ex);
}
aclnnStatus aclnnConvolution(void* w, const uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// out takes self's elements starts[i], starts[i] + steps[i], ... below ends[i] along axes[i], the other axes whole.
// Per axis of size N: starts below -N become 0, at or above N become N, others (starts + N) % N; ends at or above N
// become N, others (ends + N) % N, or starts where that is below starts; out.shape[axis] = floor((ends - starts +
// steps - 1) / steps). self and out of one dtype among those the page lists for Atlas A2/A3, rank at most 8 (values
// moved, any element size); starts, ends, axes and steps of one length; axes in [-rank, rank) and distinct; steps
// positive.
aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts, const aclIntArray* ends,
                                         const aclIntArray* axes, const aclIntArray* steps, aclTensor* out,
                                         uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !starts || !ends || !axes || !steps || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const int64_t nd = rank(self), size = elem_bytes(self->dtype), L = static_cast<int64_t>(axes->values.size());
  if (size == 0 || out->dtype != self->dtype || nd > 8 || rank(out) != nd ||
      static_cast<int64_t>(starts->values.size()) != L || static_cast<int64_t>(ends->values.size()) != L ||
      static_cast<int64_t>(steps->values.size()) != L)
    return ACLNN_ERR_PARAM_INVALID;
  std::vector<int64_t> first(nd, 0), step(nd, 1), want = self->dims;
  std::vector<bool> seen(nd, false);
  for (int64_t k = 0; k < L; ++k) {
    const int64_t d = axes->values[k] < 0 ? axes->values[k] + nd : axes->values[k];
    if (d < 0 || d >= nd || seen[d] || steps->values[k] <= 0) return ACLNN_ERR_PARAM_INVALID;
    seen[d] = true;
    const int64_t N = self->dims[d], s0 = starts->values[k], e0 = ends->values[k];
    const int64_t b = s0 < -N ? 0 : s0 >= N ? N : (s0 + N) % N;
    const int64_t e = e0 >= N ? N : ((e0 + N) % N < b ? b : (e0 + N) % N);
    first[d] = b;
    step[d] = steps->values[k];
    want[d] = (e - b + step[d] - 1) / step[d];
  }
  if (out->dims != want) return ACLNN_ERR_PARAM_INVALID;
  return make("StridedSliceV2", 0, [=](void*) {
    const std::vector<int64_t> is = strides_of(self->dims);
    std::vector<int64_t> from(nd);
    int64_t base = 0;
    for (int64_t k = 0; k < nd; ++k) {
      base += first[k] * is[k];
      from[k] = step[k] * is[k];
    }
    gather_strided(self, out, size, base, from);
  }, ws, ex);
}
aclnnStatus aclnnSliceV2(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// The quantised matmul the fake models: x1 INT8 [M, K] and x2 INT8 [K, N] (neither transposed, no batch), scale
// FLOAT32 [N] or [1], pertokenScaleOptional FLOAT32 [M], bias INT32 [N] or null, offset null, out FLOAT16 or
// BFLOAT16 [M, N]: out = (x1 @ x2 + bias) * scale * pertokenScale, the product summed exactly in int32 (the page's
// "pertoken, bias INT32" row; FLOAT16 and BFLOAT16 are the outs its Atlas A2/A3 dtype table gives a FLOAT32 scale
// with a pertoken scale). Other combinations of the page (UINT64 scales, INT8 or INT32 out, offsets, INT4) are
// refused, as FLOAT32 out is by the page.
aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                                               const aclTensor* offset, const aclTensor* pertokenScaleOptional,
                                               const aclTensor* bias, bool transposeX1, bool transposeX2,
                                               const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  if (!x1 || !x2 || !scale || !out) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* pt = pertokenScaleOptional;
  if (x1->dtype != ACL_INT8 || x2->dtype != ACL_INT8 || scale->dtype != ACL_FLOAT || !pt || pt->dtype != ACL_FLOAT ||
      offset || (bias && bias->dtype != ACL_INT32) || (out->dtype != ACL_FLOAT16 && out->dtype != ACL_BF16) ||
      transposeX1 || transposeX2 || rank(x1) != 2 || rank(x2) != 2)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t M = x1->dims[0], K = x1->dims[1], N = x2->dims[1];
  if (x2->dims[0] != K || (scale->dims != std::vector<int64_t>{N} && scale->dims != std::vector<int64_t>{1}) ||
      pt->dims != std::vector<int64_t>{M} || (bias && bias->dims != std::vector<int64_t>{N}) ||
      out->dims != std::vector<int64_t>{M, N})
    return ACLNN_ERR_PARAM_INVALID;
  return make("QuantBatchMatmulV3", 0, [=](void*) {
    const int8_t* a = at<int8_t>(x1);
    const int8_t* b = at<int8_t>(x2);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        int32_t acc = bias ? i32(bias)[n] : 0;
        for (int64_t k = 0; k < K; ++k) acc += static_cast<int32_t>(a[m * K + k]) * b[k * N + n];
        const double sc = scale->f32()[scale->numel() == 1 ? 0 : n];
        set_real(out, m * N + n, static_cast<double>(acc) * sc * pt->f32()[m]);
      }
  }, ws, ex);
}
aclnnStatus aclnnQuantMatmulV4(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// The non-quantised grouped matmul the fake models: groupType 0 (grouped along M) with one x [M, K], one weight
// [G, K, N], at most one bias [G, N] and one out [M, N] (splitItem 2 or 3), groupListOptional INT64 [G] of counts
// (groupListType 1) or of their running sums (0); rows start_g .. start_g + count_g of out = those rows of x @
// weight[g] + bias[g], the rows past the last group not updated (the page). Dtypes as the page's Atlas A2/A3
// non-quantised rows: FLOAT x, weight and out with a FLOAT bias, FLOAT16 with FLOAT16, BFLOAT16 with FLOAT. The
// other lists (scales, offsets, antiquant, per-token, activation) null, actType 0. Counts that add up to more than M
// are the caller's error (the page requires them to fit; the operator does not check device data): the fake
// computes only the rows that fit and makes out's first element NaN. Sums in double, one rounding to out's dtype.
aclnnStatus aclnnGroupedMatmulV4GetWorkspaceSize(
    const aclTensorList* x, const aclTensorList* weight, const aclTensorList* biasOptional,
    const aclTensorList* scaleOptional, const aclTensorList* offsetOptional,
    const aclTensorList* antiquantScaleOptional, const aclTensorList* antiquantOffsetOptional,
    const aclTensorList* perTokenScaleOptional, const aclTensor* groupListOptional,
    const aclTensorList* activationInputOptional, const aclTensorList* activationQuantScaleOptional,
    const aclTensorList* activationQuantOffsetOptional, int64_t splitItem, int64_t groupType, int64_t groupListType,
    int64_t actType, aclTensorList* out, aclTensorList* activationFeatureOutOptional,
    aclTensorList* dynQuantScaleOutOptional, uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !weight || !out) return ACLNN_ERR_PARAM_NULLPTR;
  if (scaleOptional || offsetOptional || antiquantScaleOptional || antiquantOffsetOptional || perTokenScaleOptional ||
      activationInputOptional || activationQuantScaleOptional || activationQuantOffsetOptional ||
      activationFeatureOutOptional || dynQuantScaleOutOptional || actType != 0 || groupType != 0 ||
      (splitItem != 2 && splitItem != 3) || (groupListType != 0 && groupListType != 1) || !groupListOptional ||
      x->size() != 1 || weight->size() != 1 || out->size() != 1 || (biasOptional && biasOptional->size() != 1))
    return ACLNN_ERR_PARAM_INVALID;
  const aclTensor *X = (*x)[0], *Wt = (*weight)[0], *Y = (*out)[0], *B = biasOptional ? (*biasOptional)[0] : nullptr;
  const aclTensor* gl = groupListOptional;
  const aclDataType dt = X->dtype;
  const aclDataType bias_dt = dt == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT;
  if (!X || !Wt || !Y || !is_real(X) || Wt->dtype != dt || Y->dtype != dt || (B && B->dtype != bias_dt) ||
      gl->dtype != ACL_INT64 || rank(X) != 2 || rank(Wt) != 3 || rank(Y) != 2 || rank(gl) != 1)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t M = X->dims[0], K = X->dims[1], G = Wt->dims[0], N = Wt->dims[2];
  if (Wt->dims[1] != K || K >= 65536 || N >= 65536 || G > 1024 || gl->dims[0] != G ||
      Y->dims != std::vector<int64_t>{M, N} || (B && B->dims != std::vector<int64_t>{G, N}))
    return ACLNN_ERR_PARAM_INVALID;
  return make("GroupedMatmul", 0, [=](void*) {
    int64_t start = 0;
    for (int64_t g = 0; g < G; ++g) {
      const int64_t v = i64(gl)[g], end = groupListType == 1 ? start + v : v;
      if (v < 0 || end < start || end > M) {
        set_real(Y, 0, NAN);
        return;
      }
      for (int64_t m = start; m < end; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double acc = B ? real_at(B, g * N + n) : 0.0;
          for (int64_t k = 0; k < K; ++k)
            acc += static_cast<double>(real_at(X, m * K + k)) * real_at(Wt, (g * K + k) * N + n);
          set_real(Y, m * N + n, acc);
        }
      start = end;
    }
  }, ws, ex);
}
aclnnStatus aclnnGroupedMatmulV4(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

// The sorted form with inverse and counts, as the task asks for it; FLOAT, INT32 and INT64 (the other listed dtypes
// are not modelled and are refused). valueOut is one-dimensional with self's element count, inverseOut has self's
// shape, countsOut valueOut's.
aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, bool returnCounts,
                                         aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut,
                                         uint64_t* ws, aclOpExecutor** ex) {
  if (!self || !valueOut || !inverseOut || !countsOut) return ACLNN_ERR_PARAM_NULLPTR;
  const aclDataType dt = self->dtype;
  if ((dt != ACL_FLOAT && dt != ACL_INT32 && dt != ACL_INT64) || !sorted || !returnInverse || !returnCounts ||
      valueOut->dtype != dt || inverseOut->dtype != ACL_INT64 || countsOut->dtype != ACL_INT64 || rank(self) > 8 ||
      rank(valueOut) != 1 || valueOut->numel() != self->numel() || inverseOut->dims != self->dims ||
      countsOut->dims != valueOut->dims)
    return ACLNN_ERR_PARAM_INVALID;
  return make("Unique2", 0, [=](void*) {
    if (dt == ACL_FLOAT) unique_sorted<float>(self, valueOut, inverseOut, countsOut);
    else if (dt == ACL_INT32) unique_sorted<int32_t>(self, valueOut, inverseOut, countsOut);
    else unique_sorted<int64_t>(self, valueOut, inverseOut, countsOut);
  }, ws, ex);
}
aclnnStatus aclnnUnique2(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
