/* The ABI between kope and an AscendC kernel (direct launch): the kope_args of kope_kernel.h with tensor data
   in device global memory (GM_ADDR), and one host entry that launches the kernel on the given aclrtStream.

     extern "C" __global__ __aicore__ void my_op(GM_ADDR x, GM_ADDR y) { ... }     // the device kernel
     extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
       my_op<<<8, nullptr, stream>>>((GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data);
       return 0;
     }

   Return 0, or an aclError. kope synchronizes the stream after the call and maps a device exception
   (507015 ACL_ERROR_RT_AICORE_EXCEPTION...) to an outcome. Under ASCENDC_CPU_DEBUG (the CPU twin) the data are
   AscendC::GmAlloc host memory and the entry runs the kernel with ICPU_RUN_KF(my_op, blockDim, args...). */
#ifndef KOPE_ASCEND_H
#define KOPE_ASCEND_H

#include "kope_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

int kope_ascend_kernel(const kope_args* args, void* stream);

#ifdef __cplusplus
}
#endif

#endif
