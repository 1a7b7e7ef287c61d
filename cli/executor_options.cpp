// --executor slurm: where the measurement runs beyond this machine (kope/device/slurm.h), from the flags over
// the settings file.
#include <filesystem>

#include "kope/cli/options.h"
#include "kope/device/slurm.h"

namespace kope::cli {

namespace fs = std::filesystem;

void add_executor_options(CLI::App& app, ExecutorChoice& e) {
  const std::string group = "Slurm (--executor slurm)";
  add_value(app, "--executor", [&e](const std::string& v) {
    if (v != "local" && v != "slurm") throw UsageError("--executor expects local or slurm, got \"" + v + "\"");
    e.executor = v;
  }, "NAME", "local (default: the device on this machine or over SSH) or slurm (each measurement a Slurm job on a "
             "node; builds, goldens, checks and records stay here)")->group(group);
  add_text(app, "--slurm-partition", e.partition, "NAME", "sbatch --partition (default: the settings file's, else the "
                                                          "cluster's default)")->group(group);
  add_text(app, "--slurm-gres", e.gres, "GRES", "sbatch --gres, e.g. gpu:1 or npu:1")->group(group);
  add_text(app, "--slurm-time", e.time, "TIME", "sbatch --time per job (default: from the case time limit)")->group(group);
  add_text(app, "--slurm-account", e.account, "NAME", "sbatch --account")->group(group);
  add_text(app, "--slurm-dir", e.dir, "DIR", "the job folder, on a filesystem the nodes share (default: the "
                                             "workspace's slurm/)")->group(group);
  add_text(app, "--slurm-settings", e.settings, "FILE", "another settings file than kope/slurm.json")->group(group);
  add_value(app, "--slurm-shared-node", [&e](const std::string&) { e.exclusive = false; }, "",
            "let other jobs share the node while kernels are timed (default: sbatch --exclusive)")
      ->expected(0)->group(group);
  app.add_option("--slurm-arg", e.sbatch_args, "one more sbatch argument, repeatable: --slurm-arg=--qos=high")
      ->type_name("ARG")->allow_extra_args(false)->group(group);
}

std::string ExecutorChoice::device_spec(const std::string& device) const {
  const bool slurm = executor.value_or("local") == "slurm";
  if (!slurm) {
    const std::pair<const char*, bool> given[] = {
        {"--slurm-partition", partition.has_value()}, {"--slurm-gres", gres.has_value()}, {"--slurm-time", time.has_value()},
        {"--slurm-account", account.has_value()}, {"--slurm-dir", dir.has_value()},
        {"--slurm-settings", settings.has_value()}, {"--slurm-shared-node", exclusive.has_value()},
        {"--slurm-arg", !sbatch_args.empty()}};
    for (const auto& [name, present] : given)
      if (present) throw UsageError(std::string(name) + " applies to --executor slurm only");
    return device;
  }
  const std::string kind = device::slurm_kind(device).value_or(device);
  if (kind.find('@') != std::string::npos)
    throw UsageError("--executor slurm runs a local device kind on the cluster's nodes, not " + device +
                     " (write --device cpu, cuda or ascend)");
  std::error_code ec;
  if (settings && !fs::is_regular_file(*settings, ec))
    throw UsageError("--slurm-settings " + *settings + ": no such file");
  device::SlurmOptions o = device::load_slurm_settings(settings ? fs::path(*settings) : device::slurm_settings_path());
  if (partition) o.partition = *partition;
  if (gres) o.gres = *gres;
  if (time) o.time = *time;
  if (account) o.account = *account;
  if (dir) o.dir = fs::absolute(*dir);
  if (exclusive) o.exclusive = *exclusive;
  o.sbatch_args.insert(o.sbatch_args.end(), sbatch_args.begin(), sbatch_args.end());
  device::set_slurm_options(o);
  return "slurm:" + kind;
}

}  // namespace kope::cli
