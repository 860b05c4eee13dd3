// ResidencyCache policy with a fake allocator (host only, runs everywhere): hits, LRU eviction of
// idle sets only, in-use sets never evicted, the host fallback when the budget cannot be met,
// failed loads, one shared load for concurrent acquires, leases outliving the cache, and a
// multi-threaded run whose live "device" bytes are checked against the budget. Then ParamsCache
// on the GPU (skipped without a device): real parameter files, the LRU one evicted under a tiny
// budget, the in-use ones kept, the fallback set in pinned host memory with the reader's bytes.
#include "gpu/params_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gpu/coset_bases_save.hpp"
#include "gpu/device.hpp"
#include "gpu/params_test_files.hpp"
#include "groth16/coset_bases.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

// ---- the policy, with a fake device ----

struct FakeDevice;

struct FakeSet {
    std::string key;
    uint64_t device_bytes;
    FakeDevice* device;
    ~FakeSet();
};

struct FakeDevice {
    std::mutex mutex;
    uint64_t live = 0;  // device bytes of FakeSets alive
    std::map<std::string, uint64_t> sizes;
    std::set<std::string> failing;
    std::vector<std::pair<std::string, bool>> loads;  // (key, allow_device)
    std::chrono::milliseconds delay{0};

    CacheBackend backend() {
        CacheBackend b;
        b.estimate = [this](const std::string& key) -> util::Result<uint64_t> {
            std::lock_guard lock(mutex);
            auto it = sizes.find(key);
            if (it == sizes.end()) return util::Status(util::StatusCode::kNotFound, key);
            return it->second;
        };
        b.load = [this](const std::string& key, bool allow_device) -> util::Result<CacheValue> {
            std::this_thread::sleep_for(delay);
            std::lock_guard lock(mutex);
            loads.emplace_back(key, allow_device);
            if (failing.count(key) != 0) {
                std::string msg = key;
                msg += ": cannot load";
                return util::io_error(std::move(msg));
            }
            const uint64_t bytes = allow_device ? sizes.at(key) : 0;
            live += bytes;
            CacheValue v;
            v.device_bytes = bytes;
            v.value = std::make_shared<const FakeSet>(key, bytes, this);  // no temporary FakeSet
            return v;
        };
        return b;
    }
    uint64_t live_bytes() {
        std::lock_guard lock(mutex);
        return live;
    }
    size_t load_count() {
        std::lock_guard lock(mutex);
        return loads.size();
    }
};

FakeSet::~FakeSet() {
    std::lock_guard lock(device->mutex);
    device->live -= device_bytes;
}

const FakeSet& set_of(const ResidencyCache::Lease& lease) {
    return *static_cast<const FakeSet*>(lease.get());
}

std::vector<std::string> keys_of(const ResidencyCache& cache) {
    std::vector<std::string> keys;
    for (const auto& e : cache.entries()) keys.push_back(e.key);
    return keys;
}

// Acquires and immediately releases (a use that leaves the set idle).
void touch(ResidencyCache& cache, const std::string& key) {
    auto lease = cache.acquire(key);
    ASSERT_TRUE(lease.ok()) << lease.status().to_string();
}

TEST(ResidencyCachePolicy, HitsShareTheLoadedValue) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}};
    ResidencyCache cache(100, dev.backend());
    auto first = cache.acquire("a");
    auto second = cache.acquire("a");
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_EQ(first->get(), second->get());
    EXPECT_EQ(set_of(*first).key, "a");
    EXPECT_EQ(first->key(), "a");
    EXPECT_EQ(dev.load_count(), 1u);
    const CacheStats s = cache.stats();
    EXPECT_EQ(s.hits, 1u);
    EXPECT_EQ(s.misses, 1u);
    EXPECT_EQ(s.used_bytes, 40u);
    EXPECT_EQ(s.pinned_entries, 1u);
    ASSERT_EQ(cache.entries().size(), 1u);
    EXPECT_EQ(cache.entries()[0].pins, 2u);
}

// insert(): a permanent entry made elsewhere — found without a load, counted in the budget (idle
// sets make room for it), never evicted by evict(), evict_all_idle() or the LRU policy.
TEST(ResidencyCachePolicy, InsertedEntryIsPermanentAndCounted) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}, {"b", 40}, {"c", 40}};
    ResidencyCache cache(100, dev.backend());
    touch(cache, "a");
    touch(cache, "b");
    {
        std::lock_guard lock(dev.mutex);
        dev.live += 50;
    }
    CacheValue made;
    made.device_bytes = 50;
    made.value = std::make_shared<const FakeSet>("gen", 50, &dev);
    ASSERT_TRUE(cache.insert("gen", std::move(made)).ok());
    // 40 + 40 + 50 > 100: the least recently used idle set (a) made room.
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"gen", "b"}));
    EXPECT_EQ(cache.stats().used_bytes, 90u);
    EXPECT_EQ(dev.live_bytes(), 90u);
    {
        auto lease = cache.acquire("gen");
        ASSERT_TRUE(lease.ok());
        EXPECT_EQ(set_of(*lease).key, "gen");
    }
    EXPECT_EQ(dev.load_count(), 2u);  // a and b only
    EXPECT_FALSE(cache.evict("gen"));
    EXPECT_EQ(cache.evict_all_idle(), 1u);  // b
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"gen"}));
    touch(cache, "a");
    touch(cache, "c");  // 50 + 40 + 40 > 100: a goes, gen stays
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"c", "gen"}));
    EXPECT_EQ(cache.stats().used_bytes, 90u);
    const std::vector<CacheEntryInfo> info = cache.entries();
    EXPECT_FALSE(info[0].permanent);
    EXPECT_TRUE(info[1].permanent);
    // The key is taken (inserted or loaded).
    CacheValue again;
    again.value = std::make_shared<const FakeSet>("x", 0, &dev);
    EXPECT_FALSE(cache.insert("gen", std::move(again)).ok());
    CacheValue over_c;
    over_c.value = std::make_shared<const FakeSet>("y", 0, &dev);
    EXPECT_FALSE(cache.insert("c", std::move(over_c)).ok());
}

// An inserted entry larger than what can be freed is kept anyway (used may exceed the budget).
TEST(ResidencyCachePolicy, InsertBeyondTheBudgetIsKept) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}};
    ResidencyCache cache(100, dev.backend());
    auto pinned = cache.acquire("a");
    ASSERT_TRUE(pinned.ok());
    CacheValue made;
    made.device_bytes = 80;
    made.value = std::make_shared<const FakeSet>("gen", 0, &dev);
    ASSERT_TRUE(cache.insert("gen", std::move(made)).ok());
    EXPECT_EQ(cache.stats().used_bytes, 120u);
    EXPECT_EQ(cache.entries().size(), 2u);
}

TEST(ResidencyCachePolicy, EvictsTheLeastRecentlyUsedIdleSet) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}, {"b", 40}, {"c", 40}};
    ResidencyCache cache(100, dev.backend());
    touch(cache, "a");
    touch(cache, "b");
    touch(cache, "a");  // b is now the least recently used
    touch(cache, "c");
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"c", "a"}));
    EXPECT_EQ(dev.live_bytes(), 80u);
    EXPECT_EQ(cache.stats().evictions, 1u);
    EXPECT_EQ(cache.stats().used_bytes, 80u);
    touch(cache, "b");  // evicts a (c was used later)
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"b", "c"}));
    EXPECT_EQ(dev.live_bytes(), 80u);
    EXPECT_EQ(dev.load_count(), 4u);
}

TEST(ResidencyCachePolicy, NeverEvictsASetInUse) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}, {"b", 40}, {"c", 40}, {"d", 40}};
    ResidencyCache cache(100, dev.backend());
    auto a = cache.acquire("a");  // held throughout: least recently used, but in use
    ASSERT_TRUE(a.ok());
    touch(cache, "b");
    auto c = cache.acquire("c");  // must evict b, not a
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"c", "a"}));
    // Everything on the device is in use: d goes to host memory, nothing is evicted.
    auto d = cache.acquire("d");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(dev.loads.back(), std::make_pair(std::string("d"), false));
    EXPECT_EQ(set_of(*d).device_bytes, 0u);
    EXPECT_EQ(cache.stats().host_fallbacks, 1u);
    EXPECT_EQ(cache.stats().evictions, 1u);
    EXPECT_EQ(set_of(*a).key, "a");
    EXPECT_EQ(dev.live_bytes(), 80u);
    EXPECT_FALSE(cache.evict("a"));
    EXPECT_FALSE(cache.evict("c"));
    // Once a is released it is the one evicted for e (d holds no device memory).
    d = ResidencyCache::Lease();
    a = ResidencyCache::Lease();
    dev.sizes["e"] = 40;
    touch(cache, "e");
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"e", "d", "c"}));
    EXPECT_EQ(dev.live_bytes(), 80u);
}

TEST(ResidencyCachePolicy, ASetLargerThanTheBudgetGoesToHostWithoutEvicting) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}, {"big", 150}};
    ResidencyCache cache(100, dev.backend());
    touch(cache, "a");
    auto big = cache.acquire("big");
    ASSERT_TRUE(big.ok());
    EXPECT_EQ(dev.loads.back(), std::make_pair(std::string("big"), false));
    EXPECT_EQ(cache.stats().evictions, 0u);
    EXPECT_EQ(cache.stats().used_bytes, 40u);
    EXPECT_EQ(keys_of(cache).size(), 2u);
}

TEST(ResidencyCachePolicy, FailedLoadsLeaveNoEntry) {
    FakeDevice dev;
    dev.sizes = {{"x", 10}};
    dev.failing = {"x"};
    ResidencyCache cache(100, dev.backend());
    auto x = cache.acquire("x");
    ASSERT_FALSE(x.ok());
    EXPECT_EQ(x.status().code(), util::StatusCode::kIoError);
    EXPECT_TRUE(cache.entries().empty());
    EXPECT_EQ(cache.stats().used_bytes, 0u);
    EXPECT_FALSE(cache.acquire("x").ok());  // tried again, not a cached failure
    EXPECT_EQ(dev.load_count(), 2u);
    dev.failing.clear();
    EXPECT_TRUE(cache.acquire("x").ok());
    // An estimate failure never loads.
    auto unknown = cache.acquire("unknown");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.status().code(), util::StatusCode::kNotFound);
    EXPECT_EQ(dev.load_count(), 3u);
    EXPECT_EQ(cache.stats().failed_loads, 3u);
}

TEST(ResidencyCachePolicy, ConcurrentAcquiresShareOneLoad) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}, {"bad", 10}};
    dev.failing = {"bad"};
    dev.delay = std::chrono::milliseconds(100);
    ResidencyCache cache(100, dev.backend());
    std::vector<const void*> got(8, nullptr);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < got.size(); ++i) {
        threads.emplace_back([&, i] {
            auto lease = cache.acquire("a");
            if (lease.ok()) got[i] = lease->get();
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(dev.load_count(), 1u);
    for (const void* p : got) EXPECT_EQ(p, got[0]);
    EXPECT_NE(got[0], nullptr);
    EXPECT_EQ(cache.stats().hits, 7u);

    std::atomic<int> failures{0};
    threads.clear();
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([&] {
            if (!cache.acquire("bad").ok()) ++failures;
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(failures.load(), 8);
    EXPECT_GE(dev.load_count(), 2u);
    EXPECT_LE(dev.load_count(), 9u);
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"a"}));
}

TEST(ResidencyCachePolicy, LeasesOutliveTheCache) {
    FakeDevice dev;
    dev.sizes = {{"a", 40}};
    ResidencyCache::Lease lease;
    {
        ResidencyCache cache(100, dev.backend());
        auto a = cache.acquire("a");
        ASSERT_TRUE(a.ok());
        lease = std::move(*a);
    }
    EXPECT_EQ(set_of(lease).key, "a");
    EXPECT_EQ(dev.live_bytes(), 40u);
    lease = ResidencyCache::Lease();
    EXPECT_EQ(dev.live_bytes(), 0u);
}

TEST(ResidencyCachePolicy, ExplicitEviction) {
    FakeDevice dev;
    dev.sizes = {{"a", 10}, {"b", 10}, {"c", 10}};
    ResidencyCache cache(100, dev.backend());
    touch(cache, "a");
    touch(cache, "b");
    auto c = cache.acquire("c");
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(cache.evict("missing"));
    EXPECT_TRUE(cache.evict("a"));
    EXPECT_EQ(dev.live_bytes(), 20u);
    EXPECT_EQ(cache.evict_all_idle(), 1u);  // b; c is in use
    EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"c"}));
    EXPECT_EQ(dev.live_bytes(), 10u);
}

TEST(ResidencyCachePolicy, ManyThreadsStayWithinTheBudget) {
    FakeDevice dev;
    util::TestRng rng(11);
    std::vector<std::string> keys;
    for (int i = 0; i < 6; ++i) {
        keys.push_back("k");
        keys.back() += std::to_string(i);
        dev.sizes[keys.back()] = 30 + rng.next_u64() % 31;
    }
    const uint64_t budget = 150;
    ResidencyCache cache(budget, dev.backend());
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            util::TestRng local(100 + static_cast<uint64_t>(t));
            for (int op = 0; op < 300; ++op) {
                const std::string& key = keys[local.next_u64() % keys.size()];
                auto lease = cache.acquire(key);
                if (!lease.ok() || set_of(*lease).key != key) {
                    ++wrong;
                    continue;
                }
                if (cache.stats().used_bytes > budget) ++wrong;
                if (local.next_u64() % 4 == 0) std::this_thread::yield();
            }
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(wrong.load(), 0);
    const CacheStats s = cache.stats();
    EXPECT_LE(s.used_bytes, budget);
    EXPECT_EQ(s.pinned_entries, 0u);
    uint64_t sum = 0;
    for (const auto& e : cache.entries()) sum += e.device_bytes;
    EXPECT_EQ(sum, s.used_bytes);
    EXPECT_EQ(dev.live_bytes(), s.used_bytes);  // evicted values are all freed
    EXPECT_EQ(s.hits + s.misses, 8u * 300u);
}

// ---- ParamsCache on the GPU ----

class ParamsCacheGpuTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU parameter cache test skipped";
        }
    }
};

void expect_reader_bytes(const ResidentParams& rp, const std::string& path) {
    auto want = groth16::read_params_file(path);
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    EXPECT_TRUE(rp.vk() == want->vk);
    auto l = rp.download_g1(groth16::Section::kL);
    ASSERT_TRUE(l.ok()) << l.status().to_string();
    ASSERT_EQ(l->size(), want->l.size());
    EXPECT_EQ(std::memcmp(l->data(), want->l.data(), l->size() * sizeof(ec::G1Affine)), 0);
    auto b2 = rp.download_b_g2();
    ASSERT_TRUE(b2.ok()) << b2.status().to_string();
    ASSERT_EQ(b2->size(), want->b_g2.size());
    EXPECT_EQ(std::memcmp(b2->data(), want->b_g2.data(), b2->size() * sizeof(ec::G2Affine)), 0);
}

// The finished shape of an example circuit (ShapeRecorder does not move: filled in place).
void record_shape(const char* circuit_name, r1cs::ShapeRecorder& shape) {
    auto circuit = groth16::examples::make_example_circuit(circuit_name);
    ASSERT_TRUE(circuit.ok()) << circuit_name;
    ASSERT_TRUE(circuit->circuit(shape).ok()) << circuit_name;
    shape.finish();
}

// A file's set with coset-Lagrange H bases: converted on the miss (the same points as the host
// derivation), kept under its own key beside the file's set, found again on a hit; without the
// circuit (a plain acquire of that key) or for a circuit that does not fit, an error.
TEST_F(ParamsCacheGpuTest, CosetLagrangeSetsAreConvertedOnceAndKeptApart) {
    const std::string path = testing::params_file(6, 4);
    ASSERT_FALSE(path.empty());
    r1cs::ShapeRecorder shape;
    record_shape("random:6", shape);
    ASSERT_FALSE(HasFailure());
    ParamsCacheOptions options;
    options.load.placement = Placement::kDevice;
    options.load.subgroup_check = ec::SubgroupCheck::kSkip;
    ParamsCache cache(options);
    const std::string key = ParamsCache::cache_key(path) + ParamsCache::kCosetLagrangeSuffix;
    auto plain = cache.acquire(key);
    EXPECT_EQ(plain.status().code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(plain.status().message().find("acquire_coset_lagrange"), std::string::npos)
        << plain.status().message();
    auto host = groth16::read_params_file(path);
    ASSERT_TRUE(host.ok());
    auto want = groth16::derive_coset_lagrange_sections(*host, shape);
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    {
        auto monomial = cache.acquire(path);
        ASSERT_TRUE(monomial.ok()) << monomial.status().to_string();
        auto coset = cache.acquire_coset_lagrange(path, shape);
        ASSERT_TRUE(coset.ok()) << coset.status().to_string();
        EXPECT_EQ((*monomial)->h_basis(), groth16::HBasis::kMonomial);
        EXPECT_EQ((*coset)->h_basis(), groth16::HBasis::kCosetLagrange);
        EXPECT_TRUE(*(*coset)->download_g1(groth16::Section::kH) == want->h);
        EXPECT_TRUE(*(*coset)->download_g1(groth16::Section::kL) == want->l);
        EXPECT_TRUE((*coset)->c_input() == want->c_input);
        EXPECT_EQ(cache.stats().entries, 2u);
    }
    auto again = cache.acquire_coset_lagrange(path, shape);
    ASSERT_TRUE(again.ok());
    // Misses: the refused plain acquire, the file's set and its conversion (once each).
    EXPECT_EQ(cache.stats().misses, 3u);
    EXPECT_EQ(cache.stats().failed_loads, 1u);
    EXPECT_EQ(cache.stats().hits, 1u);
    // Another circuit's shape for another file's conversion: refused, naming the file.
    r1cs::ShapeRecorder wrong;
    record_shape("random:5", wrong);
    ASSERT_FALSE(HasFailure());
    const std::string path7 = testing::params_file(7, 4);
    ASSERT_FALSE(path7.empty());
    auto bad = cache.acquire_coset_lagrange(path7, wrong);
    EXPECT_EQ(bad.status().code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(bad.status().message().find(path7), std::string::npos) << bad.status().message();
    EXPECT_NE(bad.status().message().find("does not fit"), std::string::npos)
        << bad.status().message();
}

// With a directory for converted sets: the first cache converts and saves; a new cache (a later
// process) reads the saved bases without converting, the same points; a damaged saved file is
// named, converted again and overwritten; a circuit that does not fit is refused even though a
// saved file is there.
TEST_F(ParamsCacheGpuTest, ConvertedSetsAreSavedAndReadBack) {
    const std::string path = testing::params_file(6, 4);
    ASSERT_FALSE(path.empty());
    r1cs::ShapeRecorder shape;
    record_shape("random:6", shape);
    ASSERT_FALSE(HasFailure());
    auto host = groth16::read_params_file(path);
    ASSERT_TRUE(host.ok());
    auto want = groth16::derive_coset_lagrange_sections(*host, shape);
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    const std::string dir = testing::temp_file("converted_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string saved = coset_bases_path(dir, path);
    std::filesystem::remove(saved);

    std::vector<std::string> notices;
    auto make_cache = [&] {
        ParamsCacheOptions options;
        options.load.placement = Placement::kDevice;
        options.load.subgroup_check = ec::SubgroupCheck::kSkip;
        options.coset_bases_dir = dir;
        options.notice = [&](const std::string& m) { notices.push_back(m); };
        return std::make_unique<ParamsCache>(options);
    };
    auto said = [&](const std::string& words) {
        return std::any_of(notices.begin(), notices.end(), [&](const std::string& m) {
            return m.find(words) != std::string::npos;
        });
    };
    auto expect_converted_points = [&](const ParamsCache::Handle& h) {
        EXPECT_EQ(h->h_basis(), groth16::HBasis::kCosetLagrange);
        EXPECT_TRUE(*h->download_g1(groth16::Section::kH) == want->h);
        EXPECT_TRUE(*h->download_g1(groth16::Section::kL) == want->l);
        EXPECT_TRUE(h->c_input() == want->c_input);
    };
    {
        auto cache = make_cache();
        auto h = cache->acquire_coset_lagrange(path, shape);
        ASSERT_TRUE(h.ok()) << h.status().to_string();
        expect_converted_points(*h);
        EXPECT_TRUE(said("converting")) << ::testing::PrintToString(notices);
        EXPECT_TRUE(said("saved to " + saved)) << ::testing::PrintToString(notices);
        EXPECT_TRUE(std::filesystem::exists(saved));
    }
    notices.clear();
    {
        auto cache = make_cache();
        auto h = cache->acquire_coset_lagrange(path, shape);
        ASSERT_TRUE(h.ok()) << h.status().to_string();
        expect_converted_points(*h);
        EXPECT_TRUE(said("with its converted H bases from " + saved))
            << ::testing::PrintToString(notices);
        EXPECT_FALSE(said("converting")) << ::testing::PrintToString(notices);
    }
    notices.clear();
    std::vector<uint8_t> bytes = testing::read_bytes(saved);
    bytes[bytes.size() - 50] ^= 1;  // a byte of the inputs' points
    testing::write_bytes(saved, bytes);
    {
        auto cache = make_cache();
        auto h = cache->acquire_coset_lagrange(path, shape);
        ASSERT_TRUE(h.ok()) << h.status().to_string();
        expect_converted_points(*h);
        EXPECT_TRUE(said("not using " + saved)) << ::testing::PrintToString(notices);
        EXPECT_TRUE(said("digest does not match")) << ::testing::PrintToString(notices);
        EXPECT_TRUE(said("saved to " + saved)) << ::testing::PrintToString(notices);
    }
    EXPECT_TRUE(testing::read_bytes(saved) != bytes);  // overwritten
    notices.clear();
    r1cs::ShapeRecorder wrong;
    record_shape("random:5", wrong);
    ASSERT_FALSE(HasFailure());
    {
        auto cache = make_cache();
        auto bad = cache->acquire_coset_lagrange(path, wrong);
        EXPECT_EQ(bad.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(bad.status().message().find("does not fit"), std::string::npos)
            << bad.status().message();
        EXPECT_TRUE(said("does not fit")) << ::testing::PrintToString(notices);
    }
    std::filesystem::remove_all(dir);
}

TEST_F(ParamsCacheGpuTest, EvictsTheLeastRecentlyUsedFileAndKeepsThoseInUse) {
    const std::string p1 = testing::params_file(5, 1);
    const std::string p2 = testing::params_file(5, 2);
    const std::string p3 = testing::params_file(5, 3);
    ASSERT_FALSE(p1.empty() || p2.empty() || p3.empty());
    auto layout = groth16::inspect_params_file(p1);
    ASSERT_TRUE(layout.ok());
    const uint64_t one = params_resident_bytes(*layout);

    ParamsCacheOptions options;
    options.device_budget_bytes = 2 * one + one / 2;  // room for two sets
    options.load.placement = Placement::kDevice;
    ParamsCache cache(options);
    {
        auto h1 = cache.acquire(p1);
        ASSERT_TRUE(h1.ok()) << h1.status().to_string();
        EXPECT_EQ((*h1)->placement(), Placement::kDevice);
        expect_reader_bytes(**h1, p1);
    }
    {
        auto h2 = cache.acquire(p2);
        ASSERT_TRUE(h2.ok()) << h2.status().to_string();
    }
    {
        auto h3 = cache.acquire(p3);  // evicts p1
        ASSERT_TRUE(h3.ok()) << h3.status().to_string();
        expect_reader_bytes(**h3, p3);
    }
    std::vector<std::string> keys;
    for (const auto& e : cache.entries()) keys.push_back(e.key);
    EXPECT_EQ(keys,
              (std::vector<std::string>{ParamsCache::cache_key(p3), ParamsCache::cache_key(p2)}));
    EXPECT_EQ(cache.stats().used_bytes, 2 * one);

    // Hold both resident sets: p1 cannot evict them and falls back to pinned host memory.
    auto h2 = cache.acquire(p2);
    auto h3 = cache.acquire(p3);
    ASSERT_TRUE(h2.ok() && h3.ok());
    auto h1 = cache.acquire(p1);
    ASSERT_TRUE(h1.ok()) << h1.status().to_string();
    EXPECT_EQ((*h1)->placement(), Placement::kPinnedHost);
    expect_reader_bytes(**h1, p1);
    expect_reader_bytes(**h2, p2);
    EXPECT_EQ(cache.stats().host_fallbacks, 1u);
    EXPECT_EQ(cache.stats().entries, 3u);

    // The same file under another spelling is a hit.
    const size_t slash = p2.rfind('/');
    ASSERT_NE(slash, std::string::npos);
    std::string other = p2.substr(0, slash);
    other += "/./";
    other += p2.substr(slash + 1);
    auto again = cache.acquire(other);
    ASSERT_TRUE(again.ok()) << again.status().to_string();
    EXPECT_EQ(again->get(), h2->get());

    // A damaged file: the load's error, and no entry.
    auto missing = cache.acquire(testing::temp_file("missing.params"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), util::StatusCode::kIoError);
    EXPECT_EQ(cache.stats().entries, 3u);
}

}  // namespace
}  // namespace cuzk::gpu
