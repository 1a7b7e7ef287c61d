#include "kope/device/pool.h"

#include <set>

#include "kope/base/error.h"
#include "kope/device/device.h"

namespace kope::device {

namespace {

// "0-3" and "12" are index lists that belong to the entry before them ("cuda:0,1").
bool is_index_item(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789-") == std::string::npos;
}

struct Entry {
  std::string kind, host, indexes;  // indexes: "0-3,5" as written
};

std::vector<Entry> split_entries(const std::string& text) {
  std::vector<Entry> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    pos = comma + 1;
    if (is_index_item(item) && !out.empty() && !out.back().indexes.empty()) {
      out.back().indexes += "," + item;
      continue;
    }
    if (item.empty()) throw Error("--device \"" + text + "\": an empty entry");
    Entry e;
    std::string spec = item;
    if (const auto at = spec.find('@'); at != std::string::npos) {
      e.host = spec.substr(at + 1);
      spec = spec.substr(0, at);
    }
    const bool on_slurm = spec.rfind("slurm:", 0) == 0;  // slurm:KIND names a kind, not an index
    if (const auto colon = spec.find(':', on_slurm ? 6 : 0); colon != std::string::npos) {
      e.indexes = spec.substr(colon + 1);
      spec = spec.substr(0, colon);
      if (e.indexes.empty()) throw Error("--device \"" + text + "\": \"" + item + "\" has ':' and no index after it");
    }
    e.kind = spec;
    out.push_back(e);
  }
  return out;
}

std::string slot_name(const Entry& e, const std::string& indexes) { return e.kind + ":" + indexes; }

}  // namespace

DevicePool parse_device_pool(const std::string& text) {
  const std::vector<Entry> entries = split_entries(text);
  DevicePool pool;
  std::set<std::string> seen;
  for (const Entry& e : entries) {
    if (e.kind != entries.front().kind)
      throw Error("--device \"" + text + "\": a pool holds one kind of device (" + entries.front().kind + " and " +
                  e.kind + ")");
    const std::string spec = e.kind + (e.host.empty() ? "" : "@" + e.host);
    parse_device_spec(spec);  // a malformed host or kind, named
    if (!e.host.empty() && !e.indexes.empty())
      throw Error("--device \"" + text + "\": a remote device takes no index (" + spec + ":" + e.indexes + ")");
    if (std::find(pool.specs.begin(), pool.specs.end(), spec) == pool.specs.end()) pool.specs.push_back(spec);
    if (e.indexes.empty()) continue;
    const std::vector<int> idx = parse_index_list(e.indexes, "--device " + e.kind);
    if (e.kind == "cpu") {  // a core set per timing slot
      for (int c : idx)
        if (!seen.insert("core " + std::to_string(c)).second)
          throw Error("--device \"" + text + "\": core " + std::to_string(c) + " is in two timing slots");
      pool.slots.push_back({slot_name(e, e.indexes), idx, -1});
    } else {  // one slot per device index
      for (int i : idx) {
        if (!seen.insert(std::to_string(i)).second)
          throw Error("--device \"" + text + "\": " + e.kind + ":" + std::to_string(i) + " is named twice");
        pool.slots.push_back({slot_name(e, std::to_string(i)), {}, i});
      }
    }
  }
  if (pool.specs.size() > 1 && !pool.slots.empty())
    throw Error("--device \"" + text + "\": a pool of hosts takes no indexes");
  pool.device = pool.specs.size() > 1 ? entries.front().kind : pool.specs.front();
  return pool;
}

void configure_timing_slots(const DevicePool& pool) {
  for (const std::string& spec : pool.specs) TimingSlots::of(spec).configure(pool.specs.size() > 1 ? std::vector<SlotSpec>{} : pool.slots);
}

}  // namespace kope::device
