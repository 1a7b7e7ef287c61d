/* The ABI between kope and a CUDA kernel: the kope_args of kope_kernel.h with tensor data in device memory,
   and one host entry that launches on the given stream.

     __global__ void my_op(const float* x, float* y, int64_t n) { ... }
     extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
       int64_t n = a->inputs[0].numel;
       my_op<<<(n + 255) / 256, 256, 0, s>>>((const float*)a->inputs[0].data, (float*)a->outputs[0].data, n);
       return (int)cudaGetLastError();
     }

   Return 0, or a cudaError_t. kope times the call with CUDA events on `s`, synchronizes after it, and maps a
   sticky error (cudaErrorIllegalAddress...) to an outcome. Built with nvcc -shared -Xcompiler -fPIC. */
#ifndef KOPE_CUDA_H
#define KOPE_CUDA_H

#include <cuda_runtime.h>

#include "kope_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

int kope_cuda_kernel(const kope_args* args, cudaStream_t stream);
typedef int (*kope_cuda_kernel_fn)(const kope_args* args, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
