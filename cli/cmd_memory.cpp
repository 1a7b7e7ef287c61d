// `kope memory ...`: look at, curate and share the Experience Graph Memory of a workspace. The views are in
// memory_views.cpp; this file holds the options, the curation acts, export and import.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/memory_views.h"
#include "kope/cli/options.h"
#include "kope/memory/share.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::cli {

namespace {

using nlohmann::json;
using namespace kope::memory;

// A value that must be one of `choices`, else "NAME expects A, B or C, got "V"".
CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value,
                        const std::vector<std::string>& choices, const std::string& what) {
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i)
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return add_value(app, name, [&value, name, choices, list](const std::string& v) {
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
      throw UsageError(name + " expects " + list + ", got \"" + v + "\"");
    value = v;
  }, "FORMAT", what + " (" + list + ")");
}

GraphWeights parse_weights(const std::string& w) {
  std::vector<std::string> parts;
  std::stringstream ss(w);
  for (std::string p; std::getline(ss, p, ',');) parts.push_back(p);
  GraphWeights gw;
  try {
    if (parts.size() != 3) throw std::invalid_argument("count");
    gw.w_self = std::stod(parts[0]);
    gw.w_succ = std::stod(parts[1]);
    gw.gamma = std::stod(parts[2]);
  } catch (const std::exception&) {
    throw UsageError("--weights expects three numbers W_SELF,W_SUCC,GAMMA, got \"" + w + "\"");
  }
  return gw;
}

int report_curation(const MemoryArgs& a, std::ostream& out, const std::string& what, int64_t id, int n) {
  if (a.json) out << json{{"case_id", id}, {"act", what}, {"changed", n}}.dump() << "\n";
  else out << what << " case " << id << ": " << n << " case(s) changed\n";
  return kExitOk;
}

// prune, unprune, pin, mark: each recorded with who and why.
int curate(const std::string& act, const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  if (!a.case_id) throw UsageError("usage: kope memory " + act + " CASE" + (act == "mark" ? " cheat|invalid|clear" : "") +
                                   (act == "prune" || act == "mark" ? " --reason TEXT" : ""));
  const int64_t id = *a.case_id;
  const std::string who = a.by.value_or(current_user()), why = a.reason.value_or("");
  if (act == "prune") {
    if (why.empty()) throw UsageError("kope memory prune needs --reason TEXT (why it is excluded)");
    return report_curation(a, out, "pruned", id, m.prune(id, a.subtree, who, why));
  }
  if (act == "unprune") return report_curation(a, out, "unpruned", id, m.unprune(id, a.subtree, who, why));
  if (act == "pin") return report_curation(a, out, a.unpin ? "unpinned" : "pinned", id, m.pin(id, !a.unpin, who, why));
  if (a.flag.empty()) throw UsageError("usage: kope memory mark CASE cheat|invalid|clear --reason TEXT");
  if (a.flag != "cheat" && a.flag != "invalid" && a.flag != "clear")
    throw UsageError("kope memory mark takes cheat, invalid or clear, got \"" + a.flag + "\"");
  if (a.flag != "clear" && why.empty()) throw UsageError("kope memory mark needs --reason TEXT");
  if (!m.get_case(id)) throw Error("no case " + std::to_string(id) + " in the memory (see kope memory cases)");
  return report_curation(a, out, "marked " + a.flag, id, m.mark(id, a.flag == "clear" ? "" : a.flag, who, why));
}

int export_memory(const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  if (a.file.empty()) throw UsageError("usage: kope memory export FILE|- [--format jsonl|graphml|dot]");
  const std::string format = a.format.empty() ? "jsonl" : a.format;
  std::ostringstream buf;
  ExportStats st;
  GraphExportOptions go;
  go.task = a.task;
  if (format == "jsonl") st = export_jsonl(m, buf);
  else if (format == "graphml") export_graphml(m, buf, go);
  else export_dot(m, buf, go);
  if (a.file == "-") {
    out << buf.str();
    return kExitOk;
  }
  std::ofstream f(a.file, std::ios::binary);
  if (!f || !(f << buf.str()) || !f.flush()) throw Error("cannot write '" + a.file + "'");
  if (a.json)
    out << json{{"file", a.file}, {"format", format}, {"cases", st.cases}, {"journal", st.journal}}.dump() << "\n";
  else
    out << "wrote " << a.file << (format == "jsonl" ? " (" + std::to_string(st.cases) + " cases, " +
                                                          std::to_string(st.journal) + " journal entries)" : "")
        << "\n";
  return kExitOk;
}

int import_memory(const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  if (a.file.empty()) throw UsageError("usage: kope memory import FILE");
  const ImportStats st = import_jsonl(m, a.file);
  if (a.json)
    out << json{{"file", a.file}, {"origin", st.origin}, {"added", st.added}, {"skipped", st.skipped}}.dump() << "\n";
  else
    out << "imported " << st.added << " case(s) from workspace " << st.origin << " (" << st.skipped
        << " already present)\n";
  return kExitOk;
}

class MemoryCommand : public Command {
 public:
  std::string name() const override { return "memory"; }
  std::string description() const override { return "the Experience Graph Memory (kope memory --help)"; }
  std::vector<Synopsis> synopsis() const override {
    return {{"memory cases|show|graph|retrieve|prune|unprune|pin|mark|journal|export|import", description()}};
  }

  void add_options(CLI::App& app) override {
    app.require_subcommand(0, 1);
    add_views(app);
    add_curation(app);
    CLI::App* ex = sub(app, "export", "JSON Lines (schema 1) to share; or the graph (- : stdout)");
    ex->add_option("FILE", a_.file, "the file to write, - for stdout");
    add_choice(*ex, "--format", a_.format, {"jsonl", "graphml", "dot"}, "what to write");
    add_text(*ex, "--task", a_.task, "T", "graphml, dot: only this task's Cases");
    sub(app, "import", "another workspace's export, as foreign memory")->add_option("FILE", a_.file, "the export");
    sub(app, "help", "this help");
  }

  int run(const Invocation& inv) override {
    const CLI::App* chosen = inv.app.get_subcommands().empty() ? nullptr : inv.app.get_subcommands().front();
    if (!chosen || chosen->get_name() == "help") {
      (chosen ? inv.out : inv.err) << help_text(inv.app);
      return chosen ? kExitOk : kExitBadInput;
    }
    const std::string act = chosen->get_name();
    Workspace ws = Workspace::open(inv.workspace_dir());
    MemoryStore m(ws.handle());
    if (act == "cases") return memory_cases(a_, m, inv.out);
    if (act == "show") return memory_show(a_, m, inv.out);
    if (act == "graph") return memory_graph(a_, m, inv.out, inv.err);
    if (act == "retrieve") return memory_retrieve(a_, m, inv.out);
    if (act == "journal") return memory_journal(a_, m, inv.out, inv.err);
    if (act == "export") return export_memory(a_, m, inv.out);
    if (act == "import") return import_memory(a_, m, inv.out);
    return curate(act, a_, m, inv.out);
  }

 private:
  CLI::App* sub(CLI::App& app, const std::string& name, const std::string& what) {
    CLI::App* s = app.add_subcommand(name, what);
    add_json_option(*s, a_.json);
    return s;
  }
  void add_case(CLI::App& s) { add_id(s, "CASE", a_.case_id, "case id", "the Case (kope memory cases lists them)"); }

  void add_views(CLI::App& app) {
    CLI::App* cases = sub(app, "cases", "Cases, newest first (no diffs or reports)");
    add_text(*cases, "--task", a_.task, "T", "only this task's Cases");
    add_text(*cases, "--device", a_.device, "D", "only Cases measured on this device");
    add_value(*cases, "--label", [this](const std::string& v) {
      if (!outcome_from_name(v))
        throw UsageError("--label expects effective, partial, ineffective or negative, got \"" + v + "\"");
      a_.label = v;
    }, "L", "only Cases with this outcome label (effective, partial, ineffective, negative)");
    add_limit_option(*cases, a_.limit, "at most N Cases");
    add_case(*sub(app, "show", "one Case: fields, scene, diff, feedback, Journal, curation history, what the agent "
                               "was shown"));
    CLI::App* graph = sub(app, "graph", "the forest of Cases");
    add_text(*graph, "--task", a_.task, "T", "only this task's Cases");
    add_choice(*graph, "--format", a_.format, {"text", "dot", "graphml", "json"}, "what to print (default text)");
    add_text(*graph, "--out", a_.out, "FILE", "write to FILE instead of stdout");
    add_flag(*graph, "--rebuild", a_.rebuild, "recompute r, label and d of every Case first");
    add_value(*graph, "--weights", [this](const std::string& v) { a_.weights = parse_weights(v); }, "W_SELF,W_SUCC,GAMMA",
              "set the graph's weights (and rebuild)");
    CLI::App* r = sub(app, "retrieve", "what Retrieve(s, M) returns for that state");
    add_text(*r, "--task", a_.task, "T", "the state's task (required)");
    add_text(*r, "--device", a_.device, "D", "the state's device (default cpu)");
    add_text(*r, "--feedback", a_.feedback, "TEXT", "the state's latest feedback");
    add_text(*r, "--target", a_.target, "TEXT", "the state's target, as the agent is told it (e.g. \"beat 1.80x\")");
    add_list(*r, "--tags", a_.tags, ',', "the state's idea tags");
    add_id(*r, "--incumbent", a_.incumbent, "case id", "the incumbent's Case");
    add_limit_option(*r, a_.per_bucket, "at most N Cases per outcome bucket");
    add_flag(*r, "--no-fts", a_.no_fts, "exact retrieval only, no full-text search");
    CLI::App* j = sub(app, "journal", "the append-only Journal, as Markdown");
    add_text(*j, "--task", a_.task, "T", "only this task's entries");
    add_text(*j, "--export", a_.export_dir, "DIR", "write DIR/<task>.md instead");
  }

  void add_curation(CLI::App& app) {
    const std::map<std::string, std::string> acts = {
        {"prune", "exclude from retrieval (kept, reversible); needs --reason"},
        {"unprune", "include in retrieval again"},
        {"pin", "always offered by retrieval (--unpin: no longer)"},
        {"mark", "a known cheat or an invalid measurement: mark CASE cheat|invalid|clear --reason TEXT"}};
    for (const auto& [act, what] : acts) {
      CLI::App* s = sub(app, act, what);
      add_case(*s);
      if (act == "mark") s->add_option("FLAG", a_.flag, "cheat, invalid or clear");
      add_text(*s, "--reason", a_.reason, "TEXT", "why (recorded with the act)");
      add_text(*s, "--by", a_.by, "WHO", "who acts (default: the current user)");
      if (act == "prune" || act == "unprune") add_flag(*s, "--subtree", a_.subtree, "the Case and every Case that started from it");
      if (act == "pin") add_flag(*s, "--unpin", a_.unpin, "remove the pin");
    }
  }

  MemoryArgs a_;
};

}  // namespace

std::unique_ptr<Command> memory_command() { return std::make_unique<MemoryCommand>(); }

}  // namespace kope::cli
