// Tests for util/base64: RFC 4648 §10 vectors, OpenSSL's EVP_EncodeBlock as an independent
// encoder on random data, strict rejection of malformed input with the offending offset, and a
// fuzz (never crash; anything accepted is canonical: it re-encodes to the same text).
#include "util/base64.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::util {
namespace {

TEST(Base64, Rfc4648Vectors) {
    const std::pair<const char*, const char*> kVectors[] = {
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    };
    for (const auto& [plain, encoded] : kVectors) {
        EXPECT_EQ(base64_encode(std::string_view(plain)), encoded);
        auto d = base64_decode_to_string(encoded);
        ASSERT_TRUE(d.ok()) << d.status().to_string();
        EXPECT_EQ(*d, plain);
    }
}

TEST(Base64, MatchesOpenSsl) {
    TestRng rng(5);
    for (int iter = 0; iter < 500; ++iter) {
        std::vector<uint8_t> data(rng.uniform(300));
        rng.fill(data.data(), data.size());
        std::string expected((data.size() + 2) / 3 * 4 + 1, '\0');
        const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(expected.data()),
                                      data.data(), static_cast<int>(data.size()));
        expected.resize(static_cast<size_t>(n));
        EXPECT_EQ(base64_encode(data), expected);
        auto back = base64_decode(expected);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(*back, data);
    }
}

void expect_error(std::string_view text, std::string_view fragment) {
    auto r = base64_decode(text);
    ASSERT_FALSE(r.ok()) << "accepted: " << text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(fragment), std::string::npos)
        << text << " → " << r.status().message();
}

TEST(Base64, StrictErrors) {
    expect_error("Zg=", "length 3 is not a multiple of 4");
    expect_error("Zm9vY", "length 5");
    expect_error("Zh==", "non-zero unused bits before the padding at offset 1 ('h')");
    expect_error("Zm9=", "non-zero unused bits before the padding at offset 2 ('9')");
    expect_error("Z===", "misplaced padding at offset 1");
    expect_error("====", "misplaced padding at offset 0");
    expect_error("Zm=v", "padding before the end at offset 2");
    expect_error("Zg==Zm9v", "padding before the end at offset 2");
    expect_error("Zm-v", "invalid character at offset 2 ('-')");
    expect_error("Zm_v", "invalid character at offset 2 ('_')");
    expect_error("Zm9v\nZm9v", "length 9");
    expect_error("Zm9 ", "invalid character at offset 3 (byte 0x20)");
    expect_error("Zm\xC3\xA9", "invalid character at offset 2 (byte 0xc3)");
}

TEST(Base64, FuzzAcceptedInputIsCanonical) {
    TestRng rng(9);
    static const char kChars[] = "ABZaz09+/=-_ \n\x80";
    size_t accepted = 0;
    for (int iter = 0; iter < 50000; ++iter) {
        std::string t(rng.uniform(13), 'A');
        for (char& c : t) c = kChars[rng.uniform(sizeof(kChars) - 1)];
        auto r = base64_decode(t);
        if (r.ok()) {
            ++accepted;
            EXPECT_EQ(base64_encode(*r), t);
        }
    }
    EXPECT_GT(accepted, 10u);
}

}  // namespace
}  // namespace cuzk::util
