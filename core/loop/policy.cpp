#include "kope/loop/policy.h"

#include <algorithm>

#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"

namespace kope {

namespace {
std::vector<CandidateSource> candidates_in(const std::filesystem::path& dir, const std::string& task) {
  std::vector<CandidateSource> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir / task, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    std::string src = read_file(e.path(), "kernel file");
    out.push_back({task + "/" + e.path().filename().string(), thought_of(src), src});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}
}  // namespace

std::optional<Proposal> OfflinePolicy::propose(const PolicyState& state) {
  for (const CandidateSource& c : dir_.empty() ? embedded_candidates(state.task->name)
                                               : candidates_in(dir_, state.task->name)) {
    if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(c.source)) != state.tried.end()) continue;
    return Proposal{"offline:" + c.name, c.thought, c.source};
  }
  return std::nullopt;
}

}  // namespace kope
