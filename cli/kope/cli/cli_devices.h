// `kope devices [--json] [--device SPEC]`: every registered device, present or not, and why not.
#pragma once

#include <ostream>
#include <string>

namespace kope {

// `spec` empty: every local kind; else one device (KIND or KIND@HOST). Returns a CliExit code.
int cli_devices(const std::string& spec, bool json, std::ostream& out, std::ostream& err);

}  // namespace kope
