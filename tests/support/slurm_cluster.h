// A real one-node Slurm for the tests: munged, slurmctld and slurmd (Debian's packages, from
// scripts/install-deps.sh) started in a temporary folder with a throwaway munge key and a generated slurm.conf
// (this host as the one node, its cores, free ports on 127.0.0.1), stopped with every job when it goes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kope/base/process.h"
#include "test_support.h"

namespace kope::test {

class OneNodeSlurm {
 public:
  OneNodeSlurm();  // starts the daemons and waits until the node is idle; sets SLURM_CONF for this process
  ~OneNodeSlurm();
  OneNodeSlurm(const OneNodeSlurm&) = delete;
  OneNodeSlurm& operator=(const OneNodeSlurm&) = delete;

  // Why the cluster cannot start here at all (not root: slurmd must be); "" otherwise. A test skips on it.
  const std::string& cannot_start() const { return cannot_start_; }
  // Why it did not start although it could (a missing package, a daemon that died): a test fails on it.
  const std::string& failure() const { return failure_; }

  const std::string& node() const { return node_; }
  std::string partition() const { return "debug"; }
  std::filesystem::path conf() const { return tmp_ / "slurm.conf"; }
  const std::filesystem::path& dir() const { return tmp_.path(); }

  // A Slurm command against this cluster (scontrol, squeue, sinfo, scancel).
  ProcessResult command(const std::vector<std::string>& argv, double timeout = 30) const;
  // Waits until sinfo says the node is in `state` (idle, down, ...); false after `seconds`.
  bool wait_node(const std::string& state, double seconds) const;
  // This cluster's jobs in the queue: id, state and name ("12 RUNNING kope-measure").
  std::vector<std::string> queue() const;
  // The daemons' logs, for a failing test's message.
  std::string logs() const;

  // The cluster of this test program, started at first use.
  static OneNodeSlurm& shared();

 private:
  bool start(const std::string& name, const std::vector<std::string>& argv, int& pid);
  void write_conf(int ctld_port, int d_port);

  TempDir tmp_;
  std::string node_, cannot_start_, failure_;
  int munged_ = -1, slurmctld_ = -1, slurmd_ = -1;
};

}  // namespace kope::test

// The test stops here: skipped where a one-node Slurm cannot run at all, failed where it should have started.
#define KOPE_REQUIRE_SLURM(cluster)                                                 \
  do {                                                                              \
    if (!(cluster).cannot_start().empty()) KOPE_SKIP_CANNOT_START((cluster).cannot_start()); \
    ASSERT_TRUE((cluster).failure().empty()) << (cluster).failure();                \
  } while (0)
