// A device pool from `--device` (issue 19): several devices of one kind that tasks in flight share.
//   cpu              one timing slot over every core (the default)
//   cpu:0-3,cpu:4-7  two timing slots, each pinned to its cores: two measurements side by side
//   cuda:0,1         two GPUs of this host; ascend:0-7 eight NPUs
//   cuda@hostA,cuda@hostB   one device on each host; each evaluation goes to the least busy host
#pragma once

#include <string>
#include <vector>

#include "kope/base/timing_slots.h"

namespace kope::device {

struct DevicePool {
  std::string device;              // what runs are recorded against: the spec, or the kind for a pool of hosts
  std::vector<std::string> specs;  // the device specs evaluations go to (one unless it is a pool of hosts)
  std::vector<SlotSpec> slots;     // the timing slots of specs.front() (empty: one over the whole device)
  bool is_pool() const { return specs.size() > 1 || slots.size() > 1; }
};

// Throws kope::Error naming the part that is wrong (mixed kinds, a bad index list, a repeated device).
DevicePool parse_device_pool(const std::string& text);

// Configures the timing slots of the pool's devices (kope/base/timing_slots.h) for a run.
void configure_timing_slots(const DevicePool& pool);

}  // namespace kope::device
