#include "kope/base/timing_slots.h"

#include <chrono>
#include <map>
#include <memory>

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

void TimingSlots::configure(std::vector<SlotSpec> slots) {
  std::lock_guard<std::mutex> lock(mu_);
  if (held_now_ > 0) throw Error("the timing slots cannot change while a measurement holds one");
  if (slots.empty()) slots.push_back({"all cores", {}, -1});
  slots_.clear();
  for (auto& s : slots) {
    SlotState st;
    st.spec = std::move(s);
    slots_.push_back(std::move(st));
  }
}

TimingSlots::Held TimingSlots::acquire(const std::string& doing, const CancelToken* cancel) {
  std::unique_lock<std::mutex> lock(mu_);
  bool waited = false;
  while (true) {
    std::string retired;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
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
      return Held(this, static_cast<int>(i));
    }
    if (retired.size() && held_now_ == 0)
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
