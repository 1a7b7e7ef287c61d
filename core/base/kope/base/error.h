// The exceptions kope throws on purpose: each says what failed, where, and what to do.
#pragma once

#include <stdexcept>
#include <string>

namespace kope {

// Bad input or a bad task: `kope` exits 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The environment failed, not the input: a read-only or full disk, a permission denied, a locked or damaged
// database, a folder that cannot be made, a missing compiler or tool. The message names the file and the OS's
// reason. `kope` exits 4.
class EnvError : public Error {
 public:
  using Error::Error;
};

// The infrastructure lost one measurement (a Slurm job preempted, killed, or on a node that went down): neither
// the kernel's fault nor a reason to stop the run. The loop records the attempt as an infrastructure failure and
// goes on; `kope eval` exits 4 as for any EnvError.
class InfraError : public EnvError {
 public:
  using EnvError::EnvError;
};

}  // namespace kope
