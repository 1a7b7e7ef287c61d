#include "kope/model/dtype.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "kope_kernel.h"

namespace kope {

std::optional<DType> parse_dtype(std::string_view name) {
  if (name == "fp32" || name == "float32") return DType::F32;
  if (name == "fp64" || name == "float64") return DType::F64;
  if (name == "fp16" || name == "float16") return DType::F16;
  if (name == "bf16" || name == "bfloat16") return DType::BF16;
  if (name == "int32") return DType::I32;
  if (name == "int64") return DType::I64;
  if (name == "uint8" || name == "bool") return DType::U8;
  if (name == "int8") return DType::I8;
  return std::nullopt;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::F32: return "fp32";
    case DType::F64: return "fp64";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
    case DType::I32: return "int32";
    case DType::I64: return "int64";
    case DType::U8: return "uint8";
    case DType::I8: return "int8";
  }
  return "?";
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::F32: case DType::I32: return 4;
    case DType::F64: case DType::I64: return 8;
    case DType::F16: case DType::BF16: return 2;
    case DType::U8: case DType::I8: return 1;
  }
  return 0;
}

bool is_floating(DType t) {
  return t == DType::F32 || t == DType::F64 || t == DType::F16 || t == DType::BF16;
}

double default_threshold(DType t) {
  switch (t) {
    case DType::F32: return std::ldexp(1.0, -13);
    case DType::F16: return std::ldexp(1.0, -10);
    case DType::BF16: return std::ldexp(1.0, -7);
    case DType::F64: return std::ldexp(1.0, -30);
    default: return 0.0;
  }
}

namespace {
template <typename I>
double round_int(double v) {
  if (std::isnan(v)) return 0.0;
  double r = std::round(v);
  const double lo = static_cast<double>(std::numeric_limits<I>::min());
  const double hi = static_cast<double>(std::numeric_limits<I>::max());
  return r < lo ? lo : (r > hi ? hi : r);
}
}  // namespace

double round_to(DType t, double v) {
  switch (t) {
    case DType::F32: return static_cast<float>(v);
    case DType::F64: return v;
    case DType::F16: return kope_f16_to_f32(kope_f32_to_f16(static_cast<float>(v)));
    case DType::BF16: return kope_bf16_to_f32(kope_f32_to_bf16(static_cast<float>(v)));
    case DType::I32: return round_int<int32_t>(v);
    case DType::I64: return round_int<int64_t>(v);
    case DType::U8: return round_int<uint8_t>(v);
    case DType::I8: return round_int<int8_t>(v);
  }
  return v;
}

double load_as_double(DType t, const void* base, std::size_t i) {
  switch (t) {
    case DType::F32: return static_cast<const float*>(base)[i];
    case DType::F64: return static_cast<const double*>(base)[i];
    case DType::F16: return kope_f16_to_f32(static_cast<const uint16_t*>(base)[i]);
    case DType::BF16: return kope_bf16_to_f32(static_cast<const uint16_t*>(base)[i]);
    case DType::I32: return static_cast<const int32_t*>(base)[i];
    case DType::I64: return static_cast<double>(static_cast<const int64_t*>(base)[i]);
    case DType::U8: return static_cast<const uint8_t*>(base)[i];
    case DType::I8: return static_cast<const int8_t*>(base)[i];
  }
  return 0.0;
}

void store_from_double(DType t, void* base, std::size_t i, double v) {
  switch (t) {
    case DType::F32: static_cast<float*>(base)[i] = static_cast<float>(v); break;
    case DType::F64: static_cast<double*>(base)[i] = v; break;
    case DType::F16: static_cast<uint16_t*>(base)[i] = kope_f32_to_f16(static_cast<float>(v)); break;
    case DType::BF16: static_cast<uint16_t*>(base)[i] = kope_f32_to_bf16(static_cast<float>(v)); break;
    case DType::I32: static_cast<int32_t*>(base)[i] = static_cast<int32_t>(round_int<int32_t>(v)); break;
    case DType::I64: static_cast<int64_t*>(base)[i] = static_cast<int64_t>(round_int<int64_t>(v)); break;
    case DType::U8: static_cast<uint8_t*>(base)[i] = static_cast<uint8_t>(round_int<uint8_t>(v)); break;
    case DType::I8: static_cast<int8_t*>(base)[i] = static_cast<int8_t>(round_int<int8_t>(v)); break;
  }
}

}  // namespace kope
