// A set of tasks: the embedded default (CANN Bench L1 operators) or every *.json below a folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kope/model/task.h"

namespace kope {

struct CandidateSource {
  std::string name;     // e.g. "gelu/01_float_erff.cpp" (the device kind is not part of it)
  std::string thought;  // the `// thought:` line, the idea the kernel tries
  std::string source;
};

class Suite {
 public:
  static Suite embedded();
  // Throws kope::Error naming the folder, or the file and field of the first bad task.
  static Suite from_dir(const std::filesystem::path& dir);

  const std::vector<Task>& tasks() const { return tasks_; }
  const Task* find(const std::string& name) const;
  // Throws kope::Error naming the task and listing the suite's tasks when there is none of that name.
  const Task& require(const std::string& name) const;
  std::string origin() const { return origin_; }
  // The same suite restricted to tasks whose level is in `levels` (empty: all). Throws kope::Error when none is
  // left, naming the levels the suite has.
  Suite at_levels(const std::vector<int>& levels) const;
  std::vector<int> levels() const;  // the distinct levels, ascending

 private:
  std::vector<Task> tasks_;
  std::string origin_;
};

// "1", "1,2", "all" -> levels (empty for all). Throws kope::Error on anything else.
std::vector<int> parse_levels(const std::string& text);

// `name_or_path` is a task name in `suite`, or the path of a task JSON file. Throws kope::Error.
Task resolve_task(const std::string& name_or_path, const Suite& suite);

// The candidate kernels shipped for an operator on a kind of device (resources/kernels/<task>/<kind>/), in
// file-name order, named "<task>/<file>".
std::vector<CandidateSource> embedded_candidates(const std::string& task_name, const std::string& device_kind = "cpu");

// The file suffix of a kernel for a kind of device: ".cu" for cuda, ".cpp" otherwise.
std::string kernel_suffix(const std::string& device_kind);

// The text after `// thought:` in the first lines of a kernel, or "".
std::string thought_of(const std::string& source);

}  // namespace kope
