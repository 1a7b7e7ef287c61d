#include "kope/llm/settings_file.h"

#include <algorithm>
#include <cctype>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"

namespace kope::llm {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

bool is_variable_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

[[noreturn]] void bad_file(const fs::path& file, const std::string& what) {
  throw Error("LLM settings '" + file.string() + "': " + what);
}

}  // namespace

std::vector<FieldProblem> check_profile(const Profile& p) {
  std::vector<FieldProblem> out;
  auto bad = [&](const char* field, const std::string& what) { out.push_back({p.name, field, what}); };
  if (p.name.empty()) bad("name", "a profile needs a name");
  // The run controller's policy field takes "offline" or a profile's name: a profile cannot take that one.
  if (p.name == "offline") bad("name", "\"offline\" names the offline policy; choose another name");
  if (p.model.empty()) bad("model", "missing");
  if (p.base_url.rfind("http://", 0) != 0 && p.base_url.rfind("https://", 0) != 0)
    bad("base_url", "must start with http:// or https://, got \"" + p.base_url + "\"");
  if (p.max_output_tokens >= p.context_window)
    bad("max_output_tokens", "must be below context_window (" + std::to_string(p.context_window) + ")");
  if (!is_variable_name(p.api_key_env))
    bad("api_key_env", "\"" + p.api_key_env + "\" is not an environment variable's name (letters, digits, _)");
  return out;
}

SettingsFile SettingsFile::load(const fs::path& file) {
  SettingsFile f;
  f.file_ = file;
  std::error_code ec;
  f.existed_ = fs::exists(file, ec);
  f.doc_ = ordered_json::object();
  if (f.existed_) {
    f.on_disk_ = read_file(file, "LLM settings file");
    try {
      f.doc_ = ordered_json::parse(f.on_disk_);
    } catch (const ordered_json::parse_error& e) {
      bad_file(file, "not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    }
    if (!f.doc_.is_object()) bad_file(file, "(root): expected an object with \"profiles\"");
  }
  if (!f.doc_.contains("profiles")) f.doc_["profiles"] = ordered_json::object();
  if (!f.doc_["profiles"].is_object()) bad_file(file, "/profiles: expected an object of named profiles");
  return f;
}

std::vector<std::string> SettingsFile::names() const {
  std::vector<std::string> out;
  for (auto it = doc_["profiles"].begin(); it != doc_["profiles"].end(); ++it) out.push_back(it.key());
  return out;
}

bool SettingsFile::has(const std::string& name) const { return doc_["profiles"].contains(name); }

std::optional<std::string> SettingsFile::default_profile() const {
  if (doc_.contains("default") && doc_["default"].is_string()) return doc_["default"].get<std::string>();
  return std::nullopt;
}

void SettingsFile::set_default(const std::optional<std::string>& name) {
  if (name) doc_["default"] = *name;
  else doc_.erase("default");
}

const ordered_json& SettingsFile::object(const std::string& name) const {
  if (!has(name)) throw Error("LLM settings '" + file_.string() + "': no profile \"" + name + "\"");
  return doc_["profiles"][name];
}

Profile SettingsFile::profile(const std::string& name) const {
  std::vector<FieldProblem> ignored;  // problems() names them
  return read_profile(name, json::parse(object(name).dump()), ignored);
}

void SettingsFile::put(const Profile& p, const std::optional<std::string>& old_name) {
  ordered_json& profiles = doc_["profiles"];
  const std::string from = old_name.value_or(p.name);
  const bool renamed = from != p.name;
  if (renamed && profiles.contains(p.name))
    throw Error("LLM settings: a profile named \"" + p.name + "\" exists already");
  ordered_json obj = profiles.contains(from) && profiles[from].is_object() ? profiles[from] : ordered_json::object();
  // A value equal to what the command line assumes is written only where the file already said it.
  auto set = [&](const char* k, const ordered_json& v, bool is_default) {
    if (!is_default || obj.contains(k)) obj[k] = v;
  };
  auto optional = [&](const char* k, const std::optional<double>& v) {
    if (v) obj[k] = *v;
    else obj.erase(k);
  };
  const Profile d;
  obj["provider"] = std::string(provider_name(p.provider));
  set("base_url", p.base_url, p.base_url == default_base_url(p.provider));
  obj["model"] = p.model;
  set("context_window", p.context_window, p.context_window == d.context_window);
  set("max_output_tokens", p.max_output_tokens, p.max_output_tokens == d.max_output_tokens);
  set("temperature", p.temperature, p.temperature == d.temperature);
  optional("price_in_per_mtok", p.price_in_per_mtok);
  optional("price_out_per_mtok", p.price_out_per_mtok);
  set("api_key_env", p.api_key_env, p.api_key_env == default_key_env(p.provider));
  set("connect_timeout_s", p.connect_timeout_s, p.connect_timeout_s == d.connect_timeout_s);
  set("low_speed_time_s", p.low_speed_time_s, p.low_speed_time_s == d.low_speed_time_s);
  set("max_retries", p.max_retries, p.max_retries == d.max_retries);
  set("max_in_flight", p.max_in_flight, p.max_in_flight == d.max_in_flight);
  if (!renamed) {
    profiles[p.name] = std::move(obj);
    return;
  }
  // Renamed in its place: the profiles in the same order, the default following the name.
  ordered_json out = ordered_json::object();
  for (auto it = profiles.begin(); it != profiles.end(); ++it) {
    if (it.key() == from) out[p.name] = obj;
    else out[it.key()] = it.value();
  }
  if (!profiles.contains(from)) out[p.name] = obj;
  profiles = std::move(out);
  if (default_profile() == from) doc_["default"] = p.name;
}

void SettingsFile::remove(const std::string& name) {
  doc_["profiles"].erase(name);
  if (default_profile() == name) doc_.erase("default");
}

std::optional<std::string> SettingsFile::stored_key(const std::string& name) const {
  const ordered_json& o = object(name);
  if (o.is_object() && o.contains("api_key") && o["api_key"].is_string()) return o["api_key"].get<std::string>();
  return std::nullopt;
}

void SettingsFile::remove_stored_key(const std::string& name) {
  if (has(name) && doc_["profiles"][name].is_object()) doc_["profiles"][name].erase("api_key");
}

std::vector<std::string> SettingsFile::unknown_fields(const std::string& name) const {
  std::vector<FieldProblem> problems;
  read_profile(name, json::parse(object(name).dump()), problems);
  std::vector<std::string> out;
  for (const auto& f : problems)
    if (f.message == "unknown field") out.push_back(f.field);
  return out;
}

std::vector<FieldProblem> SettingsFile::problems() const {
  std::vector<FieldProblem> out;
  for (const std::string& name : names()) {
    const Profile p = read_profile(name, json::parse(object(name).dump()), out);
    for (FieldProblem& f : check_profile(p)) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const FieldProblem& g) {
        return g.profile == f.profile && g.field == f.field;
      });
      if (!seen) out.push_back(std::move(f));
    }
  }
  if (doc_.contains("default")) {
    if (!doc_["default"].is_string()) out.push_back({"", "default", "expected a profile name"});
    else if (!has(doc_["default"].get<std::string>()))
      out.push_back({"", "default", "names no profile of this file: \"" + doc_["default"].get<std::string>() + "\""});
  }
  return out;
}

std::string SettingsFile::text() const { return doc_.dump(2) + "\n"; }

void SettingsFile::save() {
  std::error_code ec;
  const bool exists = fs::exists(file_, ec);
  if (exists != existed_ || (exists && read_file(file_, "LLM settings file") != on_disk_))
    bad_file(file_, "changed on disk since it was read (by another program or window); nothing was written: "
                    "open the settings again to see the changes");
  fs::create_directories(file_.parent_path(), ec);
  if (ec) throw EnvError("LLM settings '" + file_.string() + "': cannot create the folder: " + ec.message());
  const fs::perms before = exists ? fs::status(file_, ec).permissions() : fs::perms::unknown;
  const std::string t = text();
  write_file_atomic(file_, t);
  if (before != fs::perms::unknown) fs::permissions(file_, before, ec);  // a file kept private stays private
  on_disk_ = t;
  existed_ = true;
}

}  // namespace kope::llm
