// Retrieve(s, M): the experience relevant to a state, ranked, with provenance. The shape the prompt
// assembly (core/agent) builds on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kope/memory/graph.h"

namespace kope::memory {

class MemoryStore;

struct RetrieveState {
  std::string task;                        // the operator
  std::string device = "cpu";
  std::optional<int64_t> incumbent_case;   // the Case of the incumbent; absent while the baseline is
  std::string feedback;                    // the latest feedback text
  std::string target;                      // e.g. "beat 1.80x on cpu"
  std::vector<std::string> tags;           // idea tags of the state (e.g. the incumbent's); narrow the exact pool
};

struct RetrieveOptions {
  int per_bucket = 3;     // exact pool: at most this many per outcome bucket
  int max_text = 4;       // full-text pool (other operators)
  int max_pinned = 4;
  int fts_pool = 48;      // bm25 candidates read before bucketing
  int fts_budget = 400;   // at most about this many documents matched by the chosen words (rarest first)
  bool use_fts = true;    // false: exact retrieval only (as when SQLite lacks FTS5)
  bool include_foreign = true;
  // Cross-hardware experience (issue 18): which devices' Cases are offered. Local: the state's device only;
  // foreign: only Cases measured on other devices (the same operator's first); both (default): the same
  // operator on this device, and other operators on any device.
  enum class Devices { Both, Local, Foreign };
  Devices devices = Devices::Both;
};

// "local", "foreign", "both"; nullopt for anything else.
std::optional<RetrieveOptions::Devices> device_memory_from_name(const std::string& s);
const char* device_memory_name(RetrieveOptions::Devices d);

struct RetrievedItem {
  int64_t case_id = 0;
  std::string task, device, label;  // label: effective | partial | ineffective | negative
  bool correct = false, foreign = false, pinned = false;
  std::string provenance;  // exact | text | tags (text pool without FTS5) | pinned
  std::string kind;        // success | failure
  double a_v = 0.0, c_v = 0.0, d_v = 0.0, score = 0.0;  // score = d_v * c_v
  std::vector<std::string> tags;
  std::string thought;
  std::string summary;          // compact Case fields, one paragraph; failures say why
  std::string snippet;          // before/after code excerpt (from the diff)
  std::string journal_excerpt;  // the Journal entry's interpretation
};

// Order: pinned; then the exact pool (same operator and device, narrowed to shared idea tags when the state
// has some) by bucket effective, partial, ineffective, negative, incorrect, each by d*c descending; then the
// text pool (bm25 over Journals and Case digests, other operators) the same way. Pruned Cases and Cases marked
// cheat or invalid never appear.
std::vector<RetrievedItem> retrieve(const MemoryStore& store, const RetrieveState& state,
                                    const RetrieveOptions& options = {});

}  // namespace kope::memory
