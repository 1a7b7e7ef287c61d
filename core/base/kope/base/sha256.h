// SHA-256 of bytes, as lowercase hex: content addresses for kernels, builds and golden outputs.
#pragma once

#include <string>
#include <string_view>

namespace kope {

std::string sha256_hex(std::string_view data);

}  // namespace kope
