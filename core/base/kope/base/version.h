// kope's version, as every front end prints it.
#pragma once

#include <string>

namespace kope {

std::string version_string();  // "kope 0.1.0"

}  // namespace kope
