// Files built into the binary: the kernel header, the default task suite and the offline policy's kernels.
#pragma once

#include <string_view>
#include <vector>

namespace kope {

struct EmbeddedFile {
  std::string_view path;  // relative to resources/, e.g. "tasks/L1/gelu.json"
  std::string_view text;
};

std::string_view embedded_kernel_header();
const std::vector<EmbeddedFile>& embedded_files();

}  // namespace kope
