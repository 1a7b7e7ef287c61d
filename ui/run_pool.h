// The device pool of a run started from the window (`kope run --device`, kope/device/pool.h), behind a header
// free of kope/device: Qt's `slots` keyword macro would rewrite DevicePool::slots in any file that includes Qt
// first.
#pragma once

#include <string>
#include <vector>

#include "kope/loop/loop.h"

namespace kope::ui {

struct PoolCheck {
  std::vector<std::string> devices;  // whose timing slots to show: the spec, or each host of a pool of hosts
  std::string error;                 // the parser's message when the text is malformed
};
PoolCheck check_device_pool(const std::string& text);

// Configures the pool's timing slots and points the loop at its devices, as `kope run --device` does. Throws
// kope::Error for a malformed pool. Between runs only: no timing slot may be held.
void apply_device_pool(const std::string& text, loop::LoopOptions& options);

}  // namespace kope::ui
