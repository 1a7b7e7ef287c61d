// `kope doctor --device`: a tiny shipped kernel through each build route of a device, then run, timed and profiled
// by the same code as `kope eval` (the device's build, the evaluator's checks against the golden, Device::profile).
// The words of each step's verdict and what to do are in device_check_advice.cpp.
#include "kope/doctor/device_check.h"

#include <algorithm>
#include <cstdio>

#include "device_check_internal.h"
#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/eval/goldens.h"
#include "kope/model/inputs.h"
#include "kope/model/suite.h"

namespace kope::doctor {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

namespace {

// The device as the evaluator sees it for one route: every call forwarded, every build (the kernel's and the
// device baseline's) by `route`, so that one route's failure does not stop another's run.
class RouteDevice : public device::Device {
 public:
  RouteDevice(device::Device& d, std::string route, const ConcreteCase& signature)
      : d_(d), route_(std::move(route)), signature_(signature) {}
  std::string name() const override { return d_.name(); }
  std::string kind() const override { return d_.kind(); }
  device::Availability availability() override { return d_.availability(); }
  device::Capabilities capabilities() override { return d_.capabilities(); }
  device::Fingerprint fingerprint() override { return d_.fingerprint(); }
  BuildResult build(const std::string& source, const device::BuildOptions& o) override {
    device::BuildOptions b = o;
    b.mode = route_;
    if (!b.signature) b.signature = &signature_;  // an operator project declares the case's tensors
    return d_.build(source, b);
  }
  device::MeasureResult measure(const device::MeasureRequest& q) override { return d_.measure(q); }
  device::ProfileResult profile(const device::MeasureRequest& q) override { return d_.profile(q); }
  std::optional<double> floor_ns(const ConcreteCase& c) override { return d_.floor_ns(c); }

 private:
  device::Device& d_;
  std::string route_;
  const ConcreteCase& signature_;
};

// The task, its kernel and the one small case the check runs.
struct Subject {
  Task task;
  std::string source, name;
  ConcreteCase kcase;
  bool timed_against_itself = false;  // no baseline ships for the kind: the kernel is its own baseline
};

int64_t elements(const ConcreteCase& c) {
  int64_t n = 0;
  for (const auto* v : {&c.inputs, &c.outputs})
    for (const ConcreteTensor& t : *v) n += t.numel;
  return n;
}

// The smallest case with some work in it (at least 256 elements, no special values), else the first.
ConcreteCase small_case(const Task& t) {
  std::optional<ConcreteCase> best;
  for (const Case& c : t.cases) {
    ConcreteCase cc = resolve_case(t, c);
    if (c.name.rfind("special", 0) == 0 || elements(cc) < 256) continue;
    if (!best || elements(cc) < elements(*best)) best = std::move(cc);
  }
  if (best) return *best;
  if (t.cases.empty()) throw Error("task '" + t.name + "' has no cases to run the device check on");
  return resolve_case(t, t.cases.front());
}

Subject pick_subject(const DeviceCheckOptions& o, const std::string& kind) {
  Subject s;
  if (o.task_override) {
    s.task = *o.task_override;
  } else {
    const Suite suite = Suite::embedded();
    const Task* t = suite.find(o.task);
    if (!t) throw Error("kope doctor --device: no task \"" + o.task + "\" in the embedded suite");
    s.task = *t;
  }
  if (!o.kernel_source.empty()) {
    s.source = o.kernel_source;
    s.name = o.kernel_name.empty() ? s.task.name + "/doctor" : o.kernel_name;
  } else {
    const auto ks = embedded_candidates(s.task.name, kind);
    if (ks.empty())
      throw Error("kope doctor --device: task '" + s.task.name + "' ships no " + kind + " kernel (resources/kernels/" +
                  s.task.name + "/" + kind + "/)");
    s.source = ks.front().source;  // the 01_ kernel: the correct one
    s.name = ks.front().name;
  }
  if (kind != "cpu" && device::baseline_source(s.task, kind).empty()) {
    s.task.baselines[kind] = s.source;
    s.timed_against_itself = true;
  }
  s.kcase = small_case(s.task);
  return s;
}

// Every route the device kind has, those it cannot take too (ascend lists only what its toolkit has).
std::vector<std::string> routes_for(const std::string& kind, const device::Capabilities& caps) {
  std::vector<std::string> routes = kind == "ascend" ? std::vector<std::string>{"direct", "msopgen", "cpu-twin"}
                                                     : caps.build_modes;
  for (const auto& m : caps.build_modes)
    if (std::find(routes.begin(), routes.end(), m) == routes.end()) routes.push_back(m);
  if (routes.empty()) routes.push_back("");
  return routes;
}

DeviceStep build_step(device::Device& dev, const std::string& route, const device::Capabilities& caps,
                      const Subject& s, const DeviceCheckOptions& o, BuildResult& b) {
  device::BuildOptions bo;
  bo.build_dir = o.paths.build;
  bo.display_name = s.name;
  bo.mode = route;
  bo.signature = &s.kcase;
  bo.timeout_seconds = o.timeout_seconds;
  try {
    b = dev.build(s.source, bo);
  } catch (const std::exception& e) {
    b = BuildResult{};
    b.error = e.what();
  }
  const bool listed = route.empty() || std::find(caps.build_modes.begin(), caps.build_modes.end(), route) !=
                                           caps.build_modes.end();
  if (b.ok) return {"build", route, StepState::Works, "built " + s.name + (b.cached ? " (cached)" : " in " + seconds_text(b.seconds)), ""};
  if (!listed) return {"build", route, StepState::NotAvailable, b.error, route_todo(dev.kind(), route)};
  return {"build", route, StepState::Fails, build_failure_text(b), build_todo(dev.kind(), route)};
}

// The evaluator's answer for one route: the case against the fp64 golden, then its times.
void run_steps(eval::Evaluator& ev, device::Device& dev, const std::string& route, const Subject& s,
               DeviceCheckReport& r) {
  ev.use_device("doctor:" + route, std::make_unique<RouteDevice>(dev, route, s.kcase));
  EvalOptions eo;
  eo.device = "doctor:" + route;
  eo.cases = {s.kcase.name};
  eo.library = false;
  EvalReport rep;
  try {
    rep = ev.evaluate(s.task, s.source, s.name, eo);
  } catch (const EnvError& e) {  // the device cannot run here (no board, no GPU, a tool that failed)
    r.steps.push_back({"run", route, StepState::NotAvailable, e.what(), run_todo(dev.kind(), route, e.what())});
    r.steps.push_back({"time", route, StepState::NotAvailable, "nothing ran", ""});
    return;
  } catch (const std::exception& e) {  // the task's side: a baseline that does not build
    r.steps.push_back({"run", route, StepState::Fails, e.what(), "see the error; `kope eval` on this device says the same"});
    r.steps.push_back({"time", route, StepState::NotAvailable, "nothing ran", ""});
    return;
  }
  r.steps.push_back(run_verdict(rep, s.kcase, route, dev.kind()));
  r.steps.push_back(time_verdict(rep, route, s.timed_against_itself));
}

DeviceStep profile_step(device::Device& dev, const device::Capabilities& caps, const std::string& route,
                        const fs::path& artifact, const Subject& s, const exec::EvalPaths& paths) {
  device::MeasureRequest q;
  q.kcase = s.kcase;
  for (std::size_t i = 0; i < s.kcase.inputs.size(); ++i) {
    const ConcreteTensor& t = s.kcase.inputs[i];
    std::string bytes(static_cast<std::size_t>(t.numel) * dtype_size(t.dtype), '\0');
    generate_tensor(t, s.kcase.seed, i, bytes.data());
    q.inputs.push_back(std::move(bytes));
  }
  q.candidate = artifact;
  eval::JobDir scratch(paths.jobs);
  q.scratch = scratch.path;
  device::ProfileResult p;
  try {
    p = dev.profile(q);
  } catch (const std::exception& e) {
    p.reason = e.what();
  }
  if (p.available && !p.counters.empty()) return {"profile", route, StepState::Works, profile_text(p), ""};
  const std::string why = p.reason.empty() ? "the profiler returned no counters" : p.reason;
  return {"profile", route, caps.profiler ? StepState::Fails : StepState::NotAvailable, why,
          profile_todo(dev.kind(), caps, why)};
}

// Availability, fingerprint and capabilities; false when the device is not there (nothing else can run).
bool device_steps(device::Device& dev, const DeviceCheckOptions& o, DeviceCheckReport& r, device::Capabilities& caps) {
  const device::Availability a = dev.availability();
  r.available = a.available;
  r.steps.push_back({"availability", "", a.available ? StepState::Works : StepState::Fails, a.reason,
                     a.available ? "" : availability_todo(dev.kind(), o.device)});
  if (!a.available) return false;
  caps = dev.capabilities();
  const device::Fingerprint f = dev.fingerprint();
  r.fingerprint = device::to_json(f);
  r.capabilities = device::to_json(caps);
  r.steps.push_back({"fingerprint", "", StepState::Info, fingerprint_text(f, caps), ""});
  return true;
}

}  // namespace

DeviceCheckReport check_device(const DeviceCheckOptions& o) {
  DeviceCheckReport r;
  r.device = o.device;
  device::DeviceConfig cfg;
  cfg.work_dir = o.paths.build.parent_path();
  cfg.runner = o.paths.runner;
  cfg.env = o.env;
  if (device::parse_device_spec(o.device).kind == "cpu") cfg.include_dir = o.paths.include;
  std::unique_ptr<device::Device> dev = device::make_device(o.device, cfg);  // kope::Error: bad input
  r.name = dev->name();
  r.kind = dev->kind();
  const Subject s = pick_subject(o, r.kind);
  r.task = s.task.name;
  r.kernel = s.name;
  r.case_name = s.kcase.name;
  device::Capabilities caps;
  if (!device_steps(*dev, o, r, caps)) return r;
  eval::Evaluator ev(o.paths);
  std::optional<std::pair<std::string, fs::path>> first_built;
  for (const std::string& route : routes_for(r.kind, caps)) {
    BuildResult b;
    r.steps.push_back(build_step(*dev, route, caps, s, o, b));
    if (!b.ok) continue;
    if (!first_built) first_built.emplace(route, b.artifact);
    run_steps(ev, *dev, route, s, r);
  }
  if (first_built)
    r.steps.push_back(profile_step(*dev, caps, first_built->first, first_built->second, s, o.paths));
  else
    r.steps.push_back({"profile", "", StepState::NotAvailable, "no build route works", ""});
  return r;
}

}  // namespace kope::doctor
