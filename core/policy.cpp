#include "kope/policy.h"

#include <algorithm>

#include "kope/sha256.h"

namespace kope {

std::optional<Proposal> OfflinePolicy::propose(const PolicyState& state) {
  for (const CandidateSource& c : embedded_candidates(state.task->name)) {
    if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(c.source)) != state.tried.end()) continue;
    return Proposal{"offline:" + c.name, c.thought, c.source};
  }
  return std::nullopt;
}

}  // namespace kope
