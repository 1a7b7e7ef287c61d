// Steering a running loop: pause after the current attempt, resume, stop now, hints for the next prompt, holding
// each candidate for approval, forking from a recorded version, pinning the incumbent; every act is logged with
// the run (the `steering` table). The UI thread or a signal watcher steers; the loop's thread obeys between
// attempts.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kope/base/cancel.h"
#include "kope/loop/policy.h"

namespace kope::workspace {
class Workspace;
}

namespace kope::loop {

struct TaskOutcome;

struct SteeringAct {
  std::string at;      // UTC, ISO 8601
  std::string act;     // pause, resume, stop, hint, hold, approve, edit, reject, fork, pin, release
  std::string detail;  // the hint, the kernel, the evaluation forked from...
};

// A candidate held for approval: nullopt rejects it; a proposal (possibly with an edited source) goes on.
using Approver = std::function<std::optional<Proposal>(const std::string& task, const Proposal& proposal)>;

class RunControl {
 public:
  RunControl();

  // Pause after the current attempt; resume; stop now (cancels the running evaluation through the token).
  // With a task, only that task of a run with several in flight (`kope run --jobs N`); without, the whole run.
  void pause(const std::string& task = "");
  void resume(const std::string& task = "");
  void stop();
  void stop_task(const std::string& task);
  bool paused(const std::string& task = "") const;
  bool stopped() const;
  bool task_stopped(const std::string& task) const;
  std::shared_ptr<CancelToken> cancel_token() const { return cancel_; }
  // The token that stops one task's evaluation: cancelled by stop_task(task) and by stop().
  std::shared_ptr<CancelToken> task_cancel_token(const std::string& task);

  // A hint for the policy's next prompt (PolicyState::hints), consumed once by each task (by `task` only, when
  // one is named).
  void add_hint(const std::string& hint, const std::string& task = "");

  // Hold each candidate until decide() is called (or a stop); or let `approver` decide on the loop's thread.
  void set_hold(bool hold);
  bool holding() const;
  void set_approver(Approver approver);
  // The held candidate that has waited longest, if one waits now (one per task may wait at once).
  std::optional<Proposal> held() const;
  std::vector<std::pair<std::string, Proposal>> all_held() const;  // task and candidate, oldest first
  // Answers the held candidate (of `task`, or the oldest): a proposal (edited or not) goes on to evaluation,
  // nullopt rejects it.
  void decide(std::optional<Proposal> decision, const std::string& task = "");

  // The next attempt starts from this recorded evaluation's kernel as the incumbent.
  void fork_from(int64_t evaluation_id);
  // While pinned, no candidate replaces the incumbent (of `task` only, when one is named).
  void pin(bool pinned, const std::string& task = "");
  bool pinned(const std::string& task = "") const;

  // Called on the loop's thread when a candidate is held, and at each phase ("proposing", "held", "paused").
  std::function<void(const Proposal&)> on_held;
  std::function<void(const std::string& task, const std::string& phase)> on_phase;
  // Called on the steering thread for every act, after it is queued for the log.
  std::function<void(const SteeringAct&)> on_act;

  // --- for the loop ---
  // Blocks while paused; false once stopped.
  bool wait_until_resumed(const std::string& task);
  // Passes the proposal through the approver or the hold; false: rejected (or stopped).
  bool review(const std::string& task, Proposal& proposal);
  std::vector<std::string> take_hints(const std::string& task = "");
  std::optional<int64_t> peek_fork() const;
  std::optional<int64_t> take_fork();
  // Acts not yet written to the workspace, oldest first.
  std::vector<SteeringAct> take_acts();
  // The same, left in the queue.
  std::vector<SteeringAct> pending_acts() const;

 private:
  void act(const std::string& name, const std::string& detail, const std::string& task = "");

  // A candidate waiting for a person, per task.
  struct Held {
    Proposal proposal;
    uint64_t order = 0;  // oldest first
    bool decided = false;
    std::optional<Proposal> decision;
  };

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<CancelToken> cancel_;
  bool paused_ = false, stopped_ = false, hold_ = false, pinned_ = false;
  std::set<std::string> paused_tasks_, stopped_tasks_, pinned_tasks_;
  std::map<std::string, std::shared_ptr<CancelToken>> task_cancel_;
  Approver approver_;
  std::map<std::string, Held> held_;
  uint64_t held_order_ = 0;
  // Hints for every task (each task takes each once: hints_taken_ counts how many it took) and per task.
  std::vector<std::string> hints_;
  std::map<std::string, std::size_t> hints_taken_;
  std::map<std::string, std::vector<std::string>> task_hints_;
  std::optional<int64_t> fork_;
  std::vector<SteeringAct> acts_;
};

// The steering log of a run: CREATE TABLE IF NOT EXISTS steering(run_id, at, act, detail).
void record_steering(workspace::Workspace& ws, int64_t run_id, const std::vector<SteeringAct>& acts);
std::vector<SteeringAct> steering_log(workspace::Workspace& ws, int64_t run_id);

// The loop's hook before each attempt: waits out a pause (false once stopped), writes pending acts to the log,
// applies a fork (the forked kernel becomes the incumbent state) and hands queued hints to the policy.
bool steer_before_attempt(RunControl& control, workspace::Workspace& ws, int64_t run_id, const std::string& task,
                          PolicyState& state, std::optional<int64_t>& incumbent_eval, TaskOutcome& outcome);

// `kope run` steered by signals while alive: SIGINT/SIGTERM stop now, SIGTSTP/SIGUSR1 pause after the current
// attempt, SIGCONT/SIGUSR2 resume. A self-pipe wakes a watcher thread; the previous handlers come back at the end.
class SignalSteering {
 public:
  explicit SignalSteering(RunControl& control);
  ~SignalSteering();
  SignalSteering(const SignalSteering&) = delete;
  SignalSteering& operator=(const SignalSteering&) = delete;

 private:
  RunControl& control_;
  std::thread watcher_;
};

}  // namespace kope::loop
