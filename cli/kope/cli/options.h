// The options of `kope`, defined once: every command that takes --reps, --timeout, --limit, --device, ... adds
// it through these functions, so an option has the same bounds, default and meaning wherever it appears, and bad
// input is always a UsageError (exit 2) naming the option, its bounds and the value given.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kope/base/error.h"
#include "kope/loop/loop.h"
#include "kope/model/report.h"
#include "kope/model/suite.h"

namespace kope::cli {

// Bad usage: exit status 2 with the message.
class UsageError : public Error {
 public:
  using Error::Error;
};

// An option whose value `set` takes (and checks). CLI11 runs `set` once parsing is done; a UsageError it
// throws leaves the parse like CLI11's own errors do. `type` names the value in the help (N, DIR, FILE, ...).
CLI::Option* add_value(CLI::App& app, const std::string& name, std::function<void(const std::string&)> set,
                       const std::string& type, const std::string& what);

// `v` as a whole number (a number) from lo to hi, else the UsageError the add_ functions below give.
int64_t parse_whole(const std::string& name, const std::string& v, int64_t lo, int64_t hi);
double parse_number(const std::string& name, const std::string& v, double lo, double hi);

// A whole number from lo to hi. The help shows the bounds (and the current value as the default, where there
// is one); a value outside them, or not a whole number, is "NAME expects a whole number from LO to HI, got "V"".
CLI::Option* add_whole(CLI::App& app, const std::string& name, int& value, int64_t lo, int64_t hi,
                       const std::string& what);
CLI::Option* add_whole(CLI::App& app, const std::string& name, int64_t& value, int64_t lo, int64_t hi,
                       const std::string& what);
CLI::Option* add_whole(CLI::App& app, const std::string& name, std::optional<int64_t>& value, int64_t lo,
                       int64_t hi, const std::string& what);
// A number from lo to hi ("NAME expects a number from LO to HI, got "V"").
CLI::Option* add_number(CLI::App& app, const std::string& name, double& value, double lo, double hi,
                        const std::string& what);
CLI::Option* add_number(CLI::App& app, const std::string& name, std::optional<double>& value, double lo,
                        double hi, const std::string& what);
// A list split at `sep` (empty items dropped): --cases A,B or --cxxflags "-O3 -march=native".
CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<std::string>& value, char sep,
                      const std::string& what);
// A text value; `type` names it in the help (DIR, FILE, TEXT, ...).
CLI::Option* add_text(CLI::App& app, const std::string& name, std::optional<std::string>& value,
                      const std::string& type, const std::string& what);
CLI::Option* add_text(CLI::App& app, const std::string& name, std::string& value, const std::string& type,
                      const std::string& what);
// A flag: present or not; --flag=VALUE is bad usage.
CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& value, const std::string& what);
// A record's id as a positional (or an option when `name` starts with --): a positive whole number, else
// "WHAT must be a positive number, got "V"".
CLI::Option* add_id(CLI::App& app, const std::string& name, std::optional<int64_t>& value, const std::string& what,
                    const std::string& help);

// Parses `text` as a positive id; `what` names it in the error ("evaluation id").
int64_t parse_id(const std::string& text, const std::string& what);

// --json: machine-readable output on stdout.
void add_json_option(CLI::App& app, bool& json);
// --limit N: at most N rows or items (1 to 1000000); `what` says of what.
void add_limit_option(CLI::App& app, int& limit, const std::string& what);
// --device SPEC: cpu, cuda, ascend or KIND@[USER@]HOST[:PORT]; `what` says what it selects in this command.
void add_device_option(CLI::App& app, std::optional<std::string>& spec, const std::string& what);

// --executor slurm and its --slurm-* options, for `eval` and `run`: each measurement as a Slurm job on a node,
// over the settings file (kope/slurm.json, or --slurm-settings FILE). Without --executor the device runs here.
struct ExecutorChoice {
  std::optional<std::string> executor;  // "local" or "slurm"
  std::optional<std::string> partition, gres, time, account, dir, settings;
  std::optional<bool> exclusive;
  std::vector<std::string> sbatch_args;
  // The device spec the command runs on: `device` itself, or slurm:KIND with this process's Slurm options set.
  // A --slurm-* option without --executor slurm, or a remote device under Slurm, is a UsageError.
  std::string device_spec(const std::string& device) const;
};
void add_executor_options(CLI::App& app, ExecutorChoice& e);

// --suite DIR and --level L: which tasks a command reads.
struct SuiteChoice {
  std::optional<std::string> dir;     // task JSON files below DIR instead of the embedded suite
  std::optional<std::string> levels;  // "1,2" or "all"; checked when given

  Suite load() const;
  // The suite at --level; without it `fallback` ("1", "all"), or every level of a --suite folder.
  Suite load_at_levels(const std::string& fallback) const;
};
void add_suite_option(CLI::App& app, SuiteChoice& suite);
void add_level_option(CLI::App& app, SuiteChoice& suite, const std::string& what);

// How a kernel is judged, for `eval` and `run`: --cases --warmup --reps --timeout --memory-mb --cxxflags
// --no-library, bound to `o` (whose values are the defaults).
void add_eval_options(CLI::App& app, EvalOptions& o);
// The loop's tasks and stop rules, for `run`: --tasks --max-attempts --patience --target --max-tokens-total
// --max-wall --recheck, bound to `o`.
void add_loop_options(CLI::App& app, loop::LoopOptions& o);

}  // namespace kope::cli
