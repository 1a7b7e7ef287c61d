// Slurm as the executor beyond one machine: the device spec slurm:KIND builds here with the local KIND device
// and runs each measurement on a cluster node as one batch job (sbatch), followed with scontrol (sacct once the
// controller has forgotten the job) and stopped with scancel. Goldens, checks, memory and records stay here.
// The job's folder lies on a filesystem the nodes share (SlurmOptions::dir); the node runs kope-remote from there.
// Queues, requeues after a node failure and accounting are Slurm's: kope writes none of them.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/device/device.h"

namespace kope::device {

struct SlurmOptions {
  std::string partition;               // -p; empty: the cluster's default partition
  std::string gres;                    // --gres, e.g. gpu:1 or npu:1
  std::string time;                    // --time, e.g. 00:10:00; empty: from the measurement's own time limit
  std::string account;                 // -A
  std::vector<std::string> sbatch_args;  // more sbatch options, one argument each (--qos=high, --constraint=h100)
  std::filesystem::path dir;           // the shared job folder; empty: the work folder's slurm/ (the workspace)
  bool exclusive = true;               // --exclusive: no other job on the node while kernels are timed
  double poll_seconds = 0.5;           // how often a running job's state is asked for
};

// The settings file: $XDG_CONFIG_HOME/kope/slurm.json (else ~/.config/kope/slurm.json), one object with the
// fields partition, gres, time, account, sbatch_args, dir, exclusive. A missing file is no settings.
std::filesystem::path slurm_settings_path();
// The options a settings file gives; a bad file throws kope::Error naming the file and the field.
SlurmOptions load_slurm_settings(const std::filesystem::path& file);
SlurmOptions slurm_options_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json to_json(const SlurmOptions& o);

// The options a slurm:KIND spec made by make_device uses: those set here (the command line's), else the
// settings file's, read at first use.
void set_slurm_options(const SlurmOptions& o);
SlurmOptions slurm_options();

// "slurm:cpu" -> "cpu"; nullopt when the spec is not a Slurm one.
std::optional<std::string> slurm_kind(const std::string& spec);

std::unique_ptr<Device> make_slurm_device(const std::string& kind, const SlurmOptions& options,
                                          const DeviceConfig& config);

// How a job ended, as Slurm says it (JobState, Reason and ExitCode of scontrol or sacct).
struct SlurmJobEnd {
  std::string state;   // COMPLETED, FAILED, CANCELLED, NODE_FAIL, PREEMPTED, TIMEOUT, BOOT_FAIL, OUT_OF_MEMORY, DEADLINE
  std::string reason;  // NodeDown, None, ...
  int exit_code = 0;   // the batch script's exit status
  int signal = 0;
  // COMPLETED, or FAILED by the agent's own exit status: the agent ran and its files say the rest. Every other
  // state is the cluster's doing (cancelled, preempted, a lost node, its own time limit): not the kernel's.
  bool agent_finished() const { return state == "COMPLETED" || state == "FAILED"; }
};
// Parses `scontrol show job -o` output (key=value words); nullopt when it names no JobState.
std::optional<SlurmJobEnd> parse_scontrol_job(const std::string& text);
// Whether a JobState is final (the job has left the queue and holds no node).
bool slurm_state_final(const std::string& state);

}  // namespace kope::device
