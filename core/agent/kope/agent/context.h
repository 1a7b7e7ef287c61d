// Retrieve and Assemble: experience as neutral context items, and Active Context Management, which builds the
// prompt afresh each iteration within B_k = max(0, W - S - G - R): hot always, then at most Q_w warm items
// ranked by the memory, then at most Q_c cold items, then at most Q_d documents of the device's prompt pack.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/llm/client.h"
#include "kope/model/task.h"

namespace kope::workspace {
class Workspace;
}

namespace kope::agent {

enum class Tier { Hot, Warm, Cold };
std::string_view tier_name(Tier t);

enum class MemoryArm { Off, Dump, Active };
std::string_view arm_name(MemoryArm a);
std::optional<MemoryArm> arm_from_name(std::string_view s);

// One piece of experience or documentation a prompt may carry.
struct ContextItem {
  Tier tier = Tier::Warm;
  std::string source_kind;  // "case", "journal", "failure", "doc"
  int64_t source_id = 0;    // the Case (evaluation) or Journal id; 0 for a document
  std::string label;        // short, for listings: "case 12 affine passed 1.31x", "doc cpu/optimisation.md"
  std::string text;         // what goes into the prompt
  double rank = 0;          // higher first (active arm); ignored by the dump arm, except that below 0 the item is
                            // not relevant to this state: no arm admits it, and the prompt lists it as left out
};

struct ExperienceQuery {
  const Task* task = nullptr;
  std::string device;
  bool ranked = true;  // false: every item in insertion order (the dump arm)
  // The rest of the state s, for sources that narrow by it.
  double incumbent_speedup = 1.0;
  std::string incumbent_source;
  std::string latest_feedback;
};

// Retrieve(s, M): what the agent calls each iteration. Implementations: the workspace's recorded evaluations
// (below), and the Experience Graph Memory once it is linked in.
class ExperienceSource {
 public:
  virtual ~ExperienceSource() = default;
  virtual std::vector<ContextItem> retrieve(const ExperienceQuery& q) = 0;
};

// Experience read from the workspace's evaluations: this task's correct kernels (warm, ranked by speedup) and
// failures (warm, newest first), other tasks' correct kernels (cold, cross-task).
class WorkspaceExperience : public ExperienceSource {
 public:
  explicit WorkspaceExperience(const workspace::Workspace& ws, int scan_limit = 400) : ws_(ws), scan_limit_(scan_limit) {}
  std::vector<ContextItem> retrieve(const ExperienceQuery& q) override;

 private:
  const workspace::Workspace& ws_;
  int scan_limit_;
};

// Token estimates for a provider, scaled by the ratio of the server's reported prompt tokens to the estimate.
struct Estimator {
  llm::Provider provider = llm::Provider::OpenAI;
  double ratio = 1.0;
  int64_t raw(std::string_view text) const { return llm::estimate_tokens(provider, text); }
  int64_t operator()(std::string_view text) const;
};

struct Section {
  std::string name;  // "spec", "reference", "abi", "incumbent", "feedback", "target", "experience", "doc", ...
  Tier tier = Tier::Hot;
  std::string source_kind;  // "task", "template", "incumbent", "evaluation", "case", "failure", "doc"
  int64_t source_id = 0;
  std::string label;
  std::string text;
  int64_t tokens = 0;
  double rank = 0;
};

struct Budget {
  int64_t window = 0, system = 0, generation = 0, reserve = 0;
  int64_t budget = 0;  // B_k
  int64_t hot = 0, warm = 0, cold = 0;
  int quota_warm = 0, quota_cold = 0, quota_docs = 0;
};

struct AssembleOptions {
  MemoryArm arm = MemoryArm::Active;
  int quota_warm = 6;     // Q_w
  int quota_cold = 4;     // Q_c: cold experience (other tasks' cases)
  int quota_docs = 4;     // Q_d: documents, ranked apart so that experience never crowds them out, nor they it
  int64_t reserve = -1;   // R; -1: 5% of the window, at least 256
};

struct Prompt {
  std::string system;
  std::string user;
  std::vector<Section> sections;  // what is in the prompt, in order
  std::vector<Section> left_out;  // ranked items that did not fit (budget or quota) or are not relevant, text dropped
  Budget budget;
  int64_t raw_estimate = 0;  // uncalibrated estimate of system + user, for calibration
};

// The hot sections and the templates the user prompt is laid out by.
struct AssembleInput {
  std::string system;              // the rendered system prompt (S)
  std::string user_template;       // with {{spec}}, {{reference}}, {{abi}}, {{incumbent}}, {{feedback}}, ...
  std::vector<Section> hot;        // in template order; every one must fit
  std::vector<ContextItem> items;  // experience (warm/cold) and documents (cold)
};

// Builds the prompt. Throws kope::Error ("context infeasible ...") naming W, S, G, R, B_k and each hot
// section's size when the hot payload does not fit.
Prompt assemble(const AssembleInput& in, int64_t window, int64_t generation, const AssembleOptions& opt,
                const Estimator& est);

// {{name}} -> value; unknown placeholders are left as they are.
std::string render(const std::string& tmpl, const std::vector<std::pair<std::string, std::string>>& values);

nlohmann::json to_json(const Section& s, bool with_text);
nlohmann::json to_json(const Budget& b);

}  // namespace kope::agent
