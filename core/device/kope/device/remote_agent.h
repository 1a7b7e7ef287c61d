// The file formats between kope and kope-remote (the agent on a remote host), and the agent's main().
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "kope/device/device.h"

namespace kope::device {

nlohmann::json build_options_json(const BuildOptions& o);
nlohmann::json measure_request_json(const MeasureRequest& q);  // the inputs travel as in<i>.bin beside it
ProfileResult profile_result_from_json(const nlohmann::json& j);

std::string remote_agent_version();
// kope-remote here: $KOPE_REMOTE_AGENT, else beside the running executable, else the build tree's.
std::filesystem::path local_agent();
int remote_agent_main(int argc, char** argv);

}  // namespace kope::device
