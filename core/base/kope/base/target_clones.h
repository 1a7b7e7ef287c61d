// KOPE_CLONES: a hot loop built for AVX-512, AVX2 and plain x86-64, the loader picking the one this CPU runs
// (GCC's target_clones); elsewhere an ordinary function.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#define KOPE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KOPE_CLONES
#endif
