// `kope study`: the method's experiment (METHOD.md, "Reported results"). The suite (any levels) runs under each
// chosen arm (memory off, dump or active; local, foreign or both devices' memory) with one policy and the same
// budgets, each arm in a workspace of its own so that no arm learns from another; the outcome is one table per
// arm and level in the method's form: operators compiled and correct, pass rate, fast_1 against the library,
// the geometric-mean speedup, CANN Bench's score, tokens and wall time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/agent/context.h"
#include "kope/agent/make_policy.h"
#include "kope/loop/loop.h"
#include "kope/memory/retrieve.h"
#include "kope/model/suite.h"

namespace kope::study {

// One arm: what the agent is given from memory.
struct Arm {
  agent::MemoryArm memory = agent::MemoryArm::Active;
  memory::RetrieveOptions::Devices devices = memory::RetrieveOptions::Devices::Both;
  std::string name() const;  // "off", "dump", "active", "active:foreign", ...
};

// "off,active,active:foreign": ARM[:local|foreign|both], comma-separated, each at most once. Throws kope::Error
// naming the bad item.
std::vector<Arm> parse_arms(const std::string& text);

struct StudyOptions {
  std::vector<int> levels;         // the suite's levels to run, in this order
  std::vector<std::string> tasks;  // empty: every task of those levels; else only these (of those levels)
  std::vector<Arm> arms;
  agent::PolicyChoice policy;      // the arm sets policy.context.arm
  loop::LoopOptions loop;          // budgets and evaluation options, the same for every arm
  std::filesystem::path dir;       // the study's folder: an arm's workspace under arms/<name>/, the report files
  // A memory export (`kope memory export`) imported into every arm's workspace before it runs: the foreign
  // memory of the cross-hardware experiment, or a warm start.
  std::optional<std::filesystem::path> seed_memory;
  std::string command;             // recorded with each run
};

// One arm on one level, in the method's form.
struct LevelRow {
  std::string arm;
  int level = 0;
  int operators = 0, compiled = 0, correct = 0;  // tasks
  int cases = 0, cases_correct = 0;
  double pass_rate = 0.0;                         // correct cases / cases
  double fast_1 = 0.0;                            // correct and faster than the library (else naive) / operators
  std::string fast_1_against;
  std::optional<double> geomean_speedup;          // over the correct operators
  double score = 0.0;                             // CANN Bench: the sum of the operator scores
  int attempts = 0;
  int64_t tokens = 0;
  double wall_seconds = 0.0;
};

// One operator in one arm: the kernel the arm ended with (its incumbent; without one, its best attempt).
struct TaskRow {
  std::string arm, task, kernel;
  int level = 0;
  bool compiled = false, correct = false;
  int cases = 0, cases_correct = 0;
  std::optional<double> speedup;  // geometric mean over the cases, against `against`
  std::string against;            // "library" or "naive"
  double score = 0.0;
  int attempts = 0;
  int64_t tokens = 0;
  std::string error;
};

struct StudyReport {
  std::string policy, device, started, finished;
  std::vector<std::string> arms;
  std::vector<int> levels;
  std::vector<LevelRow> rows;  // arm-major, then level
  std::vector<TaskRow> tasks;
  bool stopped = false;        // cancelled before every arm and level ran
};

struct StudyEvent {
  std::string arm;
  int level = 0;
  const loop::LoopEvent* loop = nullptr;  // an attempt or a task starting; null: the arm and level are starting
};

// Runs every arm over every level and returns the report (also written: write_study). Throws kope::Error for
// bad input (an unknown task, a level with no tasks, an unreadable seed) before anything runs.
StudyReport run_study(const Suite& suite, const StudyOptions& options,
                      const std::function<void(const StudyEvent&)>& progress = {});

nlohmann::json to_json(const StudyReport& r);
// Throws kope::Error naming the field for a file that is not a study report.
StudyReport study_from_json(const nlohmann::json& j);
std::string to_markdown(const StudyReport& r);
// A grouped bar chart of one figure per arm and level ("pass_rate" or "speedup"), as SVG.
std::string svg_chart(const StudyReport& r, const std::string& figure);
// study.json, study.md, pass_rate.svg and speedup.svg in `dir`, each written atomically.
void write_study(const StudyReport& r, const std::filesystem::path& dir);
StudyReport read_study(const std::filesystem::path& dir);

}  // namespace kope::study
