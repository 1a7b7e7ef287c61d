// `kope`: the registry of commands, one CLI11 parse, and the exit status of every failure.
#include "kope/cli/cli.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "kope/base/error.h"
#include "kope/base/text.h"
#include "kope/base/version.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/llm/client.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::cli {

namespace fs = std::filesystem;

namespace {

const char* kDescription =
    "kope: evaluates kernels against an fp64 golden and a baseline, runs the optimisation loop,\n"
    "and reads what a workspace recorded.";

const char* kExitStatus = R"(Every command takes --workspace; `kope COMMAND --help` lists a command's own options.

exit status:
  0  done, and every evaluated kernel correct
  1  a kernel failed (did not compile, wrong result, crash, timeout)
  2  bad usage or bad input (a task file, a kernel path, an option); the message names the file and field
  3  internal error (a bug in kope: please report it)
  4  environment failure: read-only or full disk, permission denied, locked or damaged database, a folder that
     cannot be made, a missing compiler or tool; the message names the file and the OS's reason
)";

// `kope --help` lists each command as it is called ("doctor [--json]"), not by its bare name.
std::string path_of(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

class KopeFormatter : public CLI::Formatter {
 public:
  std::map<const CLI::App*, std::vector<Synopsis>> synopsis;

  std::string make_subcommand(const CLI::App* sub) const override {
    auto it = synopsis.find(sub);
    if (it == synopsis.end()) return CLI::Formatter::make_subcommand(sub);
    std::ostringstream out;
    for (const Synopsis& s : it->second) CLI::detail::format_help(out, s.call, s.what, get_column_width());
    return out.str();
  }
};

// `kope help [COMMAND]`: the same as `kope [COMMAND] --help`.
class HelpCommand : public Command {
 public:
  std::string name() const override { return "help"; }
  std::string description() const override { return "this help, or a command's (kope help COMMAND)"; }
  std::vector<Synopsis> synopsis() const override { return {{"help [COMMAND]", description()}}; }
  void add_options(CLI::App& app) override { app.add_option("COMMAND", command_, "the command to explain"); }
  int run(const Invocation& inv) override {
    const CLI::App& root = *inv.app.get_parent();
    if (command_.empty()) {
      inv.out << help_text(root);
      return kExitOk;
    }
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : root.get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == command_) sub = s;
    if (!sub) throw UsageError("unknown command \"" + command_ + "\" (see kope --help)");
    inv.out << help_text(*sub);
    return kExitOk;
  }

 private:
  std::string command_;
};

class VersionCommand : public Command {
 public:
  std::string name() const override { return "version"; }
  std::string description() const override { return "kope's version"; }
  void add_options(CLI::App&) override {}
  int run(const Invocation& inv) override {
    inv.out << version_string() << "\n";
    return kExitOk;
  }
};

// The innermost command named on the line ("kope memory show"), for messages.
const CLI::App& innermost(const CLI::App& root) {
  const CLI::App* a = &root;
  while (!a->get_subcommands().empty()) a = a->get_subcommands().front();
  return *a;
}

// Words CLI11 could not place (extras are allowed, so they end up here): an unknown option, an unknown
// command, or an argument too many. Each is bad usage naming the word and the command.
void reject_leftovers(const CLI::App& root) {
  const std::vector<std::string> rest = root.remaining(true);
  if (rest.empty()) return;
  const CLI::App& at = innermost(root);
  const std::string where = path_of(at), see = " (see " + where + " --help)";
  const std::string& word = rest.front();
  if (word.size() > 1 && word[0] == '-')
    throw UsageError("unknown option " + word.substr(0, word.find('=')) + " for " + where + see);
  const bool has_commands = !at.get_subcommands([](const CLI::App*) { return true; }).empty();
  if (has_commands) throw UsageError("unknown command \"" + word + "\" for " + where + see);
  throw UsageError("unexpected argument \"" + word + "\" for " + where + see);
}

// CLI11's own parse errors (a value missing: "--reps: 1 required N missing"), in kope's words where they have one.
std::string parse_error_text(const CLI::ParseError& e, const CLI::App& root) {
  const std::string m = e.what();
  const std::string option = m.substr(0, m.find(':'));
  const std::string see = " (see " + path_of(innermost(root)) + " --help)";
  auto ends_with = [&m](const std::string& s) { return m.size() >= s.size() && m.compare(m.size() - s.size(), s.size(), s) == 0; };
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    if (ends_with(" missing")) return "option " + option + " needs a value" + see;
    if (ends_with(" was given a disallowed flag override")) {
      const std::string flag = m.substr(0, m.find(' '));
      return "option " + (flag.rfind("-", 0) == 0 ? flag : "--" + flag) + " takes no value" + see;
    }
  }
  return m + see;
}

// Builds the parser over the registry, parses, and runs the named command.
int parse_and_run(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  std::vector<std::unique_ptr<Command>> commands = all_commands();
  commands.push_back(std::make_unique<HelpCommand>());
  CLI::App app(kDescription, "kope");
  auto formatter = std::make_shared<KopeFormatter>();
  formatter->column_width(38);
  app.formatter(formatter);  // before the sub-commands: they inherit it
  app.allow_extras();        // leftovers are reported by reject_leftovers, naming the command
  app.fallthrough();         // an option of the whole line (--workspace) may follow a sub-command
  app.require_subcommand(0, 1);
  std::optional<std::string> workspace;
  add_text(app, "--workspace", workspace, "DIR", "where runs are recorded (default $KOPE_WORKSPACE or ~/.local/share/kope)");
  std::map<const CLI::App*, Command*> command_of;
  for (const auto& c : commands) {
    CLI::App* sub = app.add_subcommand(c->name(), c->description());
    c->add_options(*sub);
    formatter->synopsis[sub] = c->synopsis();
    command_of[sub] = c.get();
  }
  app.footer(kExitStatus);  // after the sub-commands, which would inherit it
  try {
    app.parse(std::vector<std::string>(raw.rbegin(), raw.rend()));
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    throw UsageError(parse_error_text(e, app));
  }
  reject_leftovers(app);
  if (app.get_subcommands().empty()) {
    err << app.help();
    return kExitBadInput;
  }
  const CLI::App& chosen = *app.get_subcommands().front();
  return command_of.at(&chosen)->run(Invocation{raw, out, err, chosen, workspace});
}

int run_cli_escaped(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  try {
    return parse_and_run(raw, out, err);
  } catch (const UsageError& e) {
    err << "kope: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const EnvError& e) {
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitEnvironment;
  } catch (const fs::filesystem_error& e) {  // the OS refused a file operation; the message names the paths
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitEnvironment;
  } catch (const Error& e) {
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "kope: internal error: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitInternal;
  }
}

}  // namespace

std::string help_text(const CLI::App& app) {
  const CLI::App* p = app.get_parent();
  return app.get_formatter()->make_help(&app, p ? path_of(*p) + " " + app.get_name() : app.get_name(),
                                        CLI::AppFormatMode::Normal);
}

fs::path Invocation::workspace_dir() const {
  return workspace ? Workspace::absolute_dir(*workspace) : Workspace::default_dir();
}

std::string Invocation::command_line() const {
  std::string s = "kope";
  for (const auto& x : args) s += " " + x;
  return s;
}

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> v;
  v.push_back(suite_command());
  v.push_back(eval_command());
  v.push_back(run_command());
  v.push_back(report_command());
  v.push_back(history_command());
  v.push_back(show_command());
  v.push_back(review_command());
  v.push_back(compare_command());
  v.push_back(transcript_command());
  v.push_back(study_command());
  v.push_back(memory_command());
  v.push_back(devices_command());
  v.push_back(doctor_command());
  v.push_back(std::make_unique<VersionCommand>());
  return v;
}

// The output boundary: whatever a command prints (a compiler's message, a kernel's log, a model's thought, an
// imported record, a task file's text) reaches the terminal through escape_terminal, whichever command prints it.
int run_cli(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  llm::global_init();  // before any thread starts: the LLM agent's requests use libcurl
  TerminalSafeStream safe_out(out), safe_err(err);
  return run_cli_escaped(raw, safe_out, safe_err);
}

}  // namespace kope::cli
