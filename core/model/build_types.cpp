#include "kope/model/build_types.h"

namespace kope {

using nlohmann::json;

json to_json(const BuildResult& b) {
  json diags = json::array();
  for (const auto& d : b.diagnostics)
    diags.push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity},
                     {"message", d.message}});
  return {{"ok", b.ok},         {"cached", b.cached}, {"artifact", b.artifact.string()}, {"diagnostics", diags},
          {"error", b.error},   {"log", b.log},       {"command", b.command},            {"seconds", b.seconds},
          {"timed_out", b.timed_out}};
}

BuildResult build_result_from_json(const json& j) {
  BuildResult b;
  b.ok = j.value("ok", false);
  b.cached = j.value("cached", false);
  b.artifact = j.value("artifact", "");
  b.error = j.value("error", "");
  b.log = j.value("log", "");
  b.command = j.value("command", std::vector<std::string>{});
  b.seconds = j.value("seconds", 0.0);
  b.timed_out = j.value("timed_out", false);
  for (const auto& d : j.value("diagnostics", json::array()))
    b.diagnostics.push_back({d.value("file", ""), d.value("line", 0), d.value("column", 0), d.value("severity", ""),
                             d.value("message", "")});
  return b;
}

}  // namespace kope
