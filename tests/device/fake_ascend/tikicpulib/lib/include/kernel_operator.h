// A stand-in for AscendC's kernel_operator.h under ASCENDC_CPU_DEBUG (test-only): the subset of the AscendC API
// that kope's reference kernels use, run functionally on the CPU with the board's rules checked (32-byte copies,
// the UB's capacity, queue discipline). The memory model is in kope_fake_ascendc_memory.h, the vector
// instructions in kope_fake_ascendc_vector.h, the blocks of a launch and SyncAll in kope_fake_ascendc_cores.h.
#pragma once
#include "kope_fake_ascendc_memory.h"
#include "kope_fake_ascendc_vector.h"
#include "kope_fake_ascendc_cores.h"
