// Sharing memory: JSON Lines export and import as foreign memory, and the graph as GraphML or DOT.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace kope::memory {

class MemoryStore;

inline constexpr int kExportSchema = 1;

struct ExportStats {
  int64_t cases = 0, journal = 0;
};
// Line 1 a header {"kind":"kope-memory","schema":1,"workspace_id",...}; then "hardware", "case" lines (parents
// before children, each with its source and Journal entries).
ExportStats export_jsonl(const MemoryStore& store, std::ostream& out);

struct ImportStats {
  int64_t added = 0, skipped = 0;  // skipped: already present (same uid), so a re-import adds nothing
  std::string origin;              // the exporting workspace's uuid
};
// One transaction: a bad line throws kope::Error naming the file and the line, and nothing is imported.
ImportStats import_jsonl(MemoryStore& store, const std::filesystem::path& file);

struct GraphExportOptions {
  std::optional<std::string> task;
  bool include_excluded = true;
};
void export_graphml(const MemoryStore& store, std::ostream& out, const GraphExportOptions& o = {});
void export_dot(const MemoryStore& store, std::ostream& out, const GraphExportOptions& o = {});

}  // namespace kope::memory
