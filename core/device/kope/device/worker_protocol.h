// The worker-side contract shared by device workers (kope-cuda-worker, the Ascend host program) and remote
// runs: a job folder in, a result folder out, an exit code that names the outcome. Files, so that it crosses an
// SSH connection as well as a local fork; the judge only ever sees a MeasureResult.
//
//   DIR/job.json     tensors (name, dtype code, shape, numel), attrs, artifact paths, warmup, reps, interleave,
//                    flush_bytes
//   DIR/job.txt      the same, line by line, for workers without a JSON parser
//   DIR/in<i>.bin    raw bytes of input i (the judge's), in the task's dtype
//   DIR/first<k>.bin output k of the correctness call, copied back to the host
//   DIR/last<k>.bin  output k of the last timed candidate call
//   DIR/lib<k>.bin   output k of the library's correctness call (when the job names a library)
//   DIR/result.json  {"cand_ns":[...], "base_ns":[...], "lib_ns":[...], "order":"bcl...", "timer":"cudaEvent",
//                     "library_error":"why the library's calls stopped",
//                     "error":{"call":"...", "code":N, "name":"cudaErrorIllegalAddress", "message":"..."}}
//   DIR/phase        the phase the worker is in (read when it dies)
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "kope/device/device.h"
#include "kope/base/process.h"

namespace kope::device {

enum WorkerExit : int {
  kWorkerOk = 0,
  kWorkerKernelError = 3,      // the entry point returned non-zero
  kWorkerLoadError = 4,        // dlopen/dlsym failed
  kWorkerJobError = 5,         // the job folder was unreadable
  kWorkerInputsModified = 6,   // an input changed on the device
  kWorkerIllegalAddress = 7,   // cudaErrorIllegalAddress and other sticky memory faults; the context is gone
  kWorkerLaunchError = 8,      // a launch or runtime error that is not a memory fault
  kWorkerOutOfMemory = 9,      // device allocation failed (cudaErrorMemoryAllocation, ACL 207001)
  kWorkerDeviceException = 10, // the device raised an exception (ACL 507015 AICORE_EXCEPTION, CUDA traps)
  kWorkerDeviceTimeout = 11,   // the device's watchdog (ACL 507014, 507046; cudaErrorLaunchTimeout)
  kWorkerNoDevice = 12,        // no device, or the runtime could not start
};

Outcome outcome_for_worker_exit(int code);

std::filesystem::path worker_input_path(const std::filesystem::path& dir, std::size_t i);
std::filesystem::path worker_first_path(const std::filesystem::path& dir, std::size_t k);
std::filesystem::path worker_last_path(const std::filesystem::path& dir, std::size_t k);
std::filesystem::path worker_library_path(const std::filesystem::path& dir, std::size_t k);

// Writes job.json and in<i>.bin. `candidate`/`baseline` are written as given (remote runs rewrite them); the
// library is q.library, or `library` when given.
void write_worker_job(const std::filesystem::path& dir, const MeasureRequest& q,
                      const std::string& candidate, const std::string& baseline,
                      const std::optional<std::string>& library = std::nullopt);
// job.txt: the same job line by line ("candidate PATH", "library PATH", "input NAME DTYPE NUMEL NDIM D0 D1...", "attr NAME V"),
// for workers built without a JSON library (the CUDA and Ascend workers).
std::string worker_job_text(const MeasureRequest& q, const std::string& candidate, const std::string& baseline,
                            const std::string& library = "");
nlohmann::json worker_job_json(const MeasureRequest& q, const std::string& candidate, const std::string& baseline,
                               const std::string& library = "");

// Turns what a worker left (its process result, result.json, output files) into a MeasureResult.
MeasureResult read_worker_result(const std::filesystem::path& dir, const ProcessResult& pr, const MeasureRequest& q);

// A MeasureResult as files (remote hosts send it back this way): result.json carries the outcome by name.
void write_measure_result(const std::filesystem::path& dir, const MeasureResult& m);
MeasureResult read_measure_result(const std::filesystem::path& dir, const MeasureRequest& q);

}  // namespace kope::device
