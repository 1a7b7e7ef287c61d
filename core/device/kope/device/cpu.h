// The CPU device: kernels are C++ with kope_kernel.h, built by the system compiler, run by kope-runner.
#pragma once

#include <memory>

#include "kope/device/device.h"

namespace kope::device {

std::unique_ptr<Device> make_cpu_device(const DeviceConfig& config);

// /proc/cpuinfo's model name, clock and core count; /proc/meminfo's total.
Fingerprint cpu_fingerprint();

}  // namespace kope::device
