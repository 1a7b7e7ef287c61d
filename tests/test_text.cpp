// Invalid UTF-8 from outside is escaped, valid text passes unchanged, and JSON always dumps.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kope/text.h"

using namespace kope;
using nlohmann::json;

TEST(Text, ValidUtf8PassesUnchanged) {
  for (std::string s : {std::string(""), std::string("plain ascii\n\t"), std::string("\xC3\xA9t\xC3\xA9"),
                        std::string("\xE4\xB8\xAD\xE6\x96\x87"), std::string("\xF0\x9F\x98\x80"),
                        std::string("nul\0byte", 8), std::string("back\\xFF slash")}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
    EXPECT_EQ(escape_invalid_utf8(s), s);
  }
}

TEST(Text, EachInvalidByteBecomesHexEscape) {
  EXPECT_EQ(escape_invalid_utf8("a\xFF\xFE" "b"), "a\\xFF\\xFEb");
  EXPECT_EQ(escape_invalid_utf8("\x80"), "\\x80");                       // stray continuation
  EXPECT_EQ(escape_invalid_utf8("\xC3"), "\\xC3");                       // truncated at the end
  EXPECT_EQ(escape_invalid_utf8("\xC3(x"), "\\xC3(x");                   // truncated in the middle
  EXPECT_EQ(escape_invalid_utf8("\xC0\xAF"), "\\xC0\\xAF");              // overlong
  EXPECT_EQ(escape_invalid_utf8("\xE0\x80\xAF"), "\\xE0\\x80\\xAF");     // overlong, 3 bytes
  EXPECT_EQ(escape_invalid_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");     // a surrogate
  EXPECT_EQ(escape_invalid_utf8("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(escape_invalid_utf8("ok \xC3\xA9 \xFF ok"), "ok \xC3\xA9 \\xFF ok");  // valid kept around it
  EXPECT_FALSE(is_valid_utf8("\xFF"));
  EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8("\xFF\xFE\xC3")));
}

TEST(Text, DumpJsonNeverThrowsForInvalidBytes) {
  json j = {{"log", "crash \xFF\xFE"}, {"nested", {{"a", json::array({"\xC3", 1})}}}};
  EXPECT_THROW(j.dump(), json::type_error);  // what nlohmann does alone: the internal error the issue saw
  const std::string out = dump_json(j, 2);
  json back = json::parse(out);
  EXPECT_EQ(back["log"], "crash \\xFF\\xFE");
  EXPECT_EQ(back["nested"]["a"][0], "\\xC3");
  EXPECT_EQ(back["nested"]["a"][1], 1);
  json keyed = {{"bad\xFFkey", 1}};
  EXPECT_EQ(json::parse(dump_json(keyed)).begin().key(), "bad\\xFFkey");
  json fine = {{"x", "\xC3\xA9"}};
  EXPECT_EQ(dump_json(fine), fine.dump());
}
