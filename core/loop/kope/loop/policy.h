// Policy(C): what proposes the next candidate kernel. The offline policy replays the shipped kernels.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kope/memory/retrieve.h"
#include "kope/model/suite.h"
#include "kope/model/task.h"

namespace kope::loop {

struct PolicyState {
  const Task* task = nullptr;
  std::string incumbent_source;     // empty while the baseline is the incumbent
  double incumbent_speedup = 1.0;
  std::vector<std::string> tried;   // sha256 of every source already evaluated for this task in this loop
  std::string latest_feedback;      // the last evaluation's errors or summary
  std::vector<std::string> hints;   // the engineer's hints for the next prompt (RunControl), consumed once
  int64_t run_id = 0;               // the run the loop records into
  std::string device = "cpu";
  std::vector<memory::RetrievedItem> experience;  // Retrieve(s, M) for this state, ranked (core/memory)
};

struct Proposal {
  std::string name;     // where it came from, e.g. "offline:gelu/01_float_erff.cpp"
  std::string thought;  // the optimisation idea
  std::string source;
  // A policy that asked and got no usable kernel says why here (source empty): recorded as no_candidate.
  std::string no_candidate = {};
  bool cancelled = false;     // the person stopped the run while the policy was working
  int64_t tokens = 0;         // model tokens (prompt + completion) spent producing this proposal
  int64_t transcript_id = 0;  // the policy's own record of how it came to this proposal, 0 for none
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string name() const = 0;
  // nullopt: nothing more to try for this task.
  virtual std::optional<Proposal> propose(const PolicyState& state) = 0;
  // The loop has recorded the proposal: its evaluation (0 when none ran) and status.
  virtual void recorded(const Proposal&, int64_t /*evaluation_id*/, const std::string& /*status*/) {}
};

// Needs no network and no model: proposes the kernels shipped for the task, in order, each once. With a
// folder, the kernels are DIR/<task>/<kind>/ (or DIR/<task>/ where that has no such folder) instead, *.cu for
// cuda and *.cpp otherwise, in file-name order, named "offline:<task>/<file>".
class OfflinePolicy : public Policy {
 public:
  OfflinePolicy() = default;
  explicit OfflinePolicy(std::filesystem::path kernels_dir) : dir_(std::move(kernels_dir)) {}
  std::string name() const override { return "offline"; }
  std::optional<Proposal> propose(const PolicyState& state) override;

 private:
  std::filesystem::path dir_;
};

}  // namespace kope::loop
