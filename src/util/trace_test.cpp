#include "util/trace.hpp"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "util/json.hpp"

namespace cuzk::util {
namespace {

TEST(PhaseTimes, SumsByNameInFirstReportOrder) {
    PhaseTimes t;
    t.add("ntt_h", 2.5);
    t.add("msm_h", 1.0);
    t.add("ntt_h", 0.5);
    ASSERT_EQ(t.entries().size(), 2u);
    EXPECT_EQ(t.entries()[0].first, "ntt_h");
    EXPECT_DOUBLE_EQ(t.get("ntt_h"), 3.0);
    EXPECT_DOUBLE_EQ(t.get("absent"), 0.0);
    PhaseTimes u;
    u.add("msm_h", 4.0);
    u.add("total", 9.0);
    t += u;
    EXPECT_DOUBLE_EQ(t.get("msm_h"), 5.0);
    EXPECT_DOUBLE_EQ(t.get("total"), 9.0);
    EXPECT_EQ(t.entries().back().first, "total");
}

TEST(TraceRecorder, WritesChromeTraceEventsThatParseBack) {
    TraceRecorder rec;
    PhaseTimes times;
    rec.set_process_name(1, "cuzk");
    rec.set_thread_name(100, "gpu0 stream 0");
    {
        PhaseScope a("synthesis", &times, &rec);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::thread other([&] { PhaseScope b("ntt_h", &times, &rec, "gpu"); });
    other.join();
    TraceEvent manual{"h2d", "gpu", 10.0, 5.5, 1, 100, {{"bytes", 4096}}};
    rec.add(manual);

    EXPECT_GE(times.get("synthesis"), 2.0);
    auto doc = json::Document::parse(rec.to_json());
    ASSERT_TRUE(doc.ok()) << doc.status().message();
    auto found = doc->root().find("traceEvents");
    ASSERT_TRUE(found.has_value());
    json::Value events = *found;
    ASSERT_TRUE(events.is_array());
    size_t complete = 0, metadata = 0;
    std::set<uint64_t> tids;
    for (auto e : events.elements()) {
        auto ph = e.find("ph")->get_string();
        ASSERT_TRUE(ph.ok());
        if (*ph == "M") {
            ++metadata;
            continue;
        }
        ASSERT_EQ(*ph, "X");
        ++complete;
        tids.insert(*e.find("tid")->get_u64());
        std::string name(*e.find("name")->get_string());
        if (name == "synthesis") {
            EXPECT_GE(*e.find("dur")->get_double(), 2000.0);
        }
        if (name == "h2d") {
            EXPECT_DOUBLE_EQ(*e.find("args")->find("bytes")->get_double(), 4096.0);
        }
    }
    EXPECT_EQ(complete, 3u);
    EXPECT_EQ(metadata, 2u);
    EXPECT_EQ(tids.size(), 3u);  // two OS threads and the explicit GPU lane
}

// otherData.origin_unix_us: the wall-clock time of ts = 0, between the system clock read before
// the recorder was made and the one read after the trace was written (so traces of different
// origins can be aligned).
TEST(TraceRecorder, NamesTheWallClockTimeOfItsOrigin) {
    auto unix_us = [] {
        return std::chrono::duration<double, std::micro>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    const double before = unix_us();
    TraceRecorder rec;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::string text = rec.to_json();
    const double after = unix_us();
    auto doc = json::Document::parse(text);
    ASSERT_TRUE(doc.ok()) << doc.status().message();
    auto other = doc->root().find("otherData");
    ASSERT_TRUE(other.has_value());
    auto origin = other->find("origin_unix_us");
    ASSERT_TRUE(origin.has_value());
    const double o = *origin->get_double();
    EXPECT_GE(o, before - 1000.0);  // clocks read a few µs apart
    EXPECT_LE(o, after - 20000.0 + 1000.0);  // at least the 20 ms slept before to_json
}

TEST(TraceRecorder, UnwritablePathIsAnError) {
    TraceRecorder rec;
    auto st = rec.write_file("/nonexistent-dir/x/trace.json");
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("/nonexistent-dir/x/trace.json"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::util
