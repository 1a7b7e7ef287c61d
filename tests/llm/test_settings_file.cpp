// The LLM settings file as a front end edits it (settings_file.h): what it does not know is kept, edits read back
// as the command line reads them, problems name profile and field, nothing is written over another writer; and
// the key a front end hands over at run time reaches the server without touching the file or the environment.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "kope/base/fsutil.h"
#include "kope/llm/client.h"
#include "kope/llm/config.h"
#include "kope/llm/settings_file.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope;
using namespace kope::llm;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A file with what kope does not know: a top-level key, a note inside a profile, keys in an unusual order.
const char* kFile = R"({
  "comment": {"who": "ops", "why": ["keep", 1, null]},
  "profiles": {
    "zeta": {"model": "z-1", "provider": "openai", "base_url": "http://localhost:9/v1"},
    "alpha": {"provider": "anthropic", "model": "claude-x", "price_in_per_mtok": 3, "price_out_per_mtok": 15,
              "x-team-note": "billing code 7"}
  },
  "default": "alpha",
  "version": 3
})";

ordered_json parse(const std::string& text) { return ordered_json::parse(text); }

}  // namespace

TEST(SettingsFile, AnUntouchedFileRoundTripsWithEverythingItDoesNotKnow) {
  test::TempDir dir;
  const auto file = dir / "kope" / "llm.json";
  test::write_text(file, kFile);
  SettingsFile f = SettingsFile::load(file);
  EXPECT_EQ(f.names(), (std::vector<std::string>{"zeta", "alpha"}));  // file order, not sorted
  EXPECT_EQ(f.default_profile(), "alpha");
  f.save();
  const ordered_json back = parse(read_file(file));
  EXPECT_EQ(back, parse(kFile));
  EXPECT_EQ(back.begin().key(), "comment");  // the order of keys too
  EXPECT_EQ(f.unknown_fields("alpha"), std::vector<std::string>{"x-team-note"});
}

TEST(SettingsFile, AnEditedProfileReadsBackAsTheCommandLineReadsIt) {
  test::TempDir dir;
  const auto file = dir / "llm.json";
  test::write_text(file, R"({"profiles": {"local": {"provider": "openai", "base_url": "http://localhost:8000/v1", "model": "q"}}, "note": 1})");
  SettingsFile f = SettingsFile::load(file);
  Profile p = f.profile("local");
  EXPECT_EQ(p.context_window, 32768);  // the default where the file says nothing
  p.model = "qwen-32b";
  p.max_in_flight = 3;
  p.price_in_per_mtok = 0.5;
  p.connect_timeout_s = 4;
  f.put(p);
  Profile n;
  n.name = "claude";
  n.provider = Provider::Anthropic;
  n.base_url = default_base_url(Provider::Anthropic);
  n.api_key_env = "MY_ANTHROPIC_KEY";
  n.model = "claude-y";
  f.put(n);
  f.set_default("claude");
  EXPECT_TRUE(f.problems().empty());
  f.save();
  const auto profiles = load_profiles(file);
  ASSERT_EQ(profiles.size(), 2u);
  const Profile c = resolve_profile(std::nullopt, {}, file);  // the file's default
  EXPECT_EQ(c.name, "claude");
  EXPECT_EQ(c.api_key_env, "MY_ANTHROPIC_KEY");
  const Profile l = resolve_profile(std::string("local"), {}, file);
  EXPECT_EQ(l.model, "qwen-32b");
  EXPECT_EQ(l.max_in_flight, 3);
  EXPECT_EQ(l.price_in_per_mtok, 0.5);
  EXPECT_EQ(l.connect_timeout_s, 4);
  const ordered_json j = parse(read_file(file));
  EXPECT_EQ(j["note"], 1);
  // What equals the default and was not in the file is not written; a new profile names its provider and model.
  EXPECT_FALSE(j["profiles"]["local"].contains("context_window"));
  EXPECT_FALSE(j["profiles"]["claude"].contains("base_url"));
  EXPECT_EQ(j["profiles"]["claude"]["provider"], "anthropic");
  // Renamed in place, the default following; removed, the default goes with it.
  Profile r = f.profile("claude");
  r.name = "sonnet";
  f.put(r, std::string("claude"));
  EXPECT_EQ(f.names(), (std::vector<std::string>{"local", "sonnet"}));
  EXPECT_EQ(f.default_profile(), "sonnet");
  EXPECT_THROW(f.put(f.profile("local"), std::string("sonnet")), Error);  // onto an existing name
  f.remove("sonnet");
  EXPECT_FALSE(f.default_profile());
}

TEST(SettingsFile, ProblemsNameTheProfileAndTheField) {
  test::TempDir dir;
  const auto file = dir / "llm.json";
  test::write_text(file, R"({"default": "gone", "profiles": {
    "a": {"provider": "openai", "model": "m", "context_window": "big", "colour": "red"},
    "b": {"provider": "openai", "model": "m", "base_url": "localhost:8000", "api_key_env": "2BAD"}}})");
  SettingsFile f = SettingsFile::load(file);
  std::vector<std::string> seen;
  for (const FieldProblem& p : f.problems()) seen.push_back(p.profile + "/" + p.field);
  EXPECT_EQ(seen, (std::vector<std::string>{"a/colour", "a/context_window", "b/base_url", "b/api_key_env", "/default"}));
  EXPECT_NE(f.problems().front().text().find("profile \"a\": colour: unknown field"), std::string::npos);
  Profile o = f.profile("a");
  o.name = "offline";
  o.max_output_tokens = o.context_window;
  std::vector<std::string> fields;
  for (const FieldProblem& p : check_profile(o)) fields.push_back(p.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"name", "max_output_tokens"}));
}

TEST(SettingsFile, AKeyInTheFileCanBeTakenOutAndNothingIsWrittenOverAnotherWriter) {
  test::TempDir dir;
  const auto file = dir / "llm.json";
  test::write_text(file, R"({"profiles": {"x": {"provider": "openai", "model": "m", "api_key": "sk-in-the-file"}}})");
  chmod(file.c_str(), 0600);
  EXPECT_THROW(load_profiles(file), Error);  // the command line refuses it
  SettingsFile f = SettingsFile::load(file);
  EXPECT_EQ(f.stored_key("x"), "sk-in-the-file");
  EXPECT_EQ(f.problems().at(0).field, "api_key");
  f.remove_stored_key("x");
  EXPECT_TRUE(f.problems().empty());
  f.save();
  EXPECT_EQ(read_file(file).find("sk-in-the-file"), std::string::npos);
  EXPECT_EQ(load_profiles(file).size(), 1u);
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);  // kept private
  // Another program writes meanwhile: the editor's save refuses and leaves that text alone.
  SettingsFile g = SettingsFile::load(file);
  test::write_text(file, R"({"profiles": {}, "by": "someone else"})");
  g.set_default("x");
  try {
    g.save();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("changed on disk"), std::string::npos) << e.what();
  }
  EXPECT_NE(read_file(file).find("someone else"), std::string::npos);
  // A missing file is an empty document, written with its folder on save; a broken one names the byte.
  SettingsFile n = SettingsFile::load(dir / "new" / "kope" / "llm.json");
  EXPECT_TRUE(n.names().empty());
  n.save();
  EXPECT_TRUE(load_profiles(dir / "new" / "kope" / "llm.json").empty());
  test::write_text(file, "{\"profiles\": ");
  try {
    SettingsFile::load(file);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("byte"), std::string::npos);
  }
}

// The key handed over at run time is the one sent, with no variable set, and is never in the recorded profile;
// a refused key names where it came from. The answering model comes back with the reply.
TEST(SettingsFile, AKeyFromAFrontEndIsSentAndNamedWhenRefused) {
  test::ScriptedServer srv({test::sse_response({test::openai_stream({"ok"})}),
                            test::error_response(401, R"({"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}})")});
  Profile p;
  p.name = "kc";
  p.base_url = "https://api.example.invalid/v1";
  p.api_key_env = "KOPE_TEST_UNSET_VARIABLE";
  p.model = "m";
  p.max_retries = 0;
  EXPECT_THROW(api_key_for(p), Error);
  p.api_key = ApiKey{"sk-from-keychain-42", "the system keychain"};
  EXPECT_EQ(api_key_for(p), "sk-from-keychain-42");
  EXPECT_EQ(to_json(p).dump().find("sk-from-keychain"), std::string::npos);
  p.base_url = srv.url() + "/v1";
  Client c(p, api_key_for(p));
  const ChatReply r = c.chat({"", {{"user", "ok?"}}});
  EXPECT_EQ(r.model, "m");  // what the stream's chunks say
  EXPECT_EQ(srv.requests().at(0).headers.at("authorization"), "Bearer sk-from-keychain-42");
  try {
    c.chat({"", {{"user", "ok?"}}});
    FAIL();
  } catch (const LlmError& e) {
    EXPECT_EQ(e.status(), 401);
    EXPECT_NE(std::string(e.what()).find("the system keychain"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("sk-from-keychain"), std::string::npos);
  }
}
