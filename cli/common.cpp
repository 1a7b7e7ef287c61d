#include "kope/device/pool.h"
#include "kope/cli/common.h"

#include <memory>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/cli/options.h"
#include "kope/device/device.h"

using namespace kope::workspace;
using namespace kope::eval;

namespace kope::cli {

std::string require_device(const std::optional<std::string>& given) {
  const std::string spec = given.value_or("cpu");
  std::unique_ptr<device::Device> dev;
  try {
    dev = device::make_device(spec);
  } catch (const EnvError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const device::Availability av = dev->availability();
  if (!av.available) throw EnvError("device " + dev->name() + " is not available: " + av.reason);
  return spec;
}

device::DevicePool require_pool(const std::optional<std::string>& given) {
  device::DevicePool pool;
  try {
    pool = device::parse_device_pool(given.value_or("cpu"));
  } catch (const EnvError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  for (const std::string& spec : pool.specs) require_device(spec);
  return pool;
}

void apply_pool(const device::DevicePool& pool, loop::LoopOptions& lo) {
  device::configure_timing_slots(pool);
  lo.device = pool.device;
  lo.eval.device = pool.specs.front();
  lo.device_specs = pool.specs;
}

SuiteSummary incumbent_summary(const Workspace& ws, const Suite& suite, const std::vector<std::string>& names,
                               const std::string& device) {
  std::vector<TaskRecord> records;
  for (const std::string& name : names) {
    const Task* t = suite.find(name);
    if (!t) continue;
    TaskRecord r;
    r.task = t->name;
    r.level = t->level;
    if (auto inc = ws.incumbent(t->name, device))
      if (auto row = ws.evaluation(inc->evaluation_id)) {
        nlohmann::json j = nlohmann::json::parse(row->report, nullptr, false);
        if (!j.is_discarded()) {
          r = task_record(*t, j);
          r.kernel = row->kernel_origin;
        }
      }
    records.push_back(std::move(r));
  }
  return summarize_suite(records);
}

}  // namespace kope::cli
