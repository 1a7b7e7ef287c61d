// More of the stand-in for CANN's libopapi (see fake_opapi.cpp): the second batch of the L3 suite's operators beside
// fake_opapi_g3b.cpp's, aclnnConvolutionBackward and aclnnDequantSwigluQuant, each the documented two-phase pair with
// the signatures of the include/aclnnop headers beside this file. As in fake_opapi_g3b.cpp, the first phase checks
// what the page says it checks and refuses the rest with ACLNN_ERR_PARAM_INVALID, as it does what the fake does not
// model (each says what); ConvolutionBackward's arithmetic in double with one rounding to the output's dtype,
// DequantSwigluQuant's in the fp32 steps of CANN's Atlas A2 kernel. Each run tells the fake runtime it launched a kernel
// named after the operator's AI Core kernel; FAKE_ACLNN_FAIL=<that name> makes the first phase fail.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "fake_opapi_common.h"

namespace {

int64_t rank(const aclTensor* t) { return static_cast<int64_t>(t->dims.size()); }

}  // namespace

extern "C" {

// The weight gradient of a forward (not transposed) 3-D convolution, the only gradient the fake computes:
// gradWeight[co, c, kd, kh, kw] = sum over n, od, oh, ow of gradOutput[n, co, od, oh, ow] input[n, g Cg + c,
// od sd - pd + kd dd, oh sh - ph + kh dh, ow sw - pw + kw dw] (g = co's group), zero outside input. gradOutput,
// input, weight, gradInput and gradWeight NCDHW of rank 5 (1-D and 2-D convolutions are not modelled), one dtype among
// FLOAT, FLOAT16 and BFLOAT16; weight gives only gradWeight's shape (its values are not read); gradInput (the page
// refuses a null one) must have input's shape and is not written. outputMask [false, true, false] only (the input and
// bias gradients are not modelled), biasSizes [Co], outputPadding zeros. The page's Atlas A2/A3 limits of a 3-D
// forward convolution's gradient: strideD >= 1, strideH and strideW in [1, 63], paddingD >= 0, paddingH and paddingW
// in [0, 255], dilation in [1, 255], weight's H and W in [1, 255], groups in [1, 65535] with Ci = groups Cg, and
// (input + 2 pad) >= (weight - 1) dilation + 1 on each axis. cubeMathType 0 (KEEP_DTYPE, which the page's Atlas A2/A3
// column constrains in no way); 1 and 3 turn FLOAT into HFLOAT32 and 2 FLOAT into FLOAT16, which are not modelled, so
// they are refused with FLOAT; 2 refuses BFLOAT16, as the page says.
aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input,
                                                     const aclTensor* weight, const aclIntArray* biasSizes,
                                                     const aclIntArray* stride, const aclIntArray* padding,
                                                     const aclIntArray* dilation, bool transposed,
                                                     const aclIntArray* outputPadding, int groups,
                                                     const aclBoolArray* outputMask, int8_t cubeMathType,
                                                     aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
                                                     uint64_t* ws, aclOpExecutor** ex) {
  (void)gradBias;  // may be null when outputMask[2] is false
  if (!gradOutput || !input || !weight || !biasSizes || !stride || !padding || !dilation || !outputPadding ||
      !outputMask || !gradInput || !gradWeight)
    return ACLNN_ERR_PARAM_NULLPTR;
  const aclDataType dt = input->dtype;
  if ((dt != ACL_FLOAT && dt != ACL_FLOAT16 && dt != ACL_BF16) || gradOutput->dtype != dt || weight->dtype != dt ||
      gradWeight->dtype != dt || gradInput->dtype != dt || cubeMathType < 0 || cubeMathType > 3 ||
      (cubeMathType != 0 && dt == ACL_FLOAT) || (cubeMathType == 2 && dt == ACL_BF16) || transposed)
    return ACLNN_ERR_PARAM_INVALID;
  const aclTensor* const all[] = {gradOutput, input, weight, gradInput, gradWeight};
  for (const aclTensor* t : all)
    if (rank(t) != 5 || t->format != ACL_FORMAT_NCDHW) return ACLNN_ERR_PARAM_INVALID;
  if (outputMask->values != std::vector<bool>{false, true, false} || stride->values.size() != 3 ||
      padding->values.size() != 3 || dilation->values.size() != 3 ||
      outputPadding->values != std::vector<int64_t>{0, 0, 0} || groups < 1 || groups > 65535)
    return ACLNN_ERR_PARAM_INVALID;
  const std::vector<int64_t>& i = input->dims;
  const std::vector<int64_t>& w = weight->dims;
  const int64_t N = i[0], Ci = i[1], D = i[2], H = i[3], W = i[4];
  const int64_t Co = w[0], Cg = w[1], KD = w[2], KH = w[3], KW = w[4];
  const std::vector<int64_t>& s = stride->values;
  const std::vector<int64_t>& p = padding->values;
  const std::vector<int64_t>& d = dilation->values;
  if (Ci != groups * Cg || Co % groups != 0 || biasSizes->values != std::vector<int64_t>{Co} || s[0] < 1 ||
      s[1] < 1 || s[1] > 63 || s[2] < 1 || s[2] > 63 || p[0] < 0 || p[1] < 0 || p[1] > 255 || p[2] < 0 ||
      p[2] > 255 || KD < 1 || KH < 1 || KH > 255 || KW < 1 || KW > 255 || gradInput->dims != i ||
      gradWeight->dims != w)
    return ACLNN_ERR_PARAM_INVALID;
  for (int k = 0; k < 3; ++k)
    if (d[k] < 1 || d[k] > 255 || i[2 + k] + 2 * p[k] < (w[2 + k] - 1) * d[k] + 1) return ACLNN_ERR_PARAM_INVALID;
  const int64_t OD = (D + 2 * p[0] - d[0] * (KD - 1) - 1) / s[0] + 1;
  const int64_t OH = (H + 2 * p[1] - d[1] * (KH - 1) - 1) / s[1] + 1;
  const int64_t OW = (W + 2 * p[2] - d[2] * (KW - 1) - 1) / s[2] + 1;
  if (gradOutput->dims != std::vector<int64_t>{N, Co, OD, OH, OW}) return ACLNN_ERR_PARAM_INVALID;
  return make("Conv3DBackpropFilterV2", 0, [=](void*) {
    const int64_t per = Co / groups;
    for (int64_t co = 0; co < Co; ++co)
      for (int64_t c = 0; c < Cg; ++c)
        for (int64_t kd = 0; kd < KD; ++kd)
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw) {
              const int64_t ci = co / per * Cg + c;
              double acc = 0;
              for (int64_t n = 0; n < N; ++n)
                for (int64_t od = 0; od < OD; ++od) {
                  const int64_t z = od * s[0] - p[0] + kd * d[0];
                  if (z < 0 || z >= D) continue;
                  for (int64_t oh = 0; oh < OH; ++oh) {
                    const int64_t y = oh * s[1] - p[1] + kh * d[1];
                    if (y < 0 || y >= H) continue;
                    for (int64_t ow = 0; ow < OW; ++ow) {
                      const int64_t x = ow * s[2] - p[2] + kw * d[2];
                      if (x < 0 || x >= W) continue;
                      acc += static_cast<double>(real_at(gradOutput, (((n * Co + co) * OD + od) * OH + oh) * OW + ow)) *
                             real_at(input, (((n * Ci + ci) * D + z) * H + y) * W + x);
                    }
                  }
                }
              set_real(gradWeight, (((co * Cg + c) * KD + kd) * KH + kh) * KW + kw, acc);
            }
  }, ws, ex);
}
aclnnStatus aclnnConvolutionBackward(void* w, uint64_t n, aclOpExecutor* e, const aclrtStream s) {
  return launch(w, n, e, s);
}

// Dequantise, SwiGLU and quantise per row, with x INT32 (a quantised matmul's accumulator), dynamic quantisation and
// neither bias, quantOffsetOptional nor groupIndexOptional (the fake models only that path; FLOAT16 and BFLOAT16 x,
// a bias, static quantisation and the MoE group index are refused as not modelled). Shapes as the page gives them
// for Atlas A2: x [N..., 2H] of rank 2..8, weightScaleOptional FLOAT [2H] (required here: INT32 x needs it),
// activationScaleOptional FLOAT [N..., 1] or null, quantScaleOptional FLOAT [H] or null, yOut INT8 [N..., H],
// scaleOut FLOAT [N...]. The page's memory limit on Atlas A2/A3 is checked as it states it: the bytes of the weight,
// bias and quant scales and offsets, plus those of the activation scale and scaleOut over 40, plus 10 times those of
// x's last dimension, under 192 KB; past it the first phase returns ACLNN_ERR_INNER_TILING_ERROR (561002).
// The arithmetic is that of CANN's A2 kernel (ops-nn quant/dequant_swiglu_quant/op_kernel, the dynamic path), each
// step rounded to fp32: a = (fp32(x) * weightScale) * activationScale, likewise b; swish = a / (1 + Exp(-a)), with
// the host's fp32 exp standing in for the vector unit's Exp; v = (swish * b) * quantScale; scale = max|v| / 127;
// y = rint(v * (1 / scale)), a multiply by the reciprocal, not a divide. A zero row gives 0 * inf, NaN, which the
// float-to-int16 cast turns to 0.
aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScaleOptional,
                                                    const aclTensor* activationScaleOptional,
                                                    const aclTensor* biasOptional,
                                                    const aclTensor* quantScaleOptional,
                                                    const aclTensor* quantOffsetOptional,
                                                    const aclTensor* groupIndexOptional, bool activateLeft,
                                                    char* quantModeOptional, const aclTensor* yOut,
                                                    const aclTensor* scaleOut, uint64_t* ws, aclOpExecutor** ex) {
  if (!x || !yOut || !scaleOut) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor *wsc = weightScaleOptional, *asc = activationScaleOptional, *qsc = quantScaleOptional;
  const int64_t nd = rank(x);
  if (x->dtype != ACL_INT32 || nd < 2 || nd > 8 || x->dims.back() % 2 != 0) return ACLNN_ERR_PARAM_INVALID;
  if (biasOptional || quantOffsetOptional || groupIndexOptional || !quantModeOptional ||
      std::strcmp(quantModeOptional, "dynamic") != 0)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t H2 = x->dims.back(), H = H2 / 2, M = x->numel() / H2;
  std::vector<int64_t> lead(x->dims.begin(), x->dims.end() - 1), with_one = lead, halved = x->dims;
  with_one.push_back(1);
  halved.back() = H;
  if (!wsc || wsc->dtype != ACL_FLOAT || wsc->dims != std::vector<int64_t>{H2}) return ACLNN_ERR_PARAM_INVALID;
  if (asc && (asc->dtype != ACL_FLOAT || asc->dims != with_one)) return ACLNN_ERR_PARAM_INVALID;
  if (qsc && (qsc->dtype != ACL_FLOAT || qsc->dims != std::vector<int64_t>{H})) return ACLNN_ERR_PARAM_INVALID;
  if (yOut->dtype != ACL_INT8 || yOut->dims != halved || scaleOut->dtype != ACL_FLOAT || scaleOut->dims != lead)
    return ACLNN_ERR_PARAM_INVALID;
  const int64_t f = static_cast<int64_t>(sizeof(float));
  const int64_t bytes = H2 * f + (qsc ? H * f : 0) + ((asc ? M * f : 0) + M * f) / 40 + 10 * H2 * f;
  if (bytes >= 192 * 1024) return ACLNN_ERR_INNER_TILING_ERROR;
  return make("DequantSwigluQuant", 0, [=](void*) {
    std::vector<float> v(H);
    for (int64_t m = 0; m < M; ++m) {
      const float act = asc ? asc->f32()[m] : 1.0f;
      float amax = 0;
      for (int64_t j = 0; j < H; ++j) {
        const int64_t ja = activateLeft ? j : H + j, jb = activateLeft ? H + j : j;
        const float a = (static_cast<float>(i32(x)[m * H2 + ja]) * wsc->f32()[ja]) * act;
        const float b = (static_cast<float>(i32(x)[m * H2 + jb]) * wsc->f32()[jb]) * act;
        const float e = std::exp(-a);
        const float swish = a / (1.0f + e);
        const float p = swish * b;
        v[j] = qsc ? p * qsc->f32()[j] : p;
        amax = std::fmax(amax, std::fabs(v[j]));
      }
      const float scale = amax / 127.0f, r = 1.0f / scale;
      scaleOut->f32()[m] = scale;
      for (int64_t j = 0; j < H; ++j) {
        const float q = v[j] * r;
        const float i16 = std::isnan(q) ? 0.0f : std::fmin(32767.0f, std::fmax(-32768.0f, std::nearbyint(q)));
        at<int8_t>(yOut)[m * H + j] = static_cast<int8_t>(std::fmin(127.0f, std::fmax(-128.0f, i16)));
      }
    }
  }, ws, ex);
}
aclnnStatus aclnnDequantSwigluQuant(void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) { return launch(w, n, e, s); }

}  // extern "C"
