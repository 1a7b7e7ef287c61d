#include "kope/base/timing_slots.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "kope/base/error.h"

namespace kope {

TimingSlots& TimingSlots::of(const std::string& device) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<TimingSlots>> pools;  // never freed: held slots may outlive main
  std::lock_guard<std::mutex> lock(mu);
  auto& p = pools[device];
  if (!p) p.reset(new TimingSlots());
  return *p;
}

namespace {

// The calling thread's Sides, per pool: nested ones count once, and its own never make its timing wait.
thread_local std::map<const TimingSlots*, int> t_sides;
// The calling thread's Turns, per pool: nested ones count once.
thread_local std::map<const TimingSlots*, int> t_turns;

// The cores this process may run on.
std::set<int> allowed_cpus() {
  std::set<int> out;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.insert(c);
  return out;
}

}  // namespace

void TimingSlots::configure(std::vector<SlotSpec> slots) {
  std::lock_guard<std::mutex> lock(mu_);
  if (held_now_ > 0) throw Error("the timing slots cannot change while a measurement holds one");
  if (slots.empty()) slots.push_back({"all cores", {}, -1});
  slots_.clear();
  // Side work gets the cores no slot times on, where every slot names its own; an unpinned slot may run anywhere.
  std::set<int> spare = allowed_cpus();
  for (const SlotSpec& s : slots) {
    if (s.cpus.empty()) spare.clear();
    for (int c : s.cpus) spare.erase(c);
  }
  side_cpus_.assign(spare.begin(), spare.end());
  for (auto& s : slots) {
    SlotState st;
    st.spec = std::move(s);
    slots_.push_back(std::move(st));
  }
}

int TimingSlots::own_sides() const {
  const auto it = t_sides.find(this);
  return it == t_sides.end() ? 0 : it->second;
}

TimingSlots::Held TimingSlots::acquire(const std::string& doing, const CancelToken* cancel) {
  std::unique_lock<std::mutex> lock(mu_);
  bool waited = false, waited_for_side = false;
  ++timers_waiting_;
  struct Leave {  // however this returns
    int& n;
    ~Leave() { --n; }
  } leave{timers_waiting_};
  // Side work, where it shares the cores with every slot; a thread that holds a Side itself does not wait for
  // any (two such threads would wait for each other).
  const bool mine = own_sides() > 0;
  auto side_in_the_way = [&] { return side_cpus_.empty() && !mine && sides_now_ > 0; };
  while (true) {
    std::string retired;
    const bool blocked = side_in_the_way();
    waited_for_side |= blocked;
    for (std::size_t i = 0; i < slots_.size() && !blocked; ++i) {
      SlotState& s = slots_[i];
      if (s.retired) {
        retired += (retired.empty() ? "" : "; ") + s.spec.name + ": " + s.why;
        continue;
      }
      if (s.busy) continue;
      s.busy = true;
      s.doing = doing;
      ++s.measurements;
      max_held_ = std::max(max_held_, ++held_now_);
      if (waited) ++waits_;
      if (waited_for_side) ++timing_waits_for_side_;
      return Held(this, static_cast<int>(i));
    }
    if (!blocked && retired.size() && held_now_ == 0)
      throw Error("no device left in the pool: every one failed its health check (" + retired + ")");
    if (cancel && cancel->cancelled()) return {};
    waited = true;
    cv_.wait_for(lock, std::chrono::milliseconds(50));  // a cancel is seen within 50 ms
  }
}

void TimingSlots::put_back(int index) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    SlotState& s = slots_.at(static_cast<std::size_t>(index));
    s.busy = false;
    s.doing.clear();
    --held_now_;
  }
  cv_.notify_all();
}

TimingSlots::Side TimingSlots::side(const CancelToken* cancel) {
  Side s;
  int& mine = t_sides[this];
  if (mine > 0) {  // nested: the outer one is counted (and pinned) already
    ++mine;
    s.pool_ = this;
    return s;
  }
  std::unique_lock<std::mutex> lock(mu_);
  if (side_cpus_.empty()) {
    bool waited = false;
    while (held_now_ > 0 || timers_waiting_ > 0) {
      if (cancel && cancel->cancelled()) {
        t_sides.erase(this);
        return s;
      }
      waited = true;
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
    if (waited) ++side_waits_;
  } else {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : side_cpus_) CPU_SET(c, &set);
    s.pinned_ = pthread_getaffinity_np(pthread_self(), sizeof s.saved_, &s.saved_) == 0 &&
                pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
  }
  ++sides_now_;
  ++mine;
  s.pool_ = this;
  return s;
}

TimingSlots::Side::Side(Side&& o) noexcept : pool_(o.pool_), pinned_(o.pinned_), saved_(o.saved_) {
  o.pool_ = nullptr;
}

void TimingSlots::Side::release() {
  if (!pool_) return;
  TimingSlots* p = pool_;
  pool_ = nullptr;
  int& mine = t_sides[p];
  if (--mine > 0) return;
  t_sides.erase(p);
  if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  {
    std::lock_guard<std::mutex> lock(p->mu_);
    --p->sides_now_;
  }
  p->cv_.notify_all();
}

TimingSlots::Turn TimingSlots::turn(const CancelToken* cancel) {
  Turn t;
  int& mine = t_turns[this];
  if (mine > 0) {  // nested: the outer one is counted
    ++mine;
    t.pool_ = this;
    return t;
  }
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t ticket = next_ticket_++;
  turn_queue_.push_back(ticket);
  auto in_service = [&] {
    int n = 0;
    for (const SlotState& s : slots_) n += !s.retired;
    return std::max(1, n);
  };
  bool waited = false;
  while (turn_queue_.front() != ticket || turns_now_ >= in_service()) {
    if (cancel && cancel->cancelled()) {
      turn_queue_.erase(std::find(turn_queue_.begin(), turn_queue_.end(), ticket));
      t_turns.erase(this);
      lock.unlock();
      cv_.notify_all();  // the next in line may be free to go now
      return t;
    }
    waited = true;
    cv_.wait_for(lock, std::chrono::milliseconds(50));  // a cancel is seen within 50 ms
  }
  turn_queue_.erase(turn_queue_.begin());
  ++turns_now_;
  if (waited) ++turn_waits_;
  ++mine;
  t.pool_ = this;
  lock.unlock();
  cv_.notify_all();  // with several slots, the next in line may go too
  return t;
}

void TimingSlots::Turn::release() {
  if (!pool_) return;
  TimingSlots* p = pool_;
  pool_ = nullptr;
  int& mine = t_turns[p];
  if (--mine > 0) return;
  t_turns.erase(p);
  {
    std::lock_guard<std::mutex> lock(p->mu_);
    --p->turns_now_;
  }
  p->cv_.notify_all();
}

int64_t TimingSlots::turn_waits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return turn_waits_;
}

int TimingSlots::turns_waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(turn_queue_.size());
}

std::vector<int> TimingSlots::side_cpus() const {
  std::lock_guard<std::mutex> lock(mu_);
  return side_cpus_;
}

int64_t TimingSlots::side_waits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return side_waits_;
}

int64_t TimingSlots::timing_waits_for_side() const {
  std::lock_guard<std::mutex> lock(mu_);
  return timing_waits_for_side_;
}

const SlotSpec& TimingSlots::Held::spec() const {
  std::lock_guard<std::mutex> lock(pool_->mu_);
  return pool_->slots_.at(static_cast<std::size_t>(index_)).spec;
}

void TimingSlots::Held::retire(const std::string& why) {
  if (!pool_) return;
  {
    std::lock_guard<std::mutex> lock(pool_->mu_);
    SlotState& s = pool_->slots_.at(static_cast<std::size_t>(index_));
    s.retired = true;
    s.why = why;
  }
  release();
}

void TimingSlots::Held::release() {
  if (!pool_) return;
  pool_->put_back(index_);
  pool_ = nullptr;
}

std::vector<SlotState> TimingSlots::states() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slots_;
}

int TimingSlots::max_held_at_once() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_held_;
}

int64_t TimingSlots::waits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return waits_;
}

std::vector<int> parse_index_list(const std::string& text, const std::string& what) {
  std::vector<int> out;
  std::size_t pos = 0;
  auto bad = [&](const std::string& why) {
    return Error(what + ": \"" + text + "\" " + why + " (expected numbers and ranges such as 0-3,8)");
  };
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dash = item.find('-');
    auto number = [&](const std::string& s) {
      if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
        throw bad("has \"" + item + "\"");
      return std::stoi(s);
    };
    const int lo = number(item.substr(0, dash));
    const int hi = dash == std::string::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) throw bad("has a range that runs backwards");
    if (hi - lo > 4096) throw bad("has a range too long");
    for (int i = lo; i <= hi; ++i) out.push_back(i);
    pos = comma + 1;
  }
  return out;
}

}  // namespace kope
