// The live view of a run with several tasks in flight (issue 19): one row per task (its phase, attempts, last
// status, incumbent and tokens) and one per timing slot of the device pool (busy, idle or retired, and what it
// times). Both are plain row models; the run controller feeds them from the engine's signals and a timer.
#pragma once

#include <QObject>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kope/base/timing_slots.h"
#include "kope/loop/loop.h"
#include "row_model.h"

namespace kope::ui {

struct InFlightRow {
  std::string task;
  std::string phase;   // the loop's phase word: starting, proposing, held, compiling, testing, timing, paused...
  std::string detail;  // what the phase is at: "case 2 of 5 (n4096)"
  int attempts = 0;
  std::string last_status;
  std::optional<double> incumbent;  // the task's incumbent speedup; none known yet: the baseline
  int64_t tokens = 0;
  bool paused = false;  // paused by a person (this task alone)
  bool stopped = false;
  bool finished = false;
};

// One row per task the run has started, in the order they started; rows stay once the task is finished.
class InFlightModel : public RowModel<InFlightRow> {
  Q_OBJECT
 public:
  // The phase is last: it stretches, and its case detail is the longest text.
  enum Column { Task, Attempt, LastStatus, Incumbent, Tokens, Phase, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const InFlightRow& r, int column, int role) const override;

  // Each update adds the task's row when it has none yet.
  void setPhase(const std::string& task, const std::string& phase, const std::string& detail = "");
  void addAttempt(const std::string& task, const loop::Attempt& attempt);
  void setIncumbent(const std::string& task, double speedup);
  void setSteered(const std::string& task, bool paused, bool stopped);
  // The run is over: every task's final incumbent and attempts as the loop reports them.
  void finish(const std::vector<loop::TaskOutcome>& outcomes);
  void setMaxAttempts(int n) { max_attempts_ = n; }

  int rowOf(const std::string& task) const;
  int64_t tokens() const;
  int attemptsDone() const;

 private:
  template <typename F>
  void update(const std::string& task, F change);
  int max_attempts_ = 0;
};

// The timing slots of the run's devices, as TimingSlots::states() reports them.
class SlotModel : public RowModel<SlotState> {
  Q_OBJECT
 public:
  enum Column { Slot, State, Measurements, Doing, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const SlotState& s, int column, int role) const override;
  // Replaces the rows only where something changed, so a selection and the view's scroll survive a poll.
  void refresh(std::vector<SlotState> states);
};

}  // namespace kope::ui
