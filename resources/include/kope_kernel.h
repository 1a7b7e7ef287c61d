/* The ABI between kope and a CPU kernel: tensors, scalar attributes, the entry point, dtype helpers. */
#ifndef KOPE_KERNEL_H
#define KOPE_KERNEL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types. Floating tensors of a reference build are always KOPE_F64. */
enum kope_dtype {
  KOPE_F32 = 0,
  KOPE_F64 = 1,
  KOPE_F16 = 2,  /* IEEE half, stored as uint16_t */
  KOPE_BF16 = 3, /* bfloat16, stored as uint16_t */
  KOPE_I32 = 4,
  KOPE_I64 = 5,
  KOPE_U8 = 6, /* bool masks and bytes */
  KOPE_I8 = 7  /* quantised values */
};

#define KOPE_MAX_DIMS 8

typedef struct kope_tensor {
  const char* name;
  void* data;
  int32_t dtype;
  int32_t ndim;
  int64_t shape[KOPE_MAX_DIMS];
  int64_t numel;
} kope_tensor;

typedef struct kope_attr {
  const char* name;
  double value;
} kope_attr;

typedef struct kope_args {
  int32_t n_inputs;
  const kope_tensor* inputs;
  int32_t n_outputs;
  const kope_tensor* outputs; /* the tensors are fixed; their data is for the kernel to write */
  int32_t n_attrs;
  const kope_attr* attrs;
} kope_args;

/* The entry point every kernel, baseline and reference exports. Return 0 on success; any other value is
   reported as a runtime error of the kernel. */
int kope_kernel(const kope_args* args);

/* The value of a scalar attribute, or `fallback` when the task has none of that name. */
static inline double kope_attr_or(const kope_args* a, const char* name, double fallback) {
  for (int32_t i = 0; i < a->n_attrs; ++i)
    if (strcmp(a->attrs[i].name, name) == 0) return a->attrs[i].value;
  return fallback;
}

static inline uint32_t kope_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float kope_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline float kope_bf16_to_f32(uint16_t h) { return kope_bits_f32((uint32_t)h << 16); }

static inline uint16_t kope_f32_to_bf16(float f) {
  uint32_t u = kope_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
  u += 0x7fffu + ((u >> 16) & 1u);                                            /* round to nearest even */
  return (uint16_t)(u >> 16);
}

static inline float kope_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1fu) return kope_bits_f32(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return kope_bits_f32(sign);
    float v = (float)man * (1.0f / 16777216.0f); /* man * 2^-24 */
    return sign ? -v : v;
  }
  return kope_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t kope_f32_to_f16(float f) {
  uint32_t u = kope_f32_bits(f);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to infinity */
  if (a < 0x38800000u) {                                   /* subnormal or zero in half */
    float v = kope_bits_f32(a) * 16777216.0f;              /* scale by 2^24, round to integer */
    uint32_t m = (uint32_t)lrintf(v);
    return (uint16_t)(sign | m);
  }
  uint32_t rounded = a + 0xfffu + ((a >> 13) & 1u);
  return (uint16_t)(sign | ((rounded - 0x38000000u) >> 13));
}

/* A reference is built with KOPE_REAL=double; the same source built without it is the fp32 baseline. */
#ifndef KOPE_REAL
#define KOPE_REAL float
#endif
typedef KOPE_REAL kope_real;

/* Element i of a floating tensor as kope_real, whatever it is stored in (fp32, fp64, fp16, bf16), and the
   store back. A reference that reads and writes through these also serves as the naive baseline of cases
   that override a tensor's dtype (the golden run always sees fp64). */
static inline kope_real kope_load(const kope_tensor* t, int64_t i) {
  switch (t->dtype) {
    case KOPE_F64: return (kope_real)((const double*)t->data)[i];
    case KOPE_F16: return (kope_real)kope_f16_to_f32(((const uint16_t*)t->data)[i]);
    case KOPE_BF16: return (kope_real)kope_bf16_to_f32(((const uint16_t*)t->data)[i]);
    case KOPE_I32: return (kope_real)((const int32_t*)t->data)[i];
    case KOPE_I64: return (kope_real)((const int64_t*)t->data)[i];
    case KOPE_U8: return (kope_real)((const uint8_t*)t->data)[i];
    case KOPE_I8: return (kope_real)((const int8_t*)t->data)[i];
    default: return (kope_real)((const float*)t->data)[i];
  }
}

static inline void kope_store(const kope_tensor* t, int64_t i, kope_real v) {
  switch (t->dtype) {
    case KOPE_F64: ((double*)t->data)[i] = (double)v; break;
    case KOPE_F16: ((uint16_t*)t->data)[i] = kope_f32_to_f16((float)v); break;
    case KOPE_BF16: ((uint16_t*)t->data)[i] = kope_f32_to_bf16((float)v); break;
    case KOPE_I32: ((int32_t*)t->data)[i] = (int32_t)v; break;
    case KOPE_I64: ((int64_t*)t->data)[i] = (int64_t)v; break;
    case KOPE_U8: ((uint8_t*)t->data)[i] = (uint8_t)v; break;
    case KOPE_I8: ((int8_t*)t->data)[i] = (int8_t)v; break;
    default: ((float*)t->data)[i] = (float)v; break;
  }
}

/* Element i of an integer tensor (index inputs: int32 or int64, also uint8 and int8) as int64. */
static inline int64_t kope_load_int(const kope_tensor* t, int64_t i) {
  switch (t->dtype) {
    case KOPE_I32: return ((const int32_t*)t->data)[i];
    case KOPE_U8: return ((const uint8_t*)t->data)[i];
    case KOPE_I8: return ((const int8_t*)t->data)[i];
    default: return ((const int64_t*)t->data)[i];
  }
}

#ifdef __cplusplus
}
#endif

#endif
