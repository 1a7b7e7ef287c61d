// kope-remote, the agent kope copies to a remote host: it runs one device operation there from files in a
// scratch folder and leaves its answer as files, so only files and exit codes cross the SSH connection.
//   kope-remote --version
//   kope-remote info KIND                      JSON availability, capabilities, fingerprint on stdout
//   kope-remote build KIND DIR                 DIR/source + DIR/build.json -> DIR/build_result.json
//   kope-remote measure KIND DIR               DIR/request.json + in<i>.bin -> DIR/measure.json + first/last<k>.bin
//   kope-remote profile KIND DIR               DIR/request.json + in<i>.bin -> DIR/profile.json
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "kope/device/remote_agent.h"
#include "kope/device/worker_protocol.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

json build_options_json(const BuildOptions& o) {
  json j = {{"display_name", o.display_name}, {"flags", o.flags}, {"defines", o.defines}, {"mode", o.mode},
            {"timeout_seconds", o.timeout_seconds}};
  if (o.signature) j["signature"] = to_json(*o.signature);
  return j;
}

json measure_request_json(const MeasureRequest& q) {
  return {{"kcase", to_json(q.kcase)},
          {"candidate", q.candidate.string()},
          {"baseline", q.baseline.string()},
          {"library", q.library.string()},
          {"warmup", q.warmup},
          {"reps", q.reps},
          {"interleave", q.interleave},
          {"flush_bytes", q.flush_bytes},
          {"timeout_seconds", q.timeout_seconds},
          {"host_memory_bytes", q.host_memory_bytes},
          {"sanitize", q.sanitize},
          {"inputs", q.inputs.size()}};
}

ProfileResult profile_result_from_json(const json& j) {
  ProfileResult p;
  p.available = j.value("available", false);
  p.reason = j.value("reason", "");
  p.tool = j.value("tool", "");
  p.command = j.value("command", std::vector<std::string>{});
  for (const auto& c : j.value("counters", json::array()))
    p.counters.push_back({c.value("section", ""), c.value("name", ""), c.value("value", 0.0), c.value("unit", "")});
  return p;
}

namespace {

DeviceConfig agent_config() {
  DeviceConfig c;
  if (const char* w = std::getenv("KOPE_REMOTE_WORK"); w && *w) c.work_dir = w;
  else if (const char* h = std::getenv("HOME"); h && *h) c.work_dir = fs::path(h) / ".cache/kope-remote/work";
  if (const char* r = std::getenv("KOPE_RUNNER"); r && *r) c.runner = r;
  return c;
}

MeasureRequest read_request(const fs::path& dir) {
  json j = json::parse(read_file(dir / "request.json", "measure request"));
  MeasureRequest q;
  q.kcase = concrete_case_from_json(j.at("kcase"));
  q.candidate = j.value("candidate", "");
  q.baseline = j.value("baseline", "");
  q.library = j.value("library", "");
  q.warmup = j.value("warmup", 3);
  q.reps = j.value("reps", 5);
  q.interleave = j.value("interleave", true);
  q.flush_bytes = j.value("flush_bytes", uint64_t{0});
  q.timeout_seconds = j.value("timeout_seconds", 60.0);
  q.host_memory_bytes = j.value("host_memory_bytes", uint64_t{4} << 30);
  q.sanitize = j.value("sanitize", false);
  for (std::size_t i = 0; i < j.value("inputs", std::size_t{0}); ++i)
    q.inputs.push_back(read_file(worker_input_path(dir, i), "input"));
  q.scratch = dir / "scratch";
  return q;
}

}  // namespace

int remote_agent_main(int argc, char** argv) {
  try {
    if (argc >= 2 && std::string(argv[1]) == "--version") {
      std::cout << remote_agent_version() << "\n";
      return 0;
    }
    if (argc < 3) {
      std::cerr << "usage: kope-remote info|build|measure|profile KIND [DIR]\n";
      return 2;
    }
    const std::string op = argv[1], kind = argv[2];
    auto dev = make_device(kind, agent_config());
    if (op == "info") {
      json j = {{"availability", to_json(dev->availability())},
                {"capabilities", to_json(dev->capabilities())},
                {"fingerprint", to_json(dev->fingerprint())}};
      std::cout << j.dump() << "\n";
      return 0;
    }
    if (argc < 4) {
      std::cerr << "kope-remote " << op << ": needs a folder\n";
      return 2;
    }
    const fs::path dir = argv[3];
    if (op == "build") {
      json o = json::parse(read_file(dir / "build.json", "build options"));
      BuildOptions bo;
      bo.display_name = o.value("display_name", "kernel");
      bo.flags = o.value("flags", std::vector<std::string>{});
      bo.defines = o.value("defines", std::vector<std::string>{});
      bo.mode = o.value("mode", "");
      bo.timeout_seconds = o.value("timeout_seconds", 300.0);
      std::optional<ConcreteCase> sig;
      if (o.contains("signature")) sig = concrete_case_from_json(o["signature"]), bo.signature = &*sig;
      BuildResult b = dev->build(read_file(dir / "source", "kernel source"), bo);
      write_file_atomic(dir / "build_result.json", to_json(b).dump(2));
      return 0;
    }
    if (op == "measure") {
      MeasureRequest q = read_request(dir);
      write_measure_result(dir, dev->measure(q));
      return 0;
    }
    if (op == "profile") {
      MeasureRequest q = read_request(dir);
      write_file_atomic(dir / "profile.json", to_json(dev->profile(q)).dump(2));
      return 0;
    }
    std::cerr << "kope-remote: unknown operation " << op << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kope-remote: " << e.what() << "\n";
    return 3;
  }
}

std::string remote_agent_version() { return std::string("kope-remote ") + KOPE_DEVICE_VERSION; }

}  // namespace kope::device
