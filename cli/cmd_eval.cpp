// `kope eval --task TASK (--kernel FILE | --library)`: compile, check against the fp64 golden, time against
// the baseline, record the evaluation in a run of its own.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/common.h"
#include "kope/cli/options.h"
#include "kope/cli/print_report.h"
#include "kope/eval/evaluator.h"
#include "kope/eval/library.h"
#include "kope/loop/loop.h"
#include "kope/model/stats.h"

using namespace kope::eval;
using namespace kope::loop;
using namespace kope::exec;
using namespace kope::workspace;

namespace kope::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class EvalCommand : public Command {
 public:
  std::string name() const override { return "eval"; }
  std::string description() const override {
    return "compile a kernel, check it against the fp64 golden, time it against the baseline";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"eval --task TASK --kernel FILE", "compile, check against the fp64 golden, time against the baseline"},
            {"eval --task TASK --library",
             "the same for the task's library implementation (ATen on the CPU)\nspeedup and HAP are against the "
             "library baseline where the task has one,\nthe naive baseline as the second column (--no-library: "
             "naive only)"}};
  }

  void add_options(CLI::App& app) override {
    add_text(app, "--task", task_, "TASK", "a task's name, or a task JSON file");
    add_text(app, "--kernel", kernel_, "FILE", "the kernel's C++ source");
    add_flag(app, "--library", library_, "judge the task's library implementation as the candidate");
    add_device_option(app, device_, "where the kernel runs (default cpu)");
    add_executor_options(app, executor_);
    add_suite_option(app, suite_);
    add_json_option(app, json_);
    add_eval_options(app, options_);
  }

  int run(const Invocation& inv) override;

 private:
  KernelSource kernel_source(const Task& task, EvalOptions& opt) const;
  void print(const Recorded& rec, const Workspace& ws, std::ostream& out, std::ostream& err) const;

  std::optional<std::string> task_, kernel_, device_;
  bool library_ = false, json_ = false;
  SuiteChoice suite_;
  ExecutorChoice executor_;
  EvalOptions options_;
};

// The candidate: the kernel file, or the task's library implementation judged as a candidate.
KernelSource EvalCommand::kernel_source(const Task& task, EvalOptions& opt) const {
  if (library_) {
    const LibraryImpl* lib = library_for(task, "cpu");
    if (!lib)
      throw Error("task '" + task.name + "' names no library implementation for the cpu" +
                  (task.library_why.empty() ? std::string() : ": " + task.library_why));
    as_library_candidate(*lib, opt);
    return {lib->source, task.name + ".library.cpp", "library:" + task.name, "the library baseline"};
  }
  std::error_code ec;
  if (!fs::is_regular_file(*kernel_, ec)) throw Error("kernel file '" + *kernel_ + "' does not exist or is not a file");
  std::string source = read_file(*kernel_, "kernel file");
  const std::string thought = thought_of(source);
  return {std::move(source), *kernel_, fs::absolute(*kernel_).string(), thought};
}

int EvalCommand::run(const Invocation& inv) {
  const std::string device = require_device(executor_.device_spec(device_.value_or("cpu")));
  if (!task_ || (!kernel_ == !library_))
    throw UsageError("usage: kope eval --task TASK (--kernel FILE | --library) [--device cpu|cuda|ascend|KIND@HOST] [--json]");
  const Task task = resolve_task(*task_, suite_.load());
  EvalOptions opt = options_;
  const KernelSource kernel = kernel_source(task, opt);
  if (kernel.source.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error("kernel file '" + kernel.name + "' is empty");
  opt.device = device;
  opt.progress = [&err = inv.err, name = task.name](const EvalProgress& p) { print_goldens(name, p, err); };
  Workspace ws = Workspace::open(inv.workspace_dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  const Recorded rec = evaluate_in_new_run(ws, ev, inv.command_line(), task, kernel, device, opt);
  print(rec, ws, inv.out, inv.err);
  return rec.report.correct() ? kExitOk : kExitKernelFailed;
}

void EvalCommand::print(const Recorded& rec, const Workspace& ws, std::ostream& out, std::ostream& err) const {
  const EvalReport& rep = rec.report;
  if (!json_) {
    print_report(rep, out);
    err << "recorded as evaluation " << rec.evaluation_id << " in " << ws.dir().string() << "\n";
    return;
  }
  json j = rep.to_json();
  j["evaluation_id"] = rec.evaluation_id;
  j["workspace"] = ws.dir().string();
  // The task-level interval: the bootstrap of the geometric mean over cases (this evaluation's noise alone), and the
  // same widened by how far the workspace's earlier evaluations moved (what promotion is decided on);
  // bench/interval_coverage.py scores both.
  const auto bare = rep.correct() ? task_speedup_interval(rep.cases) : std::nullopt;
  const auto ci = widen_report_interval(rep, bare);
  j["speedup_ci95"] = ci ? json::array({ci->low, ci->high}) : json(nullptr);
  j["speedup_ci95_one_evaluation"] = bare ? json::array({bare->low, bare->high}) : json(nullptr);
  out << dump_json(j, 2) << "\n";
}

}  // namespace

std::unique_ptr<Command> eval_command() { return std::make_unique<EvalCommand>(); }

}  // namespace kope::cli
