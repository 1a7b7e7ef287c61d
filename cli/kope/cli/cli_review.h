// `kope review`: a person decides on kernels the loop would not promote on its own.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kope {

// positional: {"review", "list" | "approve" ID | "reject" ID}. Throws kope::Error for bad usage or an
// evaluation that is not awaiting review; returns an exit code.
int run_review_cli(const std::vector<std::string>& positional, const std::optional<std::string>& note, bool all,
                   bool json, const std::filesystem::path& workspace, std::ostream& out);

}  // namespace kope
