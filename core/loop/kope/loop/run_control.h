// Steering a running loop: pause after the current attempt, resume, stop now, hints for the next prompt, holding
// each candidate for approval, forking from a recorded version, pinning the incumbent; every act is logged with
// the run (the `steering` table). The UI thread or a signal watcher steers; the loop's thread obeys between
// attempts.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
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
  void pause();
  void resume();
  void stop();
  bool paused() const;
  bool stopped() const;
  std::shared_ptr<CancelToken> cancel_token() const { return cancel_; }

  // A hint for the policy's next prompt (PolicyState::hints), consumed once.
  void add_hint(const std::string& hint);

  // Hold each candidate until decide() is called (or a stop); or let `approver` decide on the loop's thread.
  void set_hold(bool hold);
  bool holding() const;
  void set_approver(Approver approver);
  // The held candidate, if one waits now.
  std::optional<Proposal> held() const;
  // Answers the held candidate: a proposal (edited or not) goes on to evaluation, nullopt rejects it.
  void decide(std::optional<Proposal> decision);

  // The next attempt starts from this recorded evaluation's kernel as the incumbent.
  void fork_from(int64_t evaluation_id);
  // While pinned, no candidate replaces the incumbent.
  void pin(bool pinned);
  bool pinned() const;

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
  std::vector<std::string> take_hints();
  std::optional<int64_t> peek_fork() const;
  std::optional<int64_t> take_fork();
  // Acts not yet written to the workspace, oldest first.
  std::vector<SteeringAct> take_acts();
  // The same, left in the queue.
  std::vector<SteeringAct> pending_acts() const;

 private:
  void act(const std::string& name, const std::string& detail);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<CancelToken> cancel_;
  bool paused_ = false, stopped_ = false, hold_ = false, pinned_ = false;
  Approver approver_;
  std::optional<Proposal> held_;
  bool decided_ = false;
  std::optional<Proposal> decision_;
  std::vector<std::string> hints_;
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
