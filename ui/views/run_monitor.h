// A run with several tasks in flight, live (issue 19): one row per task (phase, attempt, last status, incumbent,
// tokens) with steering for the selected task alone (pause or resume it, stop it, send it a hint), the run's
// budget (tokens against the token budget, else attempts against tasks x attempts; wall time against its limit)
// and the device pool's timing slots with what each one is doing, polled while the run goes.
#pragma once

#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

#include "kope/loop/loop.h"
#include "models/run_models.h"

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;

namespace kope::ui {

struct ProgressEvent;

class RunMonitor : public QWidget {
  Q_OBJECT
 public:
  explicit RunMonitor(QWidget* parent = nullptr);

  // The limits the budget bar measures against (0: none).
  struct Budget {
    int tasks = 0;
    int max_attempts = 0;
    int64_t max_tokens = 0;
    double max_wall_seconds = 0;
  };
  void begin(std::shared_ptr<loop::RunControl> control, const Budget& budget, std::vector<std::string> pool);
  void end(const std::vector<loop::TaskOutcome>& outcomes);
  // The devices whose timing slots the pool panel shows ("cpu", or each host of a pool of hosts).
  void setPool(std::vector<std::string> devices);

  void phase(const std::string& task, const std::string& phase);
  void progress(const std::string& task, const ProgressEvent& e);
  void attempt(const std::string& task, const loop::Attempt& attempt);
  void incumbent(const std::string& task, double speedup);

  InFlightModel* inFlight() const { return in_flight_; }
  SlotModel* slotModel() const { return slots_; }
  QTableView* inFlightView() const { return in_flight_view_; }
  QTableView* slotView() const { return slot_view_; }
  QProgressBar* budgetBar() const { return budget_; }
  QProgressBar* wallBar() const { return wall_; }
  QPushButton* pauseTaskButton() const { return pause_task_; }
  QPushButton* stopTaskButton() const { return stop_task_; }
  QPushButton* hintTaskButton() const { return hint_task_; }
  // The task of the selected row ("" when none).
  std::string selectedTask() const;
  void selectTask(const std::string& task);
  void retranslate();

 signals:
  // A person asked to send the hint being written to this task alone.
  void hintToTask(const QString& task);
  // What a per-task act did, in a line for the run's phase label.
  void steered(const QString& task, const QString& what);

 private:
  void buildViews();
  void togglePauseTask();
  void stopTask();
  void showMenu(const QPoint& at);
  void poll();
  void updateBudget();
  void updateButtons();

  std::shared_ptr<loop::RunControl> control_;
  Budget budget_limits_;
  std::vector<std::string> pool_;
  bool running_ = false;
  QElapsedTimer clock_;
  QTimer* poll_ = nullptr;

  InFlightModel* in_flight_ = nullptr;
  SlotModel* slots_ = nullptr;
  QTableView* in_flight_view_ = nullptr;
  QTableView* slot_view_ = nullptr;
  QLabel* in_flight_label_ = nullptr;
  QLabel* pool_label_ = nullptr;
  QLabel* budget_label_ = nullptr;
  QProgressBar* budget_ = nullptr;
  QProgressBar* wall_ = nullptr;
  QPushButton* pause_task_ = nullptr;
  QPushButton* stop_task_ = nullptr;
  QPushButton* hint_task_ = nullptr;
};

}  // namespace kope::ui
