// A command of `kope`, in the shape of renderdoc's renderdoccmd: each command adds its options to its own
// CLI11 sub-command (bound to members of the command), then runs with the parsed values. run_cli builds the
// registry below, parses once, and runs the command that was named.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace kope::cli {

// What a command runs with.
struct Invocation {
  const std::vector<std::string>& args;  // the command line as given (recorded with a run)
  std::ostream& out;
  std::ostream& err;
  const CLI::App& app;                   // the command's own sub-command: which of its sub-commands was named
  std::optional<std::string> workspace;  // --workspace

  // --workspace DIR made absolute, else $KOPE_WORKSPACE or the default (~/.local/share/kope).
  std::filesystem::path workspace_dir() const;
  // "kope ARGS...": the command line recorded with a run or an evaluation.
  std::string command_line() const;
};

// A line of `kope --help`: how a command is called and what it does.
struct Synopsis {
  std::string call;
  std::string what;
};

class Command {
 public:
  virtual ~Command() = default;
  virtual std::string name() const = 0;
  // One line, for `kope <name> --help`.
  virtual std::string description() const = 0;
  // The lines of `kope --help` (default: the name and the description).
  virtual std::vector<Synopsis> synopsis() const { return {{name(), description()}}; }
  // Adds the command's options, positionals and sub-commands to `app`, bound to the command's members.
  virtual void add_options(CLI::App& app) = 0;
  // After a successful parse. Returns a CliExit code (130 when a run was cancelled); throws UsageError for bad
  // usage, kope::Error for bad input, EnvError for the environment.
  virtual int run(const Invocation& inv) = 0;
};

// The commands, one file each (cmd_<name>.cpp; `version` and `help` are in cli.cpp).
std::unique_ptr<Command> suite_command();
std::unique_ptr<Command> eval_command();
std::unique_ptr<Command> run_command();
std::unique_ptr<Command> report_command();
std::unique_ptr<Command> history_command();
std::unique_ptr<Command> show_command();
std::unique_ptr<Command> review_command();
std::unique_ptr<Command> compare_command();
std::unique_ptr<Command> transcript_command();
std::unique_ptr<Command> study_command();
std::unique_ptr<Command> memory_command();
std::unique_ptr<Command> devices_command();
std::unique_ptr<Command> doctor_command();

// The help of `app` itself ("Usage: kope memory ..."), not of its sub-command that was named (CLI11's help()).
std::string help_text(const CLI::App& app);

// The registry run_cli walks, in the order `kope --help` lists the commands.
std::vector<std::unique_ptr<Command>> all_commands();

}  // namespace kope::cli
