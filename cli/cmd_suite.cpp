// `kope suite list|show`: the tasks of the suite, and one task with its cases' resolved shapes.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/eval/suite_report.h"

using namespace kope::eval;

namespace kope::cli {

namespace {

using nlohmann::json;

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

json task_summary_json(const Task& t) {
  json ins = json::array(), outs = json::array(), cases = json::array();
  auto spec = [](const TensorSpec& s) {
    json j = {{"name", s.name}, {"dtype", dtype_name(s.dtype)}, {"shape", s.shape}};
    if (!s.count.empty()) j["count"] = s.count;
    return j;
  };
  for (const auto& s : t.inputs) ins.push_back(spec(s));
  for (const auto& s : t.outputs) outs.push_back(spec(s));
  for (const auto& c : t.cases) cases.push_back(c.name);
  return {{"name", t.name}, {"level", t.level}, {"summary", t.summary}, {"origin", t.origin}, {"digest", t.digest},
          {"inputs", ins}, {"outputs", outs}, {"attrs", t.attrs}, {"cases", cases},
          {"candidates", embedded_candidates(t.name).size()}};
}

// The whole task: its summary, every case resolved (shapes, seed, attributes), the reference and the library.
json task_json(const Task& t) {
  json j = task_summary_json(t);
  json cases = json::array();
  for (const Case& c : t.cases) {
    ConcreteCase cc = resolve_case(t, c);
    json ins = json::array(), outs = json::array();
    for (const auto& x : cc.inputs) ins.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
    for (const auto& x : cc.outputs) outs.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
    json attrs = json::object();
    for (const auto& [k, v] : cc.attrs) attrs[k] = v;
    cases.push_back({{"name", cc.name}, {"seed", cc.seed}, {"inputs", ins}, {"outputs", outs}, {"attrs", attrs},
                     {"memory_bound", case_is_memory_bound(t, c.name)}});
  }
  j["cases"] = cases;
  j["reference"] = t.reference;
  json lib = json::object();
  for (const auto& [dev, impl] : t.library)
    lib[dev] = impl ? json{{"source", impl->source}, {"link", impl->link}, {"include_dirs", impl->include_dirs},
                           {"threads", impl->threads}}
                    : json(nullptr);
  j["library"] = lib;
  if (!t.library_why.empty()) j["library_why"] = t.library_why;
  return j;
}

void print_task(const Task& t, const json& j, std::ostream& out) {
  out << t.name << " (L" << t.level << ", " << t.origin << ")\n" << t.summary << "\n\n";
  for (const auto& c : j["cases"]) {
    out << "case " << c["name"].get<std::string>() << ":";
    for (const auto& x : c["inputs"]) out << " " << x["name"].get<std::string>() << shape_text(x["shape"].get<std::vector<int64_t>>());
    out << " ->";
    for (const auto& x : c["outputs"]) out << " " << x["name"].get<std::string>() << shape_text(x["shape"].get<std::vector<int64_t>>());
    if (!c["attrs"].empty()) out << "  " << c["attrs"].dump();
    out << "\n";
  }
  out << "\nreference:\n" << t.reference;
}

class SuiteCommand : public Command {
 public:
  std::string name() const override { return "suite"; }
  std::string description() const override { return "the tasks of the suite, or one task"; }
  std::vector<Synopsis> synopsis() const override {
    return {{"suite list [--level L] [--json]", "the tasks of the suite (all levels, or those of --level)"},
            {"suite show TASK [--json]", "one task: tensors, attributes, cases with resolved shapes"}};
  }

  void add_options(CLI::App& app) override {
    app.require_subcommand(0, 1);
    list_ = app.add_subcommand("list", "the tasks of the suite (all levels, or those of --level)");
    add_suite_option(*list_, suite_);
    add_level_option(*list_, suite_, "only the tasks of these levels");
    add_json_option(*list_, json_);
    show_ = app.add_subcommand("show", "one task: tensors, attributes, cases with resolved shapes, the reference");
    show_->add_option("TASK", task_, "a task's name, or a task JSON file");
    add_suite_option(*show_, suite_);
    add_json_option(*show_, json_);
  }

  int run(const Invocation& inv) override {
    if (list_->parsed()) return list(inv.out);
    if (show_->parsed()) return show(inv.out);
    throw UsageError("usage: kope suite list|show TASK");
  }

 private:
  int list(std::ostream& out) const {
    const Suite suite = suite_.load_at_levels("all");
    if (json_) {
      json arr = json::array();
      for (const Task& t : suite.tasks()) arr.push_back(task_summary_json(t));
      out << dump_json(json{{"suite", suite.origin()}, {"tasks", arr}}, 2) << "\n";
      return kExitOk;
    }
    out << std::left << std::setw(26) << "task" << std::setw(7) << "level" << std::setw(7) << "cases" << "summary\n";
    for (const Task& t : suite.tasks())
      out << std::left << std::setw(26) << t.name << std::setw(7) << ("L" + std::to_string(t.level)) << std::setw(7)
          << t.cases.size() << t.summary << "\n";
    out << suite.tasks().size() << " tasks (" << suite.origin() << ")\n";
    return kExitOk;
  }

  int show(std::ostream& out) const {
    if (task_.empty()) throw UsageError("usage: kope suite show TASK");
    const Task t = resolve_task(task_, suite_.load());
    const json j = task_json(t);
    if (json_) out << dump_json(j, 2) << "\n";
    else print_task(t, j, out);
    return kExitOk;
  }

  CLI::App* list_ = nullptr;
  CLI::App* show_ = nullptr;
  SuiteChoice suite_;
  std::string task_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> suite_command() { return std::make_unique<SuiteCommand>(); }

}  // namespace kope::cli
