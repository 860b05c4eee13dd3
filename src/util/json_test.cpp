// Tests for util/json: RFC 8259 acceptance and rejection cases, error positions and paths,
// number accessors and their ranges, the writer's exact compact/pretty forms (serde_json's), round
// trips of random documents, and a mutation fuzz (never crash; a mutant that parses must round
// trip).
#include "util/json.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::util::json {
namespace {

Document parse_ok(std::string_view text) {
    auto r = Document::parse_view(text);
    EXPECT_TRUE(r.ok()) << "input: " << text << "\nerror: " << r.status().to_string();
    if (!r.ok()) return Document();
    return std::move(r).value();
}

// Parses, expecting failure whose message contains every fragment.
void expect_error(std::string_view text, std::initializer_list<std::string_view> fragments,
                  StatusCode code = StatusCode::kInvalidArgument) {
    auto r = Document::parse_view(text);
    ASSERT_FALSE(r.ok()) << "accepted: " << text;
    EXPECT_EQ(r.status().code(), code) << r.status().to_string();
    for (std::string_view f : fragments) {
        EXPECT_NE(r.status().message().find(f), std::string::npos)
            << "input: " << text << "\nmessage: " << r.status().message() << "\nmissing: " << f;
    }
}

TEST(Json, Scalars) {
    EXPECT_TRUE(parse_ok("null").root().is_null());
    EXPECT_TRUE(parse_ok(" true ").root().bool_value());
    EXPECT_FALSE(parse_ok("false").root().bool_value());
    EXPECT_EQ(parse_ok("\t\r\n 42 \n").root().number_text(), "42");
    EXPECT_EQ(parse_ok("\"hi\"").root().string_text(), "hi");
    EXPECT_EQ(parse_ok("-0").root().number_text(), "-0");
    EXPECT_EQ(parse_ok("1.5e+10").root().number_text(), "1.5e+10");
    EXPECT_EQ(parse_ok("1E-2").root().number_text(), "1E-2");
    EXPECT_EQ(parse_ok("[]").root().size(), 0u);
    EXPECT_EQ(parse_ok("{}").root().size(), 0u);
}

TEST(Json, ContainersKeepOrderAndDuplicates) {
    Document d = parse_ok(R"({"b":1,"a":[true,null,{"x":"y"}],"b":2, "e":{}})");
    Value r = d.root();
    ASSERT_TRUE(r.is_object());
    EXPECT_EQ(r.size(), 4u);
    std::vector<std::string> keys;
    for (const Member m : r.members()) keys.emplace_back(m.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"b", "a", "b", "e"}));
    EXPECT_EQ(r.find("b")->number_text(), "1");  // first of the duplicates
    Value a = *r.find("a");
    ASSERT_EQ(a.size(), 3u);
    EXPECT_TRUE(a.at(0).bool_value());
    EXPECT_TRUE(a.at(1).is_null());
    EXPECT_EQ(a.at(2).find("x")->string_text(), "y");
    EXPECT_FALSE(a.at(3).valid());
    EXPECT_FALSE(r.find("zz").has_value());
    EXPECT_EQ(r.find("e")->size(), 0u);
    size_t n = 0;
    for (Value v : a.elements()) {
        (void)v;
        ++n;
    }
    EXPECT_EQ(n, 3u);
}

TEST(Json, StringEscapesAndUtf8) {
    Document d =
        parse_ok(R"(["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20ac", "\ud83d\ude00", "\u0000x"])");
    Value r = d.root();
    EXPECT_EQ(r.at(0).string_text(), "\"\\/\b\f\n\r\t");
    EXPECT_EQ(r.at(1).string_text(), "A\xC3\xA9\xE2\x82\xAC");
    EXPECT_EQ(r.at(2).string_text(), "\xF0\x9F\x98\x80");
    EXPECT_EQ(r.at(3).string_text(), std::string_view("\0x", 2));
    // Raw UTF-8 (2, 3 and 4 bytes, U+10FFFF) is accepted as is.
    Document u = parse_ok("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"");
    EXPECT_EQ(u.root().string_text(), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF");
    // Uppercase hex digits in \u.
    EXPECT_EQ(parse_ok(R"("\u00E9")").root().string_text(), "\xC3\xA9");
    // Escaped and unescaped keys compare by decoded value.
    EXPECT_TRUE(parse_ok(R"({"a\u0062":1})").root().find("ab").has_value());
}

TEST(Json, MalformedInputsGiveClearErrors) {
    expect_error("", {"line 1, column 1", "unexpected end of input"});
    expect_error("   ", {"unexpected end of input"});
    expect_error("[1,]", {"expected a value, found ']'", "path [1]"});
    expect_error("[1 2]", {"expected ',' or ']' after an array element, found '2'"});
    expect_error("[1,2", {"expected ',' or ']'", "end of input"});
    expect_error(R"({"a" 1})", {"expected ':' after an object key, found '1'"});
    expect_error("{1:2}", {"expected a string key, found '1'"});
    expect_error(R"({"a":1,})", {"expected a string key, found '}'"});
    expect_error(R"({"a":1 "b":2})", {"expected ',' or '}' after an object member"});
    expect_error("01", {"leading zeros"});
    expect_error("-01", {"leading zeros"});
    expect_error("1.", {"digit after the decimal point"});
    expect_error(".5", {"expected a value, found '.'"});
    expect_error("1e", {"digit in the exponent"});
    expect_error("1e+", {"digit in the exponent"});
    expect_error("-", {"digit after '-'"});
    expect_error("-a", {"digit after '-'"});
    expect_error("+1", {"expected a value, found '+'"});
    expect_error("NaN", {"expected a value, found 'N'"});
    expect_error("Infinity", {"expected a value"});
    expect_error("tru", {"invalid literal"});
    expect_error("truex", {"invalid literal"});
    expect_error("nul", {"invalid literal"});
    expect_error("'a'", {"expected a value, found '''"});
    expect_error("/* c */ 1", {"expected a value, found '/'"});
    expect_error("\"abc", {"unterminated string"});
    expect_error("\"a\\", {"unterminated string"});
    expect_error("\"a\x01\"", {"control character in string"});
    expect_error("\"a\tb\"", {"control character in string"});
    expect_error(R"("\x")", {"invalid escape"});
    expect_error(R"("\u12")", {"four hex digits"});
    expect_error(R"("\u12G4")", {"four hex digits"});
    expect_error(R"("\ud800")", {"lone leading surrogate"});
    expect_error(R"("\ud800\u0041")", {"lone leading surrogate"});
    expect_error(R"("\udc00")", {"lone trailing surrogate"});
    expect_error("\"\xC0\x80\"", {"invalid UTF-8"});          // overlong NUL
    expect_error("\"\xE0\x80\xAF\"", {"invalid UTF-8"});      // overlong '/'
    expect_error("\"\xED\xA0\x80\"", {"invalid UTF-8"});      // encoded surrogate
    expect_error("\"\xF4\x90\x80\x80\"", {"invalid UTF-8"});  // > U+10FFFF
    expect_error("\"\xE2\x82\"", {"invalid UTF-8"});          // truncated
    expect_error("\"\x80\"", {"invalid UTF-8"});              // stray continuation
    expect_error("\"\xFF\"", {"invalid UTF-8"});
    expect_error("\"a\\n\xC3\"", {"invalid UTF-8"});  // after an escape (slow path)
    expect_error("[1] x", {"trailing characters", "'x'"});
    expect_error("{} {}", {"trailing characters"});
    expect_error(std::string_view("[1,\0]", 5), {"expected a value, found byte 0x00"});
    expect_error("\xEF\xBB\xBF{}", {"expected a value, found byte 0xef"});  // BOM
}

TEST(Json, ErrorPositionAndPath) {
    const std::string text = "{\n  \"a\": [1, 2,\n    {\"b\": tru}]}";
    auto r = Document::parse_view(text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("line 3, column 11 (path a[2].b)"), std::string::npos)
        << r.status().message();

    // The form named in the C1 brief.
    const std::string c1 =
        R"({"vanilla_proofs":{"StackedDrg2KiBV1":[[{},{"comm_d_proofs":{"data":{"Single":)"
        R"({"path":[0,1,2,{"hashes":[1,]}]}}}}]]}})";
    auto r2 = Document::parse_view(c1);
    ASSERT_FALSE(r2.ok());
    EXPECT_NE(r2.status().message().find(
                  "(path vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path[3]"
                  ".hashes[1])"),
              std::string::npos)
        << r2.status().message();

    // Columns count characters, not bytes.
    auto r3 = Document::parse_view("[\"\xC3\xA9\xE2\x82\xAC\", x]");
    ASSERT_FALSE(r3.ok());
    EXPECT_NE(r3.status().message().find("line 1, column 8 (path [1])"), std::string::npos)
        << r3.status().message();

    // Keys that are not identifiers are quoted.
    auto r4 = Document::parse_view(R"({"a b":{"c.d":[x]}})");
    ASSERT_FALSE(r4.ok());
    EXPECT_NE(r4.status().message().find(R"(path ["a b"]["c.d"][0])"), std::string::npos)
        << r4.status().message();
}

TEST(Json, Limits) {
    std::string deep(128, '[');
    deep += std::string(128, ']');
    EXPECT_TRUE(Document::parse_view(deep).ok());
    std::string deeper(129, '[');
    deeper += std::string(129, ']');
    expect_error(deeper, {"nesting deeper than the limit of 128"}, StatusCode::kOutOfRange);
    ParseOptions o;
    o.max_depth = 3;
    EXPECT_TRUE(Document::parse_view("[[[1]]]", o).ok());
    EXPECT_FALSE(Document::parse_view("[[[[1]]]]", o).ok());
    o.max_size = 5;
    auto r = Document::parse_view("[1, 2]", o);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kOutOfRange);
    EXPECT_NE(r.status().message().find("6 bytes, more than the limit of 5"), std::string::npos);
    // Very deep input with the default limit fails cleanly (no recursion in the parser).
    expect_error(std::string(1000000, '['), {"nesting deeper"}, StatusCode::kOutOfRange);
}

TEST(Json, NumberAccessors) {
    Document d = parse_ok(
        "[0, 255, 18446744073709551615, 18446744073709551616, -1, 1.0, 1e2, -0,"
        " -9223372036854775808, 9223372036854775807, 9223372036854775808, 0.1, 1e400, 1e-400,"
        " \"7\", 2.5e-3]");
    Value r = d.root();
    EXPECT_EQ(*r.at(0).get_u64(), 0u);
    EXPECT_EQ(*r.at(1).get_u64(), 255u);
    EXPECT_EQ(*r.at(2).get_u64(), UINT64_MAX);
    auto big = r.at(3).get_u64();
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.status().code(), StatusCode::kOutOfRange);
    EXPECT_NE(big.status().message().find("18446744073709551616 does not fit in 64 bits"),
              std::string::npos);
    EXPECT_NE(r.at(4).get_u64().status().message().find("is negative"), std::string::npos);
    EXPECT_NE(r.at(5).get_u64().status().message().find("1.0 is not an integer"),
              std::string::npos);
    EXPECT_FALSE(r.at(6).get_u64().ok());
    EXPECT_EQ(*r.at(7).get_u64(), 0u);
    EXPECT_EQ(*r.at(4).get_i64(), -1);
    EXPECT_EQ(*r.at(8).get_i64(), INT64_MIN);
    EXPECT_EQ(*r.at(9).get_i64(), INT64_MAX);
    EXPECT_FALSE(r.at(10).get_i64().ok());
    EXPECT_EQ(*r.at(11).get_double(), 0.1);
    EXPECT_EQ(*r.at(6).get_double(), 100.0);
    EXPECT_FALSE(r.at(12).get_double().ok());
    EXPECT_EQ(*r.at(13).get_double(), 0.0);
    EXPECT_EQ(*r.at(15).get_double(), 2.5e-3);
    auto wrong = r.at(14).get_u64();
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.status().message().find("expected number, found string"), std::string::npos);
    EXPECT_NE(r.get_bool().status().message().find("expected boolean, found array"),
              std::string::npos);
    EXPECT_NE(r.at(0).get_string().status().message().find("expected string, found number"),
              std::string::npos);
}

TEST(Json, NumbersKeepTheirExactText) {
    const std::string t =
        "[1.000000000000000000001,123456789012345678901234567890,-0.0,1E400,0.1e-5,-0]";
    Document d = parse_ok(t);
    EXPECT_EQ(write(d.root()), t);
    EXPECT_EQ(d.root().at(1).number_text(), "123456789012345678901234567890");
}

TEST(Json, WriterCompactAndPrettyMatchSerde) {
    Writer w;
    w.begin_object();
    w.key("a");
    w.u64_value(1);
    w.key("b");
    w.begin_array();
    w.bool_value(true);
    w.null_value();
    w.i64_value(-5);
    w.begin_array();
    w.end_array();
    w.begin_object();
    w.end_object();
    w.end_array();
    w.key("s");
    w.string_value("q\"\\/\n\x01\x1f\x7f\xC3\xA9");
    w.end_object();
    EXPECT_EQ(w.str(),
              "{\"a\":1,\"b\":[true,null,-5,[],{}],\"s\":\"q\\\"\\\\/\\n\\u0001\\u001f"
              "\x7f\xC3\xA9\"}");

    Writer p(true);
    p.begin_object();
    p.key("a");
    p.u64_value(1);
    p.key("b");
    p.begin_array();
    p.u64_value(2);
    p.begin_array();
    p.end_array();
    p.begin_object();
    p.key("c");
    p.null_value();
    p.end_object();
    p.end_array();
    p.end_object();
    EXPECT_EQ(
        p.str(),
        "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    [],\n    {\n      \"c\": null\n    }\n  ]\n}");

    Writer d;
    d.begin_array();
    for (double v : {1.0, 0.1, -2.5, 1e21, 1.5e300, 123456789.0, 0.0, -0.0}) d.double_value(v);
    d.double_value(std::numeric_limits<double>::quiet_NaN());
    d.end_array();
    EXPECT_EQ(d.str(), "[1.0,0.1,-2.5,1e21,1.5e300,123456789.0,0.0,-0.0,null]");
}

// Random JSON text built directly (not with Writer), so the writer is checked against it.
void random_json(TestRng& rng, std::string& out, int depth) {
    const uint64_t kind = depth > 5 ? rng.uniform(5) : rng.uniform(7);
    switch (kind) {
        case 0:
            out += "null";
            break;
        case 1:
            out += rng.uniform(2) ? "true" : "false";
            break;
        case 2: {
            static const char* kNums[] = {
                "0",    "-0",   "1",    "255",     "-17",
                "3.25", "1e10", "2E-3", "-0.5e+7", "18446744073709551615"};
            out += kNums[rng.uniform(10)];
            break;
        }
        case 3:
            out += std::to_string(rng.next_u64());
            break;
        case 4: {
            static const char* kStrs[] = {"\"\"",
                                          "\"abc\"",
                                          "\"\\u00e9\\n\"",
                                          "\"\xE2\x82\xAC\"",
                                          "\"\\ud83d\\ude00 x\"",
                                          "\"tab\\t\\\"q\\\"\""};
            out += kStrs[rng.uniform(6)];
            break;
        }
        case 5: {
            out += '[';
            const uint64_t n = rng.uniform(5);
            for (uint64_t i = 0; i < n; ++i) {
                if (i) out += rng.uniform(2) ? "," : " , ";
                random_json(rng, out, depth + 1);
            }
            out += ']';
            break;
        }
        default: {
            out += '{';
            const uint64_t n = rng.uniform(5);
            for (uint64_t i = 0; i < n; ++i) {
                if (i) out += ',';
                out += "\"k";
                out += std::to_string(rng.uniform(4));
                out += "\"\n:";
                random_json(rng, out, depth + 1);
            }
            out += '}';
        }
    }
}

TEST(Json, RoundTripRandomDocuments) {
    TestRng rng(1);
    for (int iter = 0; iter < 2000; ++iter) {
        std::string text;
        random_json(rng, text, 0);
        Document d = parse_ok(text);
        const std::string compact = write(d.root());
        const std::string pretty = write(d.root(), true);
        Document d2 = parse_ok(compact);
        Document d3 = parse_ok(pretty);
        EXPECT_EQ(write(d2.root()), compact);
        EXPECT_EQ(write(d3.root()), compact);
        EXPECT_EQ(write(d3.root(), true), pretty);
        // Compact output has no whitespace outside strings: its length is the input's minus the
        // whitespace this generator puts between tokens (which never occurs inside strings
        // except through escapes).
        std::string stripped;
        for (char c : text) {
            if (c != ' ' && c != '\n') stripped += c;
        }
        // The generator's escapes are re-written by serde's rules: \u00e9 → raw é, \/ unused,
        // \ud83d\ude00 → raw 4-byte UTF-8. Decoded strings must agree.
        if (stripped.find("\\u") == std::string::npos) {
            EXPECT_EQ(compact, stripped);
        }
    }
}

// Mutations of valid documents: parsing never crashes; a mutant that parses re-writes to a
// fixed point.
TEST(Json, MutationFuzzNeverCrashes) {
    TestRng rng(7);
    std::vector<std::string> seeds;
    for (int i = 0; i < 40; ++i) {
        std::string t;
        random_json(rng, t, 0);
        seeds.push_back(t);
    }
    seeds.push_back(R"({"a":[1,2,{"b":"\u00e9\ud83d\ude00"}],"c":-1.5e3,"d":[true,false,null]})");
    static const char kInteresting[] = "{}[]\",:\\u0123456789-+.eEtfn \n\x80\xC3\xED\xF4\xFF";
    size_t accepted = 0;
    const int kIters = 30000;
    for (int iter = 0; iter < kIters; ++iter) {
        std::string t = seeds[rng.uniform(seeds.size())];
        const uint64_t nmut = 1 + rng.uniform(4);
        for (uint64_t m = 0; m < nmut; ++m) {
            const size_t pos = t.empty() ? 0 : rng.uniform(t.size() + 1);
            switch (rng.uniform(6)) {
                case 0:
                    if (pos < t.size()) t[pos] = static_cast<char>(rng.next_u64());
                    break;
                case 1:
                    t.insert(t.begin() + static_cast<std::ptrdiff_t>(pos),
                             kInteresting[rng.uniform(sizeof(kInteresting) - 1)]);
                    break;
                case 2:
                    if (pos < t.size()) t.erase(pos, 1 + rng.uniform(3));
                    break;
                case 3:
                    if (pos < t.size()) {
                        const size_t len = 1 + rng.uniform(std::min<size_t>(8, t.size() - pos));
                        t.insert(pos, t.substr(pos, len));
                    }
                    break;
                case 4:
                    t.resize(pos);
                    break;
                default:
                    if (pos < t.size())
                        t[pos] = kInteresting[rng.uniform(sizeof(kInteresting) - 1)];
            }
        }
        auto r = Document::parse_view(t);
        if (r.ok()) {
            ++accepted;
            const std::string once = write(r->root());
            auto again = Document::parse_view(once);
            ASSERT_TRUE(again.ok()) << once;
            EXPECT_EQ(write(again->root()), once);
        } else {
            EXPECT_FALSE(r.status().message().empty());
        }
    }
    // Both outcomes must be exercised.
    EXPECT_GT(accepted, 100u);
    EXPECT_LT(accepted, static_cast<size_t>(kIters));
}

TEST(Json, RandomBytesNeverCrash) {
    TestRng rng(11);
    for (int iter = 0; iter < 20000; ++iter) {
        std::string t(rng.uniform(40), '\0');
        for (char& c : t) c = static_cast<char>(rng.next_u64());
        auto r = Document::parse_view(t);
        if (r.ok()) {
            EXPECT_TRUE(Document::parse_view(write(r->root())).ok());
        }
    }
}

// Throughput on a C1-shaped document: arrays of 32 byte values, nested a few levels.
TEST(Json, ParseSpeed) {
    TestRng rng(3);
    std::string text = "{\"proofs\":[";
    const size_t target = 50u << 20;
    bool first = true;
    while (text.size() < target) {
        if (!first) text += ',';
        first = false;
        text += "{\"root\":[";
        for (int i = 0; i < 32; ++i) {
            if (i) text += ',';
            text += std::to_string(rng.uniform(256));
        }
        text += "],\"path\":[";
        for (int j = 0; j < 7; ++j) {
            if (j) text += ',';
            text += '[';
            for (int i = 0; i < 32; ++i) {
                if (i) text += ',';
                text += std::to_string(rng.uniform(256));
            }
            text += ']';
        }
        text += "],\"index\":3}";
    }
    text += "]}";
    const double bytes = static_cast<double>(text.size());
    auto cpu_now = [] {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    };
    const double c0 = cpu_now();
    const auto t0 = std::chrono::steady_clock::now();
    auto r = Document::parse(std::move(text));
    const auto t1 = std::chrono::steady_clock::now();
    const double cpu = cpu_now() - c0;
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    const double s = std::chrono::duration<double>(t1 - t0).count();
    std::printf(
        "json parse: %.1f MB in %.3f s wall (%.0f MB/s), %.3f s CPU (%.0f MB/s), %zu "
        "nodes\n",
        bytes / 1e6, s, bytes / 1e6 / s, cpu, bytes / 1e6 / cpu, r->tape_size());
    EXPECT_LT(s, 5.0);  // generous: a shared 2-core machine; the target is well under 1 s
}

}  // namespace
}  // namespace cuzk::util::json
