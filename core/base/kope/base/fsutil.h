// Small file helpers: whole-file reads and crash-safe writes.
#pragma once

#include <filesystem>
#include <string>

namespace kope {

// Throws kope::Error naming the path when it cannot be read.
std::string read_file(const std::filesystem::path& path, const std::string& what = "file");
std::string read_file_or_empty(const std::filesystem::path& path);
// Writes to a temporary beside `path`, flushes, renames over it. Throws kope::EnvError naming the file and
// the OS reason (read-only or full disk, permission denied).
void write_file_atomic(const std::filesystem::path& path, const std::string& data);

}  // namespace kope
