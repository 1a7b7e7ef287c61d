// What a build produced: the compiler's diagnostics and the built artifact (value types; building is in exec/).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kope {

struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;  // error, warning, note, fatal error
  std::string message;
};

// What any build route produced (the CPU's compiler, nvcc, bisheng, an operator project, a remote host's build):
// one type from the compiler up to the report, with no conversions in between.
struct BuildResult {
  bool ok = false;
  bool cached = false;
  bool cancelled = false;  // the cancel token stopped it (then !ok, nothing cached)
  bool timed_out = false;  // it ran past its wall-clock limit (then !ok): slow, or starved of the CPU
  std::filesystem::path artifact;  // a shared object (cpu, cuda), a program or an installed package (ascend)
  std::vector<Diagnostic> diagnostics;  // with the user's file name and lines
  std::string log;    // the tools' output, as they printed it
  std::string error;  // why it failed, in one line, when !ok
  std::vector<std::string> command;
  double seconds = 0.0;
  std::string isolation;  // what confined the compiler (Isolation::summary() of its sandbox); empty when cached or unknown
};

// The JSON a remote host's agent sends back for a build, written and read side by side.
nlohmann::json to_json(const BuildResult& b);
BuildResult build_result_from_json(const nlohmann::json& j);

}  // namespace kope
