// Loads a stored evaluation report (what EvalReport::to_json writes) back into its value type.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kope/model/report.h"

namespace kope {

// The inverse of EvalReport::to_json: to_json(report_from_json(j)) == j for every j it wrote. Keys it does not
// know are ignored, so reports with newer fields still load; a missing key keeps its default. Throws kope::Error
// when `j` is not an object or a known key has the wrong type.
EvalReport report_from_json(const nlohmann::json& j);

// "passed", "wrong", ...; nullopt for a name this build does not know.
std::optional<CaseStatus> case_status_from_name(std::string_view name);

}  // namespace kope
