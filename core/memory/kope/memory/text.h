// Text helpers of the memory: idea tags from a thought, optimisation layers, a unified diff, the hardware
// fingerprint, and query terms for full-text search.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kope::memory {

// The keyword table that normalises a free-text thought (and a kernel's `// kope:cxxflags` line) into idea
// tags. A tag applies when any of its keywords occurs in the lower-cased text (substring match).
struct TagRule {
  const char* tag;
  const char* layer;  // algorithm | parallelism | memory | precision | compiler
  std::vector<const char*> keywords;
};
const std::vector<TagRule>& tag_rules();

// Sorted, unique tags for a thought plus the flags a source asks for.
std::vector<std::string> idea_tags(const std::string& thought, const std::string& source = "");
// The layers (sorted, unique) of a set of tags.
std::vector<std::string> layers_of(const std::vector<std::string>& tags);

// A unified diff (3 lines of context) from `before` to `after`; "" when they are equal. An empty `before`
// reads as a new file. Line-based longest common subsequence; above a size cap it falls back to one hunk.
std::string unified_diff(const std::string& before, const std::string& after, const std::string& before_name,
                         const std::string& after_name);
// Lines added and removed by a unified diff.
std::pair<int, int> diff_stat(const std::string& diff);
// At most `max_lines` lines of the diff's changed lines with a little context, for a prompt.
std::string diff_excerpt(const std::string& diff, int max_lines);

// CPU model (/proc/cpuinfo), logical cores, cache sizes (sysfs, not sysconf), the compiler's version line,
// machine and kernel release. Computed once per process.
const nlohmann::json& hardware_fingerprint();
// A short stable digest of a fingerprint (FNV-1a 64 of its canonical dump, hex).
std::string fingerprint_digest(const nlohmann::json& fp);

// Quoted FTS5 terms for free text: lower-cased words of 3+ letters, stop words dropped, unique, at most `max`.
std::vector<std::string> query_terms(const std::string& text, std::size_t max = 12);

// A fresh random UUID (version 4 form).
std::string new_uuid();

}  // namespace kope::memory
