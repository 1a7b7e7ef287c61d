#include "kope/base/version.h"

namespace kope {

std::string version_string() { return "kope " KOPE_VERSION; }

}  // namespace kope
