// What a build produced: the compiler's diagnostics and the built artifact (value types; building is in exec/).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kope {

struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;  // error, warning, note, fatal error
  std::string message;
};

struct CompileResult {
  bool ok = false;
  bool cached = false;
  bool cancelled = false;  // the cancel token stopped it (then !ok, nothing cached)
  std::filesystem::path shared_object;
  std::vector<Diagnostic> diagnostics;
  std::string log;    // the compiler's stderr, as it printed it
  std::string error;  // why it failed, in one line, when !ok
  std::vector<std::string> command;
  double seconds = 0.0;
  std::string isolation;  // Isolation::summary() of the compiler's sandbox; empty when cached
};

}  // namespace kope
