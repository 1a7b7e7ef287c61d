// Writing worker jobs and reading their results: the device-neutral half of the worker contract.
#include "kope/device/worker_protocol.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "kope/model/dtype.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/text.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

Outcome outcome_for_worker_exit(int code) {
  switch (code) {
    case kWorkerOk: return Outcome::Ok;
    case kWorkerKernelError: return Outcome::KernelError;
    case kWorkerLoadError: return Outcome::LoadError;
    case kWorkerInputsModified: return Outcome::InputsModified;
    case kWorkerIllegalAddress: return Outcome::IllegalAddress;
    case kWorkerLaunchError: return Outcome::LaunchError;
    case kWorkerOutOfMemory: return Outcome::OutOfMemory;
    case kWorkerDeviceException: return Outcome::Crash;
    case kWorkerDeviceTimeout: return Outcome::Timeout;
    default: return Outcome::ToolError;  // job error, no device, or a code the contract does not know
  }
}

fs::path worker_input_path(const fs::path& dir, std::size_t i) { return dir / ("in" + std::to_string(i) + ".bin"); }
fs::path worker_first_path(const fs::path& dir, std::size_t k) { return dir / ("first" + std::to_string(k) + ".bin"); }
fs::path worker_last_path(const fs::path& dir, std::size_t k) { return dir / ("last" + std::to_string(k) + ".bin"); }
fs::path worker_library_path(const fs::path& dir, std::size_t k) { return dir / ("lib" + std::to_string(k) + ".bin"); }

namespace {
json tensors_json(const std::vector<ConcreteTensor>& ts) {
  json a = json::array();
  for (const auto& t : ts)
    a.push_back({{"name", t.name}, {"dtype", static_cast<int>(t.dtype)}, {"shape", t.shape}, {"numel", t.numel}});
  return a;
}
}  // namespace

json worker_job_json(const MeasureRequest& q, const std::string& candidate, const std::string& baseline,
                     const std::string& library) {
  json attrs = json::array();
  for (const auto& [n, v] : q.kcase.attrs) attrs.push_back({n, v});
  return {{"case", q.kcase.name},
          {"inputs", tensors_json(q.kcase.inputs)},
          {"outputs", tensors_json(q.kcase.outputs)},
          {"attrs", attrs},
          {"candidate", candidate},
          {"baseline", baseline},
          {"library", library},
          {"warmup", q.warmup},
          {"reps", q.reps},
          {"interleave", q.interleave},
          {"flush_bytes", q.flush_bytes},
          {"sanitize", q.sanitize}};
}

void write_worker_job(const fs::path& dir, const MeasureRequest& q, const std::string& candidate,
                      const std::string& baseline, const std::optional<std::string>& library) {
  const std::string lib = library.value_or(q.library.string());
  if (q.inputs.size() != q.kcase.inputs.size())
    throw Error("measure request for case '" + q.kcase.name + "' has " + std::to_string(q.inputs.size()) +
                " input buffers for " + std::to_string(q.kcase.inputs.size()) + " input tensors");
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (std::size_t i = 0; i < q.inputs.size(); ++i) write_file_atomic(worker_input_path(dir, i), q.inputs[i]);
  write_file_atomic(dir / "job.json", worker_job_json(q, candidate, baseline, lib).dump(2));
  write_file_atomic(dir / "job.txt", worker_job_text(q, candidate, baseline, lib));
}

std::string worker_job_text(const MeasureRequest& q, const std::string& candidate, const std::string& baseline,
                            const std::string& library) {
  std::string s = "case " + q.kcase.name + "\ncandidate " + candidate + "\nbaseline " + baseline + "\n";
  if (!library.empty()) s += "library " + library + "\n";  // absent for a worker that predates libraries
  s += "warmup " + std::to_string(q.warmup) + "\nreps " + std::to_string(q.reps) + "\ninterleave " +
       std::to_string(q.interleave ? 1 : 0) + "\nflush_bytes " + std::to_string(q.flush_bytes) + "\n";
  for (const auto* list : {&q.kcase.inputs, &q.kcase.outputs})
    for (const auto& t : *list) {
      s += std::string(list == &q.kcase.inputs ? "input " : "output ") + t.name + " " +
           std::to_string(static_cast<int>(t.dtype)) + " " + std::to_string(t.numel) + " " + std::to_string(t.shape.size());
      for (auto d : t.shape) s += " " + std::to_string(d);
      s += "\n";
    }
  for (const auto& [n, v] : q.kcase.attrs) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    s += "attr " + n + " " + buf + "\n";
  }
  return s;
}

namespace {
// The library's side of a worker's result: its correctness outputs (all or none), its times, or why it stopped.
void read_library_side(const fs::path& dir, const json& result, const MeasureRequest& q, MeasureResult& m) {
  if (q.library.empty()) return;
  m.library_message = result.value("library_error", "");
  m.library_ns = result.value("lib_ns", std::vector<double>{});
  std::vector<std::string> outs;
  for (std::size_t k = 0; k < q.kcase.outputs.size(); ++k) {
    const std::size_t want = static_cast<std::size_t>(q.kcase.outputs[k].numel) * dtype_size(q.kcase.outputs[k].dtype);
    std::string bytes = read_file_or_empty(worker_library_path(dir, k));
    if (bytes.size() != want) {
      if (m.library_message.empty())
        m.library_message = "the worker left " + std::to_string(bytes.size()) + " bytes in " +
                            worker_library_path(dir, k).filename().string() + ", expected " + std::to_string(want);
      m.library_ns.clear();
      return;
    }
    outs.push_back(std::move(bytes));
  }
  m.library_outputs = std::move(outs);
}
}  // namespace

MeasureResult read_worker_result(const fs::path& dir, const ProcessResult& pr, const MeasureRequest& q) {
  MeasureResult m;
  m.log = tail_text(pr.out + pr.err, 4000);
  json result = json::parse(read_file_or_empty(dir / "result.json"), nullptr, false);
  if (!result.is_object()) result = json::object();
  m.timer = result.value("timer", "");
  const std::string phase = trim(read_file_or_empty(dir / "phase"));
  const std::string during = phase.empty() ? "" : " during the " + phase;
  if (result.contains("error") && result["error"].is_object()) {
    const json& e = result["error"];
    m.failed_call = e.value("call", "");
    m.message = e.value("name", "") + (e.contains("code") ? " (" + e["code"].dump() + ")" : "") +
                (e.value("message", "").empty() ? "" : ": " + e.value("message", ""));
  }
  if (result.contains("findings"))
    for (const auto& f : result["findings"]) m.findings.push_back(f.get<std::string>());
  if (pr.timed_out) {
    m.outcome = Outcome::Timeout;
    m.message = pr.describe() + during + "; the worker's process group was killed";
    return m;
  }
  if (pr.term_signal) {
    m.outcome = Outcome::Crash;
    m.message = "the worker was killed by " + signal_name(pr.term_signal) + during;
    return m;
  }
  if (!pr.started || pr.exit_code != 0) {
    m.outcome = pr.started ? outcome_for_worker_exit(pr.exit_code) : Outcome::ToolError;
    std::string why = trim(tail_text(pr.err, 600));
    if (m.message.empty()) m.message = why;
    m.message = (pr.started ? "the worker ended with " + pr.describe() : pr.describe()) + during +
                (m.message.empty() ? "" : ": " + m.message);
    return m;
  }
  for (std::size_t k = 0; k < q.kcase.outputs.size(); ++k) {
    const std::size_t want = static_cast<std::size_t>(q.kcase.outputs[k].numel) * dtype_size(q.kcase.outputs[k].dtype);
    for (auto [path, list] : {std::pair{worker_first_path(dir, k), &m.first_outputs},
                              std::pair{worker_last_path(dir, k), &m.last_outputs}}) {
      std::string bytes = read_file_or_empty(path);
      if (bytes.size() != want) {
        m.outcome = Outcome::ToolError;
        m.message = "the worker left " + std::to_string(bytes.size()) + " bytes in " + path.filename().string() +
                    ", expected " + std::to_string(want);
        return m;
      }
      list->push_back(std::move(bytes));
    }
  }
  m.candidate_ns = result.value("cand_ns", std::vector<double>{});
  m.baseline_ns = result.value("base_ns", std::vector<double>{});
  for (char ch : result.value("order", std::string())) m.order.push_back(ch);
  read_library_side(dir, result, q, m);
  return m;
}

void write_measure_result(const fs::path& dir, const MeasureResult& m) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (std::size_t k = 0; k < m.first_outputs.size(); ++k) write_file_atomic(worker_first_path(dir, k), m.first_outputs[k]);
  for (std::size_t k = 0; k < m.last_outputs.size(); ++k) write_file_atomic(worker_last_path(dir, k), m.last_outputs[k]);
  for (std::size_t k = 0; k < m.library_outputs.size(); ++k)
    write_file_atomic(worker_library_path(dir, k), m.library_outputs[k]);
  json j = {{"outcome", outcome_name(m.outcome)},
            {"message", m.message},
            {"failed_call", m.failed_call},
            {"cand_ns", m.candidate_ns},
            {"base_ns", m.baseline_ns},
            {"lib_ns", m.library_ns},
            {"library_error", m.library_message},
            {"library_outputs", m.library_outputs.size()},
            {"order", std::string(m.order.begin(), m.order.end())},
            {"timer", m.timer},
            {"findings", m.findings},
            {"log", m.log},
            {"outputs", m.first_outputs.size()},
            {"measured_bandwidth_gbps", m.measured_bandwidth_gbps}};
  write_file_atomic(dir / "measure.json", j.dump(2));
}

MeasureResult read_measure_result(const fs::path& dir, const MeasureRequest& q) {
  MeasureResult m;
  json j = json::parse(read_file(dir / "measure.json", "measure result"));
  m.outcome = outcome_from_name(j.value("outcome", "tool_error")).value_or(Outcome::ToolError);
  m.message = j.value("message", "");
  m.failed_call = j.value("failed_call", "");
  m.candidate_ns = j.value("cand_ns", std::vector<double>{});
  m.baseline_ns = j.value("base_ns", std::vector<double>{});
  for (char ch : j.value("order", std::string())) m.order.push_back(ch);
  m.timer = j.value("timer", "");
  m.findings = j.value("findings", std::vector<std::string>{});
  m.log = j.value("log", "");
  m.measured_bandwidth_gbps = j.value("measured_bandwidth_gbps", 0.0);
  const std::size_t n = j.value("outputs", std::size_t{0});
  if (m.ok() && n != q.kcase.outputs.size()) {
    m.outcome = Outcome::ToolError;
    m.message = "the result holds " + std::to_string(n) + " outputs for " + std::to_string(q.kcase.outputs.size()) + " tensors";
    return m;
  }
  for (std::size_t k = 0; k < n; ++k) {
    m.first_outputs.push_back(read_file(worker_first_path(dir, k), "output"));
    m.last_outputs.push_back(read_file(worker_last_path(dir, k), "output"));
  }
  m.library_ns = j.value("lib_ns", std::vector<double>{});
  m.library_message = j.value("library_error", "");
  if (j.value("library_outputs", std::size_t{0}) == n)
    for (std::size_t k = 0; k < n && n; ++k) m.library_outputs.push_back(read_file(worker_library_path(dir, k), "output"));
  return m;
}

}  // namespace kope::device
