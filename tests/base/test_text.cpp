// Invalid UTF-8 from outside is escaped, valid text passes unchanged, JSON always dumps, and no control character
// reaches a terminal.
#include <gtest/gtest.h>

#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/text.h"

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

TEST(Text, TerminalEscapeLeavesTextAndReplacesEveryControlCharacter) {
  for (std::string s : {std::string("plain ascii\n\twith tabs"), std::string("\xC3\xA9t\xC3\xA9 \xE4\xB8\xAD"),
                        std::string("\xF0\x9F\x98\x80 back\\slash {\"json\": [1]}")}) {
    EXPECT_TRUE(is_terminal_safe(s)) << s;
    EXPECT_EQ(escape_terminal(s), s);
  }
  EXPECT_EQ(escape_terminal("\x1b]0;title\x07\x1b[2J\rresult: passed"),
            "\\u001b]0;title\\u0007\\u001b[2J\\u000dresult: passed");
  EXPECT_EQ(escape_terminal(std::string("a\0b\x7f", 4)), "a\\u0000b\\u007f");
  EXPECT_EQ(escape_terminal("\xC2\x9B" "31m"), "\\u009b31m") << "a C1 CSI";
  EXPECT_EQ(escape_terminal("x\xE2\x80\xAE" "gnp.exe\xE2\x81\xA6"), "x\\u202egnp.exe\\u2066") << "bidi controls";
  EXPECT_EQ(escape_terminal("\x9B" "31m\xFF"), "\\x9B31m\\xFF") << "invalid bytes, a raw 8-bit CSI among them";
  for (int c = 0; c < 0x20; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(is_terminal_safe(one), c == '\n' || c == '\t') << c;
  }
}

TEST(Text, TerminalEscapeKeepsJsonValidAndMeaningTheSame) {
  const std::string hostile = "\x1b[31m\x7f\xC2\x85\xE2\x80\xAE\r";
  const json j = {{"text", hostile}, {"list", {hostile, 1.5}}};
  for (int indent : {-1, 2}) {
    const std::string out = escape_terminal(j.dump(indent));
    EXPECT_TRUE(is_terminal_safe(out)) << out;
    EXPECT_EQ(json::parse(out), j) << out;
  }
}

TEST(Text, TerminalSafeStreamEscapesWhateverIsWrittenAndHowever) {
  std::ostringstream target;
  {
    TerminalSafeStream out(target);
    out << "a\xE2\x80";  // a UTF-8 sequence cut between two writes
    out << "\xAE" "b" << std::flush;
    out << "\x1b[2J" << 42 << '\x07' << '\n';
    out.put('\xC2');
    out.put('\x9B');
    out << "\n" << std::string(20000, 'x') << "\x1b";
  }  // the rest on destruction
  EXPECT_EQ(target.str(), "a\\u202eb\\u001b[2J42\\u0007\n\\u009b\n" + std::string(20000, 'x') + "\\u001b");
  // Several threads at once: every line arrives whole and escaped.
  std::ostringstream shared;
  {
    TerminalSafeStream out(shared);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&out] {
        for (int i = 0; i < 500; ++i) out << std::string("line\x1b\n");
      });
    for (auto& t : threads) t.join();
  }
  EXPECT_TRUE(is_terminal_safe(shared.str()));
}

TEST(Text, TrimTakesWhiteSpaceOffBothEndsOnly) {
  EXPECT_EQ(trim("  a b\t\r\n"), "a b");
  EXPECT_EQ(trim("\v\fx\f"), "x");
  EXPECT_EQ(trim(" \n\t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("\xc2\xa0x"), "\xc2\xa0x");  // a UTF-8 no-break space is text, not white space
}

TEST(Text, SplitWordsSplitsAtRunsOfWhiteSpace) {
  EXPECT_EQ(split_words("  fuse  tile\tvector\n"), (std::vector<std::string>{"fuse", "tile", "vector"}));
  EXPECT_TRUE(split_words(" \n ").empty());
  EXPECT_EQ(split_words("one"), (std::vector<std::string>{"one"}));
}
