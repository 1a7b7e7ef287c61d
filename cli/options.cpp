// The options of `kope`, defined once (options.h): bounds, defaults, help text and the messages of bad input.
#include "kope/cli/options.h"

#include <iomanip>
#include <sstream>

using namespace kope::loop;

namespace kope::cli {

namespace {

std::string num_text(double v) {
  std::ostringstream s;
  s << std::setprecision(12) << v;  // 1e9 as 1000000000
  return s.str();
}

}  // namespace

int64_t parse_whole(const std::string& name, const std::string& v, int64_t lo, int64_t hi) {
  try {
    std::size_t used = 0;
    const long long n = std::stoll(v, &used);
    if (used == v.size() && n >= lo && n <= hi) return n;
  } catch (const std::exception&) {
  }
  throw UsageError(name + " expects a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                   ", got \"" + v + "\"");
}

double parse_number(const std::string& name, const std::string& v, double lo, double hi) {
  try {
    std::size_t used = 0;
    const double d = std::stod(v, &used);
    if (used == v.size() && d >= lo && d <= hi) return d;
  } catch (const std::exception&) {
  }
  throw UsageError(name + " expects a number from " + num_text(lo) + " to " + num_text(hi) + ", got \"" + v + "\"");
}

namespace {

std::string bounds(int64_t lo, int64_t hi) { return " (" + std::to_string(lo) + " to " + std::to_string(hi); }

}  // namespace

CLI::Option* add_value(CLI::App& app, const std::string& name, std::function<void(const std::string&)> set,
                       const std::string& type, const std::string& what) {
  // The last of a repeated option counts, as a later flag overrides an earlier one in a shell alias.
  return app.add_option_function<std::string>(name, std::move(set), what)
      ->type_name(type)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::Option* add_whole(CLI::App& app, const std::string& name, int& value, int64_t lo, int64_t hi,
                       const std::string& what) {
  const std::string help = what + bounds(lo, hi) + ", default " + std::to_string(value) + ")";
  return add_value(app, name, [&value, name, lo, hi](const std::string& v) {
    value = static_cast<int>(parse_whole(name, v, lo, hi));
  }, "N", help);
}

CLI::Option* add_whole(CLI::App& app, const std::string& name, int64_t& value, int64_t lo, int64_t hi,
                       const std::string& what) {
  const std::string help = what + bounds(lo, hi) + ", default " + std::to_string(value) + ")";
  return add_value(app, name, [&value, name, lo, hi](const std::string& v) {
    value = parse_whole(name, v, lo, hi);
  }, "N", help);
}

CLI::Option* add_whole(CLI::App& app, const std::string& name, std::optional<int64_t>& value, int64_t lo,
                       int64_t hi, const std::string& what) {
  return add_value(app, name, [&value, name, lo, hi](const std::string& v) {
    value = parse_whole(name, v, lo, hi);
  }, "N", what + bounds(lo, hi) + ")");
}

CLI::Option* add_number(CLI::App& app, const std::string& name, double& value, double lo, double hi,
                        const std::string& what) {
  const std::string help = what + " (" + num_text(lo) + " to " + num_text(hi) + ", default " + num_text(value) + ")";
  return add_value(app, name, [&value, name, lo, hi](const std::string& v) {
    value = parse_number(name, v, lo, hi);
  }, "X", help);
}

CLI::Option* add_number(CLI::App& app, const std::string& name, std::optional<double>& value, double lo,
                        double hi, const std::string& what) {
  return add_value(app, name, [&value, name, lo, hi](const std::string& v) {
    value = parse_number(name, v, lo, hi);
  }, "X", what + " (" + num_text(lo) + " to " + num_text(hi) + ")");
}

CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<std::string>& value, char sep,
                      const std::string& what) {
  return add_value(app, name, [&value, sep](const std::string& v) {
    value.clear();
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, sep))
      if (!item.empty()) value.push_back(item);
  }, sep == ',' ? "A,B" : "\"A B\"", what);
}

CLI::Option* add_text(CLI::App& app, const std::string& name, std::optional<std::string>& value,
                      const std::string& type, const std::string& what) {
  return add_value(app, name, [&value](const std::string& v) { value = v; }, type, what);
}

CLI::Option* add_text(CLI::App& app, const std::string& name, std::string& value, const std::string& type,
                      const std::string& what) {
  return add_value(app, name, [&value](const std::string& v) { value = v; }, type, what);
}

CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& value, const std::string& what) {
  return app.add_flag(name, value, what)->disable_flag_override();
}

int64_t parse_id(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const long long id = std::stoll(text, &used);
    if (used == text.size() && id > 0) return id;
  } catch (const std::exception&) {
  }
  throw UsageError(what + " must be a positive number, got \"" + text + "\"");
}

CLI::Option* add_id(CLI::App& app, const std::string& name, std::optional<int64_t>& value, const std::string& what,
                    const std::string& help) {
  return add_value(app, name, [&value, what](const std::string& v) { value = parse_id(v, what); }, "ID", help);
}

void add_json_option(CLI::App& app, bool& json) { add_flag(app, "--json", json, "machine-readable output on stdout"); }

void add_limit_option(CLI::App& app, int& limit, const std::string& what) {
  add_whole(app, "--limit", limit, 1, 1000000, what);
}

void add_device_option(CLI::App& app, std::optional<std::string>& spec, const std::string& what) {
  add_text(app, "--device", spec, "SPEC", what + ": cpu, cuda, ascend, or KIND@[USER@]HOST[:PORT] over SSH");
}

Suite SuiteChoice::load() const { return dir ? Suite::from_dir(*dir) : Suite::embedded(); }

Suite SuiteChoice::load_at_levels(const std::string& fallback) const {
  Suite s = load();
  try {
    return s.at_levels(parse_levels(levels.value_or(dir ? "all" : fallback)));
  } catch (const Error& e) {
    if (!levels) throw UsageError(e.what());
    throw UsageError("--level " + *levels + ": " + e.what());  // the suite has no task at a level given
  }
}

void add_suite_option(CLI::App& app, SuiteChoice& suite) {
  add_text(app, "--suite", suite.dir, "DIR", "task JSON files below DIR instead of the embedded suite");
}

void add_level_option(CLI::App& app, SuiteChoice& suite, const std::string& what) {
  add_value(app, "--level", [&suite](const std::string& v) {
    try {
      parse_levels(v);
    } catch (const Error& e) {
      throw UsageError(e.what());  // "--level expects levels such as 1 or 1,2 (or all), got ..."
    }
    suite.levels = v;
  }, "L", what + ": 1,2 or all");
}

void add_eval_options(CLI::App& app, EvalOptions& o) {
  const std::string group = "How kernels are judged";
  add_list(app, "--cases", o.cases, ',', "only these cases")->group(group);
  add_flag(app, "--small", o.skip_large, "leave out the cases a task marks large (what the test command runs)")->group(group);
  add_whole(app, "--warmup", o.warmup, 0, 1000, "untimed runs per case")->group(group);
  add_whole(app, "--reps", o.reps, 1, 10000, "timed runs per case, at least")->group(group);
  add_value(app, "--timeout", [&o](const std::string& v) {
    try {
      std::size_t used = 0;
      const double d = std::stod(v, &used);
      if (used == v.size() && d > 0 && d <= 86400) {
        o.case_timeout_seconds = d;
        return;
      }
    } catch (const std::exception&) {
    }
    throw UsageError("--timeout expects a number of seconds above 0 and at most 86400, got \"" + v + "\"");
  }, "SECONDS", "per case; the runner's process group is killed past it (above 0, at most 86400, default " +
                    num_text(o.case_timeout_seconds) + ")")->group(group);
  add_value(app, "--memory-mb", [&o](const std::string& v) {
    o.memory_bytes = static_cast<uint64_t>(parse_whole("--memory-mb", v, 64, 1 << 20)) << 20;
  }, "N", "address-space limit of the runner, MiB (64 to 1048576, default " + std::to_string(o.memory_bytes >> 20) +
              ")")->group(group);
  add_list(app, "--cxxflags", o.cxxflags, ' ',
           "the candidate's compiler flags instead of -O2 (a kernel may add its own with a `// kope:cxxflags ...` "
           "line)")->group(group);
  app.add_flag_callback("--no-library", [&o] { o.library = false; },
                        "speedups against the naive baseline only, without timing the task's library")
      ->group(group);
}

void add_loop_options(CLI::App& app, LoopOptions& o) {
  const std::string group = "The loop";
  add_list(app, "--tasks", o.tasks, ',', "these tasks (default: the tasks of --level)")->group(group);
  add_whole(app, "--max-attempts", o.max_attempts, 1, 100000, "attempts per task")->group(group);
  add_whole(app, "--jobs", o.jobs, 1, 256,
            "advance up to N tasks at once: model requests, builds and checks side by side, timed calls taking "
            "turns per device (default 1)")->group(group);
  add_whole(app, "--patience", o.patience, 0, 100000, "stop a task after N attempts in a row without improvement, 0: never")
      ->group(group);
  add_number(app, "--target", o.target_speedup, 0, 1e9, "stop a task once its speedup reaches X, 0: never")
      ->group(group);
  add_whole(app, "--max-tokens-total", o.max_tokens_total, 0, int64_t{1} << 50,
            "stop the run after N model tokens, 0: no limit")->group(group);
  add_number(app, "--max-wall", o.max_wall_seconds, 0, 1e9, "stop the run after this many seconds, 0: no limit")
      ->group(group);
  add_value(app, "--device-memory", [&o](const std::string& v) {
    auto d = memory::device_memory_from_name(v);
    if (!d) throw UsageError("--device-memory expects local, foreign or both, got \"" + v + "\"");
    o.retrieve.devices = *d;
  }, "WHICH", "experience from this device's Cases only (local), only other devices' (foreign: memory built on "
              "another kind of hardware), or both (default)")->group(group);
  add_flag(app, "--recheck", o.recheck, "evaluate candidates the memory says already failed here (skipped otherwise)")
      ->group(group);
}

}  // namespace kope::cli
