// No Qt header here (see run_pool.h).
#include "run_pool.h"

#include "kope/device/pool.h"

namespace kope::ui {

PoolCheck check_device_pool(const std::string& text) {
  PoolCheck out;
  try {
    out.devices = device::parse_device_pool(text).specs;
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

void apply_device_pool(const std::string& text, loop::LoopOptions& options) {
  const device::DevicePool pool = device::parse_device_pool(text);
  device::configure_timing_slots(pool);
  options.device = pool.device;
  options.eval.device = pool.specs.front();
  options.device_specs = pool.specs;
}

}  // namespace kope::ui
