// Side work that must not disturb a measurement on the same cores: a compile beside other evaluations' timing,
// the checks of a timed pair while the next pair is timed.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <future>
#include <utility>

namespace kope {

// `f` on a thread of its own at idle priority (SCHED_IDLE, which the threads and processes it starts inherit): it
// runs only on a core nothing else wants, and gives the core back the moment a timed call's thread wakes there.
// A thread of its own, since an unprivileged thread cannot leave SCHED_IDLE again; where the policy is refused,
// normal priority. The future's destructor waits for `f`.
template <class F>
auto at_idle_priority(F f) {
  return std::async(std::launch::async, [f = std::move(f)]() mutable {
    sched_param p{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &p);
    return f();
  });
}

}  // namespace kope
