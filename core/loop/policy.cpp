#include "kope/loop/policy.h"

#include <algorithm>

#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"
#include "kope/device/device.h"

namespace kope::loop {

namespace {
// DIR/<task>/<kind>/ when it exists, else DIR/<task>/ (the CPU's kernels are often kept flat).
std::vector<CandidateSource> candidates_in(const std::filesystem::path& dir, const std::string& task,
                                           const std::string& kind) {
  std::vector<CandidateSource> out;
  std::error_code ec;
  const std::filesystem::path folder =
      std::filesystem::is_directory(dir / task / kind, ec) ? dir / task / kind : dir / task;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    if (!e.is_regular_file() || e.path().extension() != kernel_suffix(kind)) continue;
    std::string src = read_file(e.path(), "kernel file");
    out.push_back({task + "/" + e.path().filename().string(), thought_of(src), src});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}
}  // namespace

std::optional<Proposal> OfflinePolicy::propose(const PolicyState& state) {
  const std::string kind = device::parse_device_spec(state.device).kind;
  for (const CandidateSource& c : dir_.empty() ? embedded_candidates(state.task->name, kind)
                                               : candidates_in(dir_, state.task->name, kind)) {
    if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(c.source)) != state.tried.end()) continue;
    return Proposal{"offline:" + c.name, c.thought, c.source};
  }
  return std::nullopt;
}

}  // namespace kope::loop
