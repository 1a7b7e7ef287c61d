// Sharing memory: JSON Lines export and import as foreign memory, and the graph as GraphML or DOT.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace kope::memory {

class MemoryStore;

inline constexpr int kExportSchema = 1;

struct ExportStats {
  int64_t cases = 0, journal = 0;
};
// Line 1 a header {"kind":"kope-memory","schema":1,"workspace_id",...}; then "hardware", "case" lines (parents
// before children, each with its source and Journal entries).
ExportStats export_jsonl(const MemoryStore& store, std::ostream& out);

// What an import accepts: lines of at most kImportMaxLine bytes, nested at most kImportMaxDepth deep, sources of
// at most kImportMaxSource bytes, thoughts, feedback and Journal entries of at most kImportMaxText.
inline constexpr std::size_t kImportMaxLine = std::size_t{32} << 20;
inline constexpr int kImportMaxDepth = 16;
inline constexpr std::size_t kImportMaxSource = std::size_t{4} << 20;
inline constexpr std::size_t kImportMaxText = std::size_t{1} << 20;

// False when the brackets of `text` (JSON or not; strings skipped) nest deeper than max_depth: checked before
// nlohmann builds a value, whose copies and dumps recurse once per level (100000 levels overflow the stack).
bool json_nesting_within(std::string_view text, int max_depth);

struct ImportStats {
  int64_t added = 0, skipped = 0;  // skipped: already present (same uid), so a re-import adds nothing
  std::string origin;              // the exporting workspace's uuid
};
// Every line is checked field by field before it is written: kinds and fields known, names as names (a task as a
// task name, never a path), uids of the workspace they name, sha256 as hex and a source hashing to its
// kernel_sha256, numbers finite and in range, sizes and nesting bounded, UTF-8 valid. Only foreign rows are added:
// a Case already here (same uid) is skipped, never changed; a Case starts only from a Case of its own origin; an
// imported source is stored apart from local kernels. One transaction: a bad line throws kope::Error naming the
// file, the line and the field, and nothing is imported.
ImportStats import_jsonl(MemoryStore& store, const std::filesystem::path& file);

struct GraphExportOptions {
  std::optional<std::string> task;
  bool include_excluded = true;
};
void export_graphml(const MemoryStore& store, std::ostream& out, const GraphExportOptions& o = {});
void export_dot(const MemoryStore& store, std::ostream& out, const GraphExportOptions& o = {});

}  // namespace kope::memory
