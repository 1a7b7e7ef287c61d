#include "kope/loop/run_control.h"

#include <algorithm>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

#include <sqlite3.h>

#include "kope/base/error.h"
#include "kope/loop/loop.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::loop {

namespace {

std::string utc_now() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  tm t{};
  gmtime_r(&ts.tv_sec, &t);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec, ts.tv_nsec / 1000000);
  return buf;
}

void check(Workspace& ws, int rc, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    throw Error(std::string("workspace ") + ws.dir().string() + ": " + what + ": " + sqlite3_errmsg(ws.connection()));
}

void ensure_table(Workspace& ws) {
  check(ws, sqlite3_exec(ws.connection(),
                         "CREATE TABLE IF NOT EXISTS steering(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, "
                         "at TEXT NOT NULL, act TEXT NOT NULL, detail TEXT NOT NULL)",
                         nullptr, nullptr, nullptr),
        "creating the steering table");
}

}  // namespace

RunControl::RunControl() : cancel_(std::make_shared<CancelToken>()) {}

void RunControl::act(const std::string& name, const std::string& detail, const std::string& task) {
  // A task's own act says whose it is: "gelu: after the current attempt".
  SteeringAct a{utc_now(), name, task.empty() ? detail : task + (detail.empty() ? "" : ": " + detail)};
  {
    std::lock_guard<std::mutex> lock(mu_);
    acts_.push_back(a);
  }
  cv_.notify_all();
  if (on_act) on_act(a);
}

void RunControl::pause(const std::string& task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_ || (task.empty() ? paused_ : !paused_tasks_.insert(task).second)) return;
    if (task.empty()) paused_ = true;
  }
  act("pause", "after the current attempt", task);
}

void RunControl::resume(const std::string& task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (task.empty() ? !paused_ : paused_tasks_.erase(task) == 0) return;
    if (task.empty()) paused_ = false;
  }
  act("resume", "", task);
}

void RunControl::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) return;
    stopped_ = true;
  }
  cancel_->cancel();
  act("stop", "now");
}

void RunControl::stop_task(const std::string& task) {
  std::shared_ptr<CancelToken> token = task_cancel_token(task);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_ || !stopped_tasks_.insert(task).second) return;
  }
  token->cancel();
  act("stop", "now", task);
}

std::shared_ptr<CancelToken> RunControl::task_cancel_token(const std::string& task) {
  std::shared_ptr<CancelToken> t;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = task_cancel_[task];
    if (slot) return slot;
    t = slot = std::make_shared<CancelToken>();
  }
  std::weak_ptr<CancelToken> weak = t;
  cancel_->on_cancel([weak] {  // the whole run's stop stops every task's evaluation
    if (auto p = weak.lock()) p->cancel();
  });
  return t;
}

bool RunControl::paused(const std::string& task) const {
  std::lock_guard<std::mutex> lock(mu_);
  return paused_ || (!task.empty() && paused_tasks_.count(task));
}

bool RunControl::stopped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stopped_;
}

bool RunControl::task_stopped(const std::string& task) const {
  std::lock_guard<std::mutex> lock(mu_);
  return stopped_ || stopped_tasks_.count(task);
}

void RunControl::add_hint(const std::string& hint, const std::string& task) {
  if (hint.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    (task.empty() ? hints_ : task_hints_[task]).push_back(hint);
  }
  act("hint", hint, task);
}

std::vector<std::string> RunControl::take_hints(const std::string& task) {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t& taken = hints_taken_[task];
  std::vector<std::string> out(hints_.begin() + static_cast<std::ptrdiff_t>(std::min(taken, hints_.size())), hints_.end());
  taken = hints_.size();
  auto mine = task_hints_.find(task);
  if (mine != task_hints_.end()) {
    out.insert(out.end(), mine->second.begin(), mine->second.end());
    task_hints_.erase(mine);
  }
  return out;
}

void RunControl::set_hold(bool hold) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (hold_ == hold) return;
    hold_ = hold;
  }
  act("hold", hold ? "on" : "off");
}

bool RunControl::holding() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hold_;
}

void RunControl::set_approver(Approver approver) {
  std::lock_guard<std::mutex> lock(mu_);
  approver_ = std::move(approver);
}

std::vector<std::pair<std::string, Proposal>> RunControl::all_held() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<uint64_t, std::pair<std::string, Proposal>>> v;
  for (const auto& [task, h] : held_)
    if (!h.decided) v.push_back({h.order, {task, h.proposal}});
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, Proposal>> out;
  for (auto& x : v) out.push_back(std::move(x.second));
  return out;
}

std::optional<Proposal> RunControl::held() const {
  auto all = all_held();
  if (all.empty()) return std::nullopt;
  return all.front().second;
}

void RunControl::decide(std::optional<Proposal> decision, const std::string& task) {
  std::string name, detail, whose = task;
  bool several = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Held* h = nullptr;
    for (auto& [t, x] : held_)
      if (!x.decided && (task.empty() ? !h || x.order < h->order : t == task)) {
        h = &x;
        whose = t;
      }
    if (!h) return;
    h->decided = true;
    name = !decision ? "reject" : decision->source != h->proposal.source ? "edit" : "approve";
    detail = h->proposal.name;
    h->decision = std::move(decision);
    several = held_.size() > 1;
  }
  act(name, detail, several ? whose : "");
}

bool RunControl::review(const std::string& task, Proposal& proposal) {
  Approver approver;
  {
    std::lock_guard<std::mutex> lock(mu_);
    approver = approver_;
  }
  if (approver) {
    std::optional<Proposal> d = approver(task, proposal);
    act(!d ? "reject" : d->source != proposal.source ? "edit" : "approve", proposal.name);
    if (!d) return false;
    proposal = *d;
    return !task_stopped(task);
  }
  std::unique_lock<std::mutex> lock(mu_);
  auto stopped_here = [&] { return stopped_ || stopped_tasks_.count(task) > 0; };
  if (!hold_) return !stopped_here();
  held_[task] = Held{proposal, held_order_++, false, std::nullopt};
  lock.unlock();
  if (on_phase) on_phase(task, "held");
  if (on_held) on_held(proposal);
  lock.lock();
  cv_.wait(lock, [&] { return held_[task].decided || stopped_here() || !hold_; });
  Held h = std::move(held_[task]);
  held_.erase(task);
  const bool go = !stopped_here() && (h.decided ? h.decision.has_value() : true);
  if (go && h.decided) proposal = *h.decision;
  return go;
}

void RunControl::fork_from(int64_t evaluation_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    fork_ = evaluation_id;
  }
  act("fork", "evaluation " + std::to_string(evaluation_id));
}

std::optional<int64_t> RunControl::peek_fork() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fork_;
}

std::optional<int64_t> RunControl::take_fork() {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<int64_t> f = fork_;
  fork_.reset();
  return f;
}

void RunControl::pin(bool pinned, const std::string& task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!task.empty()) {
      if (pinned ? !pinned_tasks_.insert(task).second : pinned_tasks_.erase(task) == 0) return;
    } else {
      if (pinned_ == pinned) return;
      pinned_ = pinned;
    }
  }
  act(pinned ? "pin" : "release", "", task);
}

bool RunControl::pinned(const std::string& task) const {
  std::lock_guard<std::mutex> lock(mu_);
  return pinned_ || (!task.empty() && pinned_tasks_.count(task));
}

bool RunControl::wait_until_resumed(const std::string& task) {
  std::unique_lock<std::mutex> lock(mu_);
  auto is_paused = [&] { return paused_ || paused_tasks_.count(task) > 0; };
  auto is_stopped = [&] { return stopped_ || stopped_tasks_.count(task) > 0; };
  if (is_paused() && !is_stopped()) {
    lock.unlock();
    if (on_phase) on_phase(task, "paused");
    lock.lock();
  }
  cv_.wait(lock, [&] { return !is_paused() || is_stopped(); });
  return !is_stopped();
}

std::vector<SteeringAct> RunControl::take_acts() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<SteeringAct> out;
  out.swap(acts_);
  return out;
}

std::vector<SteeringAct> RunControl::pending_acts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return acts_;
}

void record_steering(Workspace& ws, int64_t run_id, const std::vector<SteeringAct>& acts) {
  ensure_table(ws);
  if (acts.empty()) return;
  sqlite3_stmt* st = nullptr;
  check(ws, sqlite3_prepare_v2(ws.connection(), "INSERT INTO steering(run_id, at, act, detail) VALUES (?, ?, ?, ?)",
                               -1, &st, nullptr),
        "recording a steering act");
  for (const auto& a : acts) {
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, a.at.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, a.act.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, a.detail.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
      sqlite3_finalize(st);
      check(ws, rc, "recording a steering act");
    }
  }
  sqlite3_finalize(st);
}

std::vector<SteeringAct> steering_log(Workspace& ws, int64_t run_id) {
  ensure_table(ws);
  sqlite3_stmt* st = nullptr;
  check(ws, sqlite3_prepare_v2(ws.connection(), "SELECT at, act, detail FROM steering WHERE run_id = ? ORDER BY id",
                               -1, &st, nullptr),
        "reading the steering log");
  sqlite3_bind_int64(st, 1, run_id);
  std::vector<SteeringAct> out;
  auto text = [&](int col) {
    const unsigned char* t = sqlite3_column_text(st, col);
    return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
  };
  while (sqlite3_step(st) == SQLITE_ROW) out.push_back({text(0), text(1), text(2)});
  sqlite3_finalize(st);
  return out;
}

bool steer_before_attempt(RunControl& control, Workspace& ws, int64_t run_id, const std::string& task,
                          PolicyState& state, std::optional<int64_t>& incumbent_eval, TaskOutcome& outcome) {
  record_steering(ws, run_id, control.take_acts());
  const bool go = control.wait_until_resumed(task);
  record_steering(ws, run_id, control.take_acts());
  if (!go) return false;
  const std::optional<int64_t> fork = control.peek_fork();
  const std::optional<EvaluationRow> row = fork ? ws.evaluation(*fork) : std::nullopt;
  if (fork && !row) throw Error("cannot fork from evaluation " + std::to_string(*fork) + ": it is not in the workspace");
  // A fork applies when the loop reaches the forked version's task.
  if (row && row->task == task) {
    control.take_fork();
    state.incumbent_source = ws.kernel_source(row->kernel_id).value_or("");
    state.incumbent_speedup = row->speedup.value_or(1.0);
    incumbent_eval = row->id;
    outcome.incumbent_name = row->kernel_origin;
    outcome.incumbent_speedup = state.incumbent_speedup;
  }
  state.hints = control.take_hints(task);
  if (control.on_phase) control.on_phase(task, "proposing");
  return true;
}

// ---- signals ----

namespace {

int g_pipe[2] = {-1, -1};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGTSTP, SIGUSR1, SIGCONT, SIGUSR2};
struct sigaction g_old[sizeof kSignals / sizeof kSignals[0]];

extern "C" void on_signal(int sig) {
  const int saved = errno;
  const unsigned char b = static_cast<unsigned char>(sig);
  if (g_pipe[1] >= 0) (void)!write(g_pipe[1], &b, 1);
  errno = saved;
}

}  // namespace

SignalSteering::SignalSteering(RunControl& control) : control_(control) {
  if (pipe2(g_pipe, O_CLOEXEC) != 0) throw Error("cannot create the signal pipe for `kope run`");
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(kSignals[i], &sa, &g_old[i]);
  }
  const int fd = g_pipe[0];
  watcher_ = std::thread([this, fd] {
    unsigned char b = 0;
    while (true) {
      const ssize_t n = read(fd, &b, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || b == 0) return;
      if (b == SIGINT || b == SIGTERM) control_.stop();
      else if (b == SIGTSTP || b == SIGUSR1) control_.pause();
      else if (b == SIGCONT || b == SIGUSR2) control_.resume();
    }
  });
}

SignalSteering::~SignalSteering() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &g_old[i], nullptr);
  const unsigned char zero = 0;
  (void)!write(g_pipe[1], &zero, 1);
  watcher_.join();
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

}  // namespace kope::loop
