#include "kope/llm/config.h"

#include <cstdlib>

#include "kope/base/fsutil.h"

namespace kope::llm {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path settings_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return fs::path(x) / "kope" / "llm.json";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".config" / "kope" / "llm.json";
  return fs::current_path() / "llm.json";
}

std::string default_key_env(Provider p) { return p == Provider::Anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"; }

std::string default_base_url(Provider p) {
  return p == Provider::Anthropic ? "https://api.anthropic.com" : "https://api.openai.com/v1";
}

namespace {

[[noreturn]] void bad(const fs::path& file, const std::string& ptr, const std::string& what) {
  throw Error("LLM settings '" + file.string() + "': " + ptr + ": " + what);
}

}  // namespace

std::string FieldProblem::text() const {
  std::string s = profile.empty() ? std::string() : "profile \"" + profile + "\": ";
  return s + (field.empty() ? std::string() : field + ": ") + message;
}

Profile read_profile(const std::string& name, const json& j, std::vector<FieldProblem>& problems) {
  auto bad = [&](const std::string& field, const std::string& what) { problems.push_back({name, field, what}); };
  Profile p;
  p.name = name;
  if (!j.is_object()) {
    bad("", "a profile must be an object");
    return p;
  }
  static const char* known[] = {"provider", "base_url", "model", "context_window", "max_output_tokens",
                                "temperature", "price_in_per_mtok", "price_out_per_mtok", "api_key_env",
                                "connect_timeout_s", "low_speed_time_s", "max_retries", "max_in_flight"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (it.key() == "api_key") bad("api_key", "keys are not read from files; name the environment variable in \"api_key_env\"");
    else if (!ok) bad(it.key(), "unknown field");
  }
  auto str = [&](const char* k, std::string& out, bool required) {
    if (!j.contains(k)) {
      if (required) bad(k, "missing");
      return false;
    }
    if (!j[k].is_string() || j[k].get<std::string>().empty()) {
      bad(k, "expected a non-empty string");
      return false;
    }
    out = j[k].get<std::string>();
    return true;
  };
  std::string prov;
  if (str("provider", prov, true)) {
    if (auto pv = provider_from_name(prov)) p.provider = *pv;
    else bad("provider", "expected \"openai\" or \"anthropic\", got \"" + prov + "\"");
  }
  p.base_url = default_base_url(p.provider);
  str("base_url", p.base_url, false);
  str("model", p.model, true);
  p.api_key_env = default_key_env(p.provider);
  str("api_key_env", p.api_key_env, false);
  auto integer = [&](const char* k, int64_t& out, int64_t lo) {
    if (!j.contains(k)) return;
    if (!j[k].is_number_integer() || j[k].get<int64_t>() < lo) {
      bad(k, "expected a whole number of at least " + std::to_string(lo));
      return;
    }
    out = j[k].get<int64_t>();
  };
  auto number = [&](const char* k, double lo, double hi) -> std::optional<double> {
    if (!j.contains(k)) return std::nullopt;
    if (!j[k].is_number() || j[k].get<double>() < lo || j[k].get<double>() > hi) {
      bad(k, "expected a number from " + json(lo).dump() + " to " + json(hi).dump());
      return std::nullopt;
    }
    return j[k].get<double>();
  };
  integer("context_window", p.context_window, 256);
  integer("max_output_tokens", p.max_output_tokens, 16);
  int64_t retries = p.max_retries;
  integer("max_retries", retries, 0);
  p.max_retries = static_cast<int>(std::min<int64_t>(retries, 100));
  int64_t in_flight = p.max_in_flight;
  integer("max_in_flight", in_flight, 1);
  p.max_in_flight = static_cast<int>(std::min<int64_t>(in_flight, 256));
  if (auto t = number("temperature", 0, 2)) p.temperature = *t;
  p.price_in_per_mtok = number("price_in_per_mtok", 0, 1e6);
  p.price_out_per_mtok = number("price_out_per_mtok", 0, 1e6);
  if (auto t = number("connect_timeout_s", 0.1, 600)) p.connect_timeout_s = *t;
  if (auto t = number("low_speed_time_s", 1, 3600)) p.low_speed_time_s = *t;
  if (p.max_output_tokens >= p.context_window)
    bad("max_output_tokens", "must be below context_window (" + std::to_string(p.context_window) + ")");
  return p;
}

Profile parse_profile(const fs::path& file, const std::string& ptr, const std::string& name, const json& j) {
  std::vector<FieldProblem> problems;
  Profile p = read_profile(name, j, problems);
  if (!problems.empty()) {
    const FieldProblem& f = problems.front();
    bad(file, f.field.empty() ? ptr : ptr + "/" + f.field, f.message);
  }
  return p;
}

namespace {

json read_settings(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return json();
  const std::string text = read_file(file, "LLM settings file");
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error("LLM settings '" + file.string() + "': not valid JSON at byte " + std::to_string(e.byte) + ": " +
                e.what());
  }
}

}  // namespace

std::vector<Profile> load_profiles(const fs::path& file) {
  const json j = read_settings(file);
  std::vector<Profile> out;
  if (j.is_null()) return out;
  if (!j.is_object()) bad(file, "(root)", "expected an object with \"profiles\"");
  if (!j.contains("profiles") || !j["profiles"].is_object()) bad(file, "/profiles", "expected an object of named profiles");
  for (auto it = j["profiles"].begin(); it != j["profiles"].end(); ++it)
    out.push_back(parse_profile(file, "/profiles/" + it.key(), it.key(), it.value()));
  if (j.contains("default") && !j["default"].is_string()) bad(file, "/default", "expected a profile name");
  return out;
}

Profile resolve_profile(const std::optional<std::string>& name, const ProfileOverrides& f, const fs::path& file) {
  const std::vector<Profile> profiles = load_profiles(file);
  std::optional<std::string> want = name;
  if (!want && !f.provider) {
    const json j = read_settings(file);
    if (j.is_object() && j.contains("default")) want = j["default"].get<std::string>();
  }
  Profile p;
  if (want) {
    auto it = std::find_if(profiles.begin(), profiles.end(), [&](const Profile& x) { return x.name == *want; });
    if (it == profiles.end()) {
      std::string names;
      for (const auto& x : profiles) names += (names.empty() ? "" : ", ") + x.name;
      throw Error("no LLM profile \"" + *want + "\" in '" + file.string() + "' (profiles: " +
                  (names.empty() ? "none" : names) + ")");
    }
    p = *it;
  } else {
    if (!f.provider)
      throw Error("no LLM profile chosen: pass --profile NAME (profiles live in '" + file.string() +
                  "') or --provider openai|anthropic --base-url URL --model M");
    p.name = "flags";
  }
  if (f.provider) {
    auto pv = provider_from_name(*f.provider);
    if (!pv) throw Error("--provider expects openai or anthropic, got \"" + *f.provider + "\"");
    if (!want || pv != p.provider) {
      p.provider = *pv;
      p.base_url = default_base_url(*pv);
      p.api_key_env = default_key_env(*pv);
    }
  }
  if (f.base_url) p.base_url = *f.base_url;
  if (f.model) p.model = *f.model;
  if (f.api_key_env) p.api_key_env = *f.api_key_env;
  if (f.context_window) p.context_window = *f.context_window;
  if (f.max_output_tokens) p.max_output_tokens = *f.max_output_tokens;
  if (f.temperature) p.temperature = *f.temperature;
  if (p.model.empty()) throw Error("LLM profile \"" + p.name + "\" names no model: pass --model M");
  if (p.base_url.rfind("http://", 0) != 0 && p.base_url.rfind("https://", 0) != 0)
    throw Error("LLM base URL \"" + p.base_url + "\" must start with http:// or https://");
  if (p.max_output_tokens >= p.context_window)
    throw Error("LLM profile \"" + p.name + "\": max_output_tokens (" + std::to_string(p.max_output_tokens) +
                ") must be below context_window (" + std::to_string(p.context_window) + ")");
  return p;
}

std::string api_key_for(const Profile& p) {
  if (p.api_key && !p.api_key->value.empty()) return p.api_key->value;
  const char* v = std::getenv(p.api_key_env.c_str());
  if (v && *v) return v;
  const bool local = p.base_url.find("://localhost") != std::string::npos ||
                     p.base_url.find("://127.0.0.1") != std::string::npos ||
                     p.base_url.find("://[::1]") != std::string::npos;
  if (local) return "";
  throw Error("LLM profile \"" + p.name + "\": the API key variable $" + p.api_key_env +
              " is not set (export it, or name another variable in the profile's \"api_key_env\")");
}

json to_json(const Profile& p) {
  json j = {{"name", p.name}, {"provider", provider_name(p.provider)}, {"base_url", p.base_url},
            {"model", p.model}, {"context_window", p.context_window}, {"max_output_tokens", p.max_output_tokens},
            {"temperature", p.temperature}, {"api_key_env", p.api_key_env}, {"max_in_flight", p.max_in_flight}};
  j["price_in_per_mtok"] = p.price_in_per_mtok ? json(*p.price_in_per_mtok) : json(nullptr);
  j["price_out_per_mtok"] = p.price_out_per_mtok ? json(*p.price_out_per_mtok) : json(nullptr);
  return j;
}

}  // namespace kope::llm
