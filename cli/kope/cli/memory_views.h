// What `kope memory` shows of the Experience Graph Memory (cmd_memory.cpp parses and curates): the Cases, one
// Case, the graph, what Retrieve(s, M) returns for a state, and the Journal.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kope/memory/graph.h"
#include "kope/memory/memory.h"

namespace kope::cli {

// The options of every `kope memory` sub-command (each reads its own).
struct MemoryArgs {
  std::optional<int64_t> case_id;  // CASE
  std::optional<std::string> task, device, label, feedback, target, reason, by, out, export_dir;
  std::optional<int64_t> incumbent;
  std::optional<memory::GraphWeights> weights;
  std::vector<std::string> tags;
  std::string format;  // empty: the sub-command's default
  std::string file, flag;
  int limit = 50;      // cases: at most N Cases
  int per_bucket = 3;  // retrieve: at most N per outcome bucket
  bool json = false, rebuild = false, no_fts = false, subtree = false, unpin = false;
};

int memory_cases(const MemoryArgs& a, memory::MemoryStore& m, std::ostream& out);
int memory_show(const MemoryArgs& a, memory::MemoryStore& m, std::ostream& out);
int memory_graph(const MemoryArgs& a, memory::MemoryStore& m, std::ostream& out, std::ostream& err);
int memory_retrieve(const MemoryArgs& a, memory::MemoryStore& m, std::ostream& out);
int memory_journal(const MemoryArgs& a, memory::MemoryStore& m, std::ostream& out, std::ostream& err);

}  // namespace kope::cli
