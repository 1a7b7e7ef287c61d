// A cancel token shared by whoever may stop a piece of work and the work itself: an atomic flag that work
// polls, and callbacks run once when it is cancelled (to kill a process group, say).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>

namespace kope {

class CancelToken {
 public:
  bool cancelled() const { return flag_.load(std::memory_order_acquire); }

  // Sets the flag and runs every registered callback once, on the calling thread. Later calls do nothing.
  void cancel() {
    std::map<int, std::function<void()>> run;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (flag_.exchange(true, std::memory_order_acq_rel)) return;
      run.swap(callbacks_);
    }
    for (auto& [id, f] : run)
      if (f) f();
  }

  // Runs `f` at cancel(), or at once when already cancelled. Returns an id for remove().
  int on_cancel(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!flag_.load(std::memory_order_acquire)) {
        callbacks_[next_] = std::move(f);
        return next_++;
      }
    }
    if (f) f();
    return -1;
  }

  void remove(int id) {
    std::lock_guard<std::mutex> lock(mu_);
    callbacks_.erase(id);
  }

 private:
  std::atomic<bool> flag_{false};
  std::mutex mu_;
  std::map<int, std::function<void()>> callbacks_;
  int next_ = 0;
};

}  // namespace kope
