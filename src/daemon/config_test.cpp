// The daemon config: TOML files mapped onto DaemonConfig, command-line overrides, byte sizes,
// addresses, and the example file docs/daemon.example.toml (it must load and set every key).
#include "daemon/config.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/address.hpp"

namespace cuzk::daemon {
namespace {

TEST(DaemonConfig, AppliesEveryKey) {
    DaemonConfig c;
    const std::string text =
        "[daemon]\n"
        "listen = \"unix:///tmp/cuzk.sock\"\n"
        "status_listen = \"127.0.0.1:0\"\n"
        "journal_dir = \"/var/lib/cuzk/journal\"\n"
        "trace_dir = \"/var/lib/cuzk/traces\"\n"
        "[srs]\n"
        "params_dir = \"/data/params\"\n"
        "params_subgroup_check = false\n"
        "params_h_basis = \"coset-lagrange\"\n"
        "params_h_basis_dir = \"/data/params/converted\"\n"
        "[scheduler]\n"
        "synthesis_workers = 3\n"
        "prover_workers = 2\n"
        "max_batch_size = 2\n"
        "max_batch_wait_ms = 250\n"
        "look_ahead = 12\n"
        "max_pending_jobs = 10\n"
        "compiled_synthesis = true\n"
        "[memory]\n"
        "host_memory_budget = \"96GiB\"\n"
        "[prover]\n"
        "verify_proofs = false\n"
        "use_gpu = false\n";
    ASSERT_TRUE(apply_toml(text, "t.toml:", c).ok());
    EXPECT_EQ(c.listen, "unix:///tmp/cuzk.sock");
    EXPECT_EQ(c.status_listen, "127.0.0.1:0");
    EXPECT_EQ(c.journal_dir, "/var/lib/cuzk/journal");
    EXPECT_EQ(c.trace_dir, "/var/lib/cuzk/traces");
    EXPECT_EQ(c.params_dir, "/data/params");
    EXPECT_EQ(c.synthesis_workers, 3u);
    EXPECT_EQ(c.prover_workers, 2u);
    EXPECT_FALSE(c.params_subgroup_check);
    EXPECT_EQ(c.params_h_basis, "coset-lagrange");
    EXPECT_EQ(c.params_h_basis_dir, "/data/params/converted");
    EXPECT_EQ(c.max_batch_size, 2u);
    EXPECT_EQ(c.max_batch_wait_ms, 250u);
    EXPECT_EQ(c.look_ahead, 12u);
    EXPECT_EQ(c.max_pending_jobs, 10u);
    EXPECT_EQ(c.compiled_synthesis, std::optional<bool>(true));
    EXPECT_EQ(c.host_memory_budget_bytes, 96ull << 30);
    EXPECT_FALSE(c.verify_proofs);
    EXPECT_FALSE(c.use_gpu);
}

TEST(DaemonConfig, DefaultsStayWhenKeysAreAbsent) {
    DaemonConfig c;
    ASSERT_TRUE(apply_toml("# nothing\n[scheduler]\nmax_batch_size = 5\n", "t:", c).ok());
    const DaemonConfig d;
    EXPECT_EQ(c.max_batch_size, 5u);
    EXPECT_EQ(c.listen, d.listen);
    EXPECT_EQ(c.synthesis_workers, d.synthesis_workers);
    EXPECT_EQ(c.verify_proofs, d.verify_proofs);
    EXPECT_FALSE(c.compiled_synthesis.has_value());
    EXPECT_EQ(c.host_memory_budget_bytes, 0u);
}

void expect_config_error(const std::string& text, const std::string& part) {
    DaemonConfig c;
    c.max_batch_size = 7;
    auto st = apply_toml(text, "cuzk.toml:", c);
    ASSERT_FALSE(st.ok()) << text;
    EXPECT_EQ(st.message().rfind("cuzk.toml: line ", 0), 0u) << st.message();
    EXPECT_NE(st.message().find(part), std::string::npos) << st.message();
    EXPECT_EQ(c.max_batch_size, 7u) << "a failed load must leave the config unchanged";
}

TEST(DaemonConfig, ErrorsNameLineAndKey) {
    expect_config_error("[scheduler]\nmax_batch_size = 2\nmax_btach_size = 3\n",
                        "line 3: unknown key 'max_btach_size' in [scheduler]");
    expect_config_error("[daemon]\nparams_dir = \"/p\"\n",
                        "line 2: unknown key 'params_dir' in [daemon] (it belongs in [srs])");
    expect_config_error("listen = \"x:1\"\n",
                        "line 1: key 'listen' must be inside a table ([daemon])");
    expect_config_error("[gpus]\n", "line 1: unknown table [gpus]");
    expect_config_error("[scheduler]\nmax_batch_size = \"4\"\n",
                        "line 2: max_batch_size must be an integer, not a string");
    expect_config_error("[scheduler]\n\nmax_batch_size = 0\n",
                        "line 3: max_batch_size = 0 is outside 1..");
    expect_config_error("[scheduler]\nmax_pending_jobs = -1\n", "outside");
    expect_config_error("[prover]\nuse_gpu = 1\n", "use_gpu must be true or false, not an integer");
    expect_config_error("[daemon]\nlisten = 9820\n", "listen must be a string");
    expect_config_error("[memory]\nhost_memory_budget = \"96 GB of RAM\"\n",
                        "line 2: host_memory_budget: size '96 GB of RAM': unknown unit");
    expect_config_error("[memory]\nhost_memory_budget = -5\n", "cannot be negative");
    expect_config_error("[srs]\nparams_h_basis = \"lagrange\"\n",
                        "line 2: params_h_basis: unknown H basis 'lagrange' (known: monomial, "
                        "coset-lagrange)");
    expect_config_error("[memory]\nhost_memory_budget = true\n", "must be a size");
    // TOML syntax errors carry the file name and line too.
    expect_config_error("[scheduler]\nmax_batch_size = [1]\n",
                        "line 2: max_batch_size must be an integer, not an array");
    expect_config_error("[prover]\ngpus = [0, \"1\"]\n", "line 2: arrays hold only integers");
}

TEST(DaemonConfig, ByteSizes) {
    struct Case {
        const char* text;
        uint64_t bytes;
    };
    for (const Case& c :
         {Case{"0", 0}, Case{"auto", 0}, Case{"4096", 4096}, Case{"4096B", 4096},
          Case{"1KiB", 1024}, Case{"1K", 1024}, Case{"2 MiB", 2u << 20}, Case{"96GiB", 96ull << 30},
          Case{"96GB", 96ull << 30}, Case{"1.5GiB", 3ull << 29}, Case{"0.5KiB", 512},
          Case{"1TiB", 1ull << 40}, Case{" 8G ", 8ull << 30}, Case{"16383TiB", 16383ull << 40}}) {
        auto r = parse_byte_size(c.text);
        ASSERT_TRUE(r.ok()) << c.text << ": " << r.status().message();
        EXPECT_EQ(*r, c.bytes) << c.text;
    }
    for (const char* bad : {"", "GiB", "-1GiB", "1.GiB", "1.5", "12 parsecs", "1e9",
                            "18446744073709551616", "16777216TiB", "1..5G"}) {
        auto r = parse_byte_size(bad);
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_NE(r.status().message().find("size '"), std::string::npos);
        }
    }
}

TEST(DaemonConfig, CommandLineOverrides) {
    DaemonConfig c;
    ASSERT_TRUE(set_option(c, "max_batch_size", "3").ok());
    ASSERT_TRUE(set_option(c, "host_memory_budget", "512MiB").ok());
    ASSERT_TRUE(set_option(c, "verify_proofs", "false").ok());
    ASSERT_TRUE(set_option(c, "use_gpu", "0").ok());
    ASSERT_TRUE(set_option(c, "params_dir", "/x").ok());
    EXPECT_EQ(c.max_batch_size, 3u);
    EXPECT_EQ(c.host_memory_budget_bytes, 512u << 20);
    EXPECT_FALSE(c.verify_proofs);
    EXPECT_FALSE(c.use_gpu);
    EXPECT_EQ(c.params_dir, "/x");
    EXPECT_FALSE(set_option(c, "max_batch_size", "three").ok());
    EXPECT_FALSE(set_option(c, "max_batch_size", "0").ok());
    EXPECT_FALSE(set_option(c, "verify_proofs", "maybe").ok());
    EXPECT_FALSE(set_option(c, "no_such_key", "1").ok());
    EXPECT_EQ(c.max_batch_size, 3u);
}

// gpus: a TOML array of device numbers (or "0,1" on the command line); checked for range and
// repeats; [] means every device, as an absent key does.
TEST(DaemonConfig, GpusList) {
    DaemonConfig c;
    EXPECT_TRUE(c.gpus.empty());
    EXPECT_EQ(c.prover_workers, 0u);  // one per device
    ASSERT_TRUE(apply_toml("[prover]\ngpus = [0, 2]\n", "f:", c).ok());
    EXPECT_EQ(c.gpus, (std::vector<unsigned>{0, 2}));
    ASSERT_TRUE(apply_toml("[prover]\ngpus = []\n", "f:", c).ok());
    EXPECT_TRUE(c.gpus.empty());
    auto twice = apply_toml("[prover]\ngpus = [1, 1]\n", "f:", c);
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.message().find("line 2: gpus: device 1 is listed twice"), std::string::npos)
        << twice.message();
    auto negative = apply_toml("[prover]\ngpus = [-1]\n", "f:", c);
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.message().find("device -1 is outside"), std::string::npos)
        << negative.message();
    auto scalar = apply_toml("[prover]\ngpus = 0\n", "f:", c);
    ASSERT_FALSE(scalar.ok());
    EXPECT_NE(scalar.message().find("gpus must be an array"), std::string::npos)
        << scalar.message();
    ASSERT_TRUE(set_option(c, "gpus", "3,1").ok());
    EXPECT_EQ(c.gpus, (std::vector<unsigned>{3, 1}));
    ASSERT_TRUE(set_option(c, "gpus", "[0]").ok());
    EXPECT_EQ(c.gpus, (std::vector<unsigned>{0}));
    EXPECT_FALSE(set_option(c, "gpus", "zero").ok());
    EXPECT_FALSE(set_option(c, "gpus", "0,0").ok());
    ASSERT_TRUE(set_option(c, "prover_workers", "0").ok());
}

TEST(DaemonConfig, KeyTableIsComplete) {
    size_t n = 0;
    const ConfigKey* keys = config_keys(&n);
    std::set<std::string> names;
    for (size_t i = 0; i < n; ++i) names.insert(keys[i].key);
    const std::set<std::string> want = {"listen",
                                        "status_listen",
                                        "params_dir",
                                        "journal_dir",
                                        "trace_dir",
                                        "synthesis_workers",
                                        "max_batch_size",
                                        "params_subgroup_check",
                                        "params_h_basis",
                                        "params_h_basis_dir",
                                        "prover_workers",
                                        "max_batch_wait_ms",
                                        "look_ahead",
                                        "max_pending_jobs",
                                        "compiled_synthesis",
                                        "host_memory_budget",
                                        "verify_proofs",
                                        "use_gpu",
                                        "gpus"};
    EXPECT_EQ(names, want);
}

// docs/daemon.example.toml loads and mentions every key (CUZK_SOURCE_DIR is set by CMake).
TEST(DaemonConfig, ExampleFileLoads) {
    const std::string path = std::string(CUZK_SOURCE_DIR) + "/docs/daemon.example.toml";
    DaemonConfig c;
    auto st = load_config_file(path, c);
    ASSERT_TRUE(st.ok()) << st.message();
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    size_t n = 0;
    const ConfigKey* keys = config_keys(&n);
    for (size_t i = 0; i < n; ++i) {
        EXPECT_NE(ss.str().find(std::string(keys[i].key) + " ="), std::string::npos)
            << keys[i].key << " is not in the example file";
    }
}

TEST(DaemonConfig, MissingFileIsAnError) {
    DaemonConfig c;
    auto st = load_config_file("/nonexistent/cuzk.toml", c);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("/nonexistent/cuzk.toml"), std::string::npos);
}

TEST(DaemonAddress, ParsesBothForms) {
    auto u = parse_address("unix:///run/cuzk.sock");
    ASSERT_TRUE(u.ok());
    EXPECT_TRUE(u->is_unix);
    EXPECT_EQ(u->path, "/run/cuzk.sock");
    EXPECT_EQ(grpc_target(*u), "unix:///run/cuzk.sock");
    auto bare = parse_address("/tmp/x.sock");
    ASSERT_TRUE(bare.ok());
    EXPECT_TRUE(bare->is_unix);
    EXPECT_EQ(grpc_target(*bare), "unix:///tmp/x.sock");
    auto rel = parse_address("unix:rel.sock");
    ASSERT_TRUE(rel.ok());
    EXPECT_EQ(rel->path, "rel.sock");
    EXPECT_EQ(grpc_target(*rel), "unix:rel.sock");
    auto t = parse_address("127.0.0.1:9820");
    ASSERT_TRUE(t.ok());
    EXPECT_FALSE(t->is_unix);
    EXPECT_EQ(t->host, "127.0.0.1");
    EXPECT_EQ(t->port, "9820");
    EXPECT_EQ(grpc_target(*t), "127.0.0.1:9820");
    auto v6 = parse_address("[::1]:0");
    ASSERT_TRUE(v6.ok());
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(grpc_target(*v6), "[::1]:0");
    for (const char* bad : {"", "localhost", ":9820", "host:", "host:65536", "host:12a", "::1:80",
                            "[::1]80", "unix://"}) {
        EXPECT_FALSE(parse_address(bad).ok()) << bad;
    }
    const std::string too_long = std::string("unix://") + std::string(120, 'a');
    EXPECT_FALSE(parse_address(too_long).ok());
}

}  // namespace
}  // namespace cuzk::daemon
