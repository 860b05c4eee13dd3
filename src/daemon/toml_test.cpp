// The TOML subset reader against examples written from the TOML 1.0 specification
// (https://toml.io/en/v1.0.0: strings, integers, booleans, tables, comments) and the errors it
// must give, with line numbers, for what the subset leaves out or TOML forbids.
#include "daemon/toml.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace cuzk::daemon::toml {
namespace {

const Value& get(const Document& d, const std::string& table, const std::string& key) {
    return d.tables.at(table).values.at(key);
}

// Expects parse(text) to fail with a message that starts with "line N:" and contains `part`.
void expect_error(const std::string& text, int line, const std::string& part) {
    auto r = parse(text);
    ASSERT_FALSE(r.ok()) << "parsed: " << text;
    const std::string m = r.status().message();
    EXPECT_EQ(r.status().code(), util::StatusCode::kInvalidArgument);
    std::string prefix = "line ";
    prefix += std::to_string(line);
    prefix += ":";
    EXPECT_EQ(m.rfind(prefix, 0), 0u) << m;
    EXPECT_NE(m.find(part), std::string::npos) << m;
}

TEST(Toml, TablesKeysAndComments) {
    const std::string text =
        "# a comment line\n"
        "top = 1   # root table\n"
        "\n"
        "[daemon]\n"
        "listen = \"unix:///run/cuzk.sock\" # trailing comment with \"quotes\" and = signs\n"
        "  status_listen='127.0.0.1:9821'\n"
        "\t[ scheduler ]  # spaces around the name\n"
        "max_batch_size = +4\n"
        "\"quoted key\" = true\n"
        "bare-key_2 = false\n"
        "[a.b]\n"
        "x = -7\r\n";
    auto r = parse(text);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const Document& d = *r;
    EXPECT_EQ(d.tables.size(), 4u);
    EXPECT_EQ(get(d, "", "top").integer, 1);
    EXPECT_EQ(get(d, "", "top").line, 2);
    EXPECT_EQ(get(d, "daemon", "listen").kind, Value::Kind::kString);
    EXPECT_EQ(get(d, "daemon", "listen").string, "unix:///run/cuzk.sock");
    EXPECT_EQ(get(d, "daemon", "status_listen").string, "127.0.0.1:9821");
    EXPECT_EQ(d.tables.at("daemon").line, 4);
    EXPECT_EQ(get(d, "scheduler", "max_batch_size").integer, 4);
    EXPECT_TRUE(get(d, "scheduler", "quoted key").boolean);
    EXPECT_EQ(get(d, "scheduler", "bare-key_2").kind, Value::Kind::kBoolean);
    EXPECT_FALSE(get(d, "scheduler", "bare-key_2").boolean);
    EXPECT_EQ(get(d, "a.b", "x").integer, -7);
    EXPECT_EQ(get(d, "a.b", "x").line, 12);
}

TEST(Toml, EmptyAndCommentOnlyDocuments) {
    for (const char* text : {"", "\n\n", "# only\n   # comments\n", "   \t  "}) {
        auto r = parse(text);
        ASSERT_TRUE(r.ok()) << text;
        EXPECT_EQ(r->tables.size(), 1u);
        EXPECT_TRUE(r->tables.at("").values.empty());
    }
}

TEST(Toml, BasicStringEscapes) {
    // Spec examples: \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX.
    auto r = parse(
        "s = \"a\\tb\\nc\\\"d\\\\e\\b\\f\\r\"\n"
        "u = \"\\u00E9\\u20AC\\U0001F600\"\n"
        "lit = 'C:\\Users\\nodejs\\templates'\n"
        "hash = \"not # a comment\"\n"
        "empty = \"\"\n"
        "utf8 = \"\xC3\xA9t\xC3\xA9\"\n");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(get(*r, "", "s").string, "a\tb\nc\"d\\e\b\f\r");
    EXPECT_EQ(get(*r, "", "u").string, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_EQ(get(*r, "", "lit").string, "C:\\Users\\nodejs\\templates");
    EXPECT_EQ(get(*r, "", "hash").string, "not # a comment");
    EXPECT_EQ(get(*r, "", "empty").string, "");
    EXPECT_EQ(get(*r, "", "utf8").string, "\xC3\xA9t\xC3\xA9");
}

TEST(Toml, Integers) {
    auto r = parse(
        "a = 99\n b = +99\n c = 0\n d = -17\n e = 1_000\n f = 5_349_221\n g = 0xDEADBEEF\n"
        "h = 0xdead_beef\n i = 0o755\n j = 0b11010110\n k = 9223372036854775807\n"
        "l = -9223372036854775808\n m = +0\n n = -0\n");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(get(*r, "", "a").integer, 99);
    EXPECT_EQ(get(*r, "", "b").integer, 99);
    EXPECT_EQ(get(*r, "", "c").integer, 0);
    EXPECT_EQ(get(*r, "", "d").integer, -17);
    EXPECT_EQ(get(*r, "", "e").integer, 1000);
    EXPECT_EQ(get(*r, "", "f").integer, 5349221);
    EXPECT_EQ(get(*r, "", "g").integer, 0xDEADBEEF);
    EXPECT_EQ(get(*r, "", "h").integer, 0xDEADBEEF);
    EXPECT_EQ(get(*r, "", "i").integer, 0755);
    EXPECT_EQ(get(*r, "", "j").integer, 214);
    EXPECT_EQ(get(*r, "", "k").integer, std::numeric_limits<int64_t>::max());
    EXPECT_EQ(get(*r, "", "l").integer, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(get(*r, "", "m").integer, 0);
    EXPECT_EQ(get(*r, "", "n").integer, 0);
}

// Arrays of integers on one line (TOML 1.0 arrays, the subset the `gpus` key needs).
TEST(Toml, IntegerArrays) {
    auto r = parse("a = [0, 1]\nb = []\nc = [ 3 ,4,5, ] # comment\nd = [0x10,-2]\ne=[7]\n");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(get(*r, "", "a").kind, Value::Kind::kIntegerArray);
    EXPECT_EQ(get(*r, "", "a").integers, (std::vector<int64_t>{0, 1}));
    EXPECT_TRUE(get(*r, "", "b").integers.empty());
    EXPECT_EQ(get(*r, "", "b").kind, Value::Kind::kIntegerArray);
    EXPECT_EQ(get(*r, "", "c").integers, (std::vector<int64_t>{3, 4, 5}));
    EXPECT_EQ(get(*r, "", "d").integers, (std::vector<int64_t>{16, -2}));
    EXPECT_EQ(get(*r, "", "e").integers, (std::vector<int64_t>{7}));
    EXPECT_STREQ(kind_name(Value::Kind::kIntegerArray), "array");
    expect_error("a = [1 2]\n", 1, "expected ',' or ']'");
    expect_error("a = [1,,2]\n", 1, "expected a value");
    expect_error("a = [1.5]\n", 1, "floats are not supported");
    expect_error("a = [1] x\n", 1, "");
}

TEST(Toml, IntegerErrors) {
    expect_error("a = 9223372036854775808\n", 1, "64-bit");
    expect_error("a = -9223372036854775809\n", 1, "64-bit");
    expect_error("a = 0xFFFFFFFFFFFFFFFFF\n", 1, "64-bit");
    expect_error("a = 012\n", 1, "leading zeros");
    expect_error("a = 1__0\n", 1, "underscores");
    expect_error("a = _10\n", 1, "underscores");
    expect_error("a = 10_\n", 1, "underscores");
    expect_error("a = -0x10\n", 1, "no sign");
    expect_error("a = 0b102\n", 1, "digit out of range");
    expect_error("a = 0x\n", 1, "expected a value");
    expect_error("x = 1\ny = 12abc\n", 2, "expected a value");
}

TEST(Toml, UnsupportedValuesAreNamed) {
    expect_error("a = [\"x\", \"y\"]\n", 1, "arrays hold only integers");
    expect_error("a = [[1], [2]]\n", 1, "arrays hold only integers");
    expect_error("a = [true]\n", 1, "arrays hold only integers");
    expect_error("a = [1,\n 2]\n", 1, "close with ']' on its line");
    expect_error("ok = 1\na = { x = 1 }\n", 2, "inline tables are not supported");
    expect_error("a = 3.14\n", 1, "floats are not supported");
    expect_error("a = 5e+22\n", 1, "floats are not supported");
    expect_error("a = inf\n", 1, "floats are not supported");
    expect_error("a = nan\n", 1, "floats are not supported");
    expect_error("a = 1979-05-27\n", 1, "dates and times");
    expect_error("a = 07:32:00\n", 1, "dates and times");
    expect_error("a = \"\"\"multi\nline\"\"\"\n", 1, "multi-line strings");
    expect_error("a = '''raw'''\n", 1, "multi-line strings");
    expect_error("[[products]]\n", 1, "arrays of tables");
    expect_error("a.b = 1\n", 1, "dotted keys");
}

TEST(Toml, SyntaxErrorsNameTheLine) {
    expect_error("[daemon]\nlisten = \"abc\n", 2, "unterminated string");
    expect_error("\n\nlisten \"abc\"\n", 3, "expected '='");
    expect_error("listen =\n", 1, "expected a value");
    expect_error("a = True\n", 1, "expected a value");
    expect_error("a = unquoted\n", 1, "expected a value");
    expect_error("a = 1 b = 2\n", 1, "after the value");
    expect_error("a = \"x\" y\n", 1, "after the value");
    expect_error("[daemon\n", 1, "expected ']'");
    expect_error("[]\n", 1, "expected a key");
    expect_error("[a] x = 1\n", 1, "after the value");
    expect_error("= 1\n", 1, "expected a key");
    expect_error("a = \"bad \\q escape\"\n", 1, "invalid escape");
    expect_error("a = \"\\u12\"\n", 1, "4 hex digits");
    expect_error("a = \"\\uD800\"\n", 1, "not a Unicode scalar value");
    expect_error("a = \"\\U00110000\"\n", 1, "not a Unicode scalar value");
    expect_error(std::string("a = \"x\x01y\"\n"), 1, "control character");
    expect_error("ok = 1\nbad = \"\xC3\x28\"\n", 2, "not valid UTF-8");
    expect_error("ok = 1\nbad = \"\xED\xA0\x80\"\n", 2, "not valid UTF-8");  // a surrogate
    expect_error("ok = 1\nbad = \"\xC0\xAF\"\n", 2, "not valid UTF-8");      // overlong '/'
    expect_error("a = 1\rb = 2\n", 1, "carriage return");
}

TEST(Toml, DuplicatesAreErrors) {
    expect_error("a = 1\na = 2\n", 2, "defined twice (first on line 1)");
    expect_error("[t]\na = 1\n[u]\n[t]\n", 4, "table [t] is defined twice (first on line 1)");
    expect_error("[t]\nx = 1\n\"x\" = 2\n", 3, "defined twice");
    // The same key in two tables is fine.
    auto r = parse("[t]\nx = 1\n[u]\nx = 2\n");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(get(*r, "t", "x").integer, 1);
    EXPECT_EQ(get(*r, "u", "x").integer, 2);
}

TEST(Toml, NoFinalNewlineAndCrlf) {
    auto r = parse("[t]\r\nx = 'y'");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(get(*r, "t", "x").string, "y");
}

}  // namespace
}  // namespace cuzk::daemon::toml
