// Policy(C): what proposes the next candidate kernel. The offline policy replays the shipped kernels.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kope/memory/retrieve.h"
#include "kope/suite.h"
#include "kope/task.h"

namespace kope {

struct PolicyState {
  const Task* task = nullptr;
  std::string incumbent_source;     // empty while the baseline is the incumbent
  double incumbent_speedup = 1.0;
  std::vector<std::string> tried;   // sha256 of every source already evaluated for this task in this loop
  std::string latest_feedback;      // the last evaluation's errors or summary
  std::vector<memory::RetrievedItem> experience;  // Retrieve(s, M) for this state, ranked (core/memory)
};

struct Proposal {
  std::string name;     // where it came from, e.g. "offline:gelu/01_float_erff.cpp"
  std::string thought;  // the optimisation idea
  std::string source;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string name() const = 0;
  // nullopt: nothing more to try for this task.
  virtual std::optional<Proposal> propose(const PolicyState& state) = 0;
};

// Needs no network and no model: proposes the kernels shipped for the task, in order, each once. With a
// folder, the kernels are DIR/<task>/*.cpp instead (file-name order), named "offline:<task>/<file>".
class OfflinePolicy : public Policy {
 public:
  OfflinePolicy() = default;
  explicit OfflinePolicy(std::filesystem::path kernels_dir) : dir_(std::move(kernels_dir)) {}
  std::string name() const override { return "offline"; }
  std::optional<Proposal> propose(const PolicyState& state) override;

 private:
  std::filesystem::path dir_;
};

}  // namespace kope
