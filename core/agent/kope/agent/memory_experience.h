// The Experience Graph Memory (core/memory) as the agent's experience: the loop's Retrieve(s, M) items turned into
// context items (active arm), and every Case in recording order (dump arm).
#pragma once

#include <vector>

#include "kope/agent/context.h"
#include "kope/memory/memory.h"
#include "kope/memory/retrieve.h"

namespace kope::agent {

// One item per retrieved Case, keeping the memory's order as the rank: same-task and pinned Cases are warm,
// other tasks' (cross-task, text pool) cold. Text: compact Case fields, summary, code excerpt, Journal excerpt.
// A Case measured on another kind of device than `device` says so (cross-hardware experience, issue 18).
std::vector<ContextItem> context_items(const std::vector<memory::RetrievedItem>& items, const std::string& task,
                                       const std::string& device = "");

// The dump arm: every Case of the device (pruned and flagged ones excepted), oldest first, unranked.
class MemoryDumpSource : public ExperienceSource {
 public:
  explicit MemoryDumpSource(const memory::MemoryStore& store, int limit = 2000) : store_(store), limit_(limit) {}
  std::vector<ContextItem> retrieve(const ExperienceQuery& q) override;

 private:
  const memory::MemoryStore& store_;
  int limit_;
};

}  // namespace kope::agent
