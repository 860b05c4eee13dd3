// Which device a prover call runs on, for a backend with several devices (gpu_backend).
//
// Representation: one holder count per device — the calls that picked the device and have not
// released it yet (running on it, or waiting for it when there are more callers than devices).
// acquire() takes the device with the fewest holders; among equals, the first at or after a
// round-robin cursor (the device after the last one picked), so that equal devices take turns
// and none is favoured. Invariant: holders(i) = leases alive for device i. With as many callers
// as devices, each caller gets a device of its own (a device with 0 holders always exists when a
// caller arrives, and it is preferred). No CUDA here: the policy is tested on the CPU.
// Thread-safe; a Lease may be released on any thread but must not outlive its picker.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace cuzk::engine {

class DevicePicker {
   public:
    // devices >= 1 (0 is taken as 1).
    explicit DevicePicker(size_t devices);
    DevicePicker(const DevicePicker&) = delete;
    DevicePicker& operator=(const DevicePicker&) = delete;

    class Lease {
       public:
        Lease() = default;
        ~Lease() { release(); }
        Lease(Lease&& other) noexcept : picker_(other.picker_), index_(other.index_) {
            other.picker_ = nullptr;
        }
        Lease& operator=(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

        size_t index() const { return index_; }  // 0 .. devices - 1
        explicit operator bool() const { return picker_ != nullptr; }
        void release();

       private:
        friend class DevicePicker;
        DevicePicker* picker_ = nullptr;
        size_t index_ = 0;
    };

    Lease acquire();

    size_t devices() const { return holders_.size(); }
    // Holders per device now.
    std::vector<unsigned> holders() const;

   private:
    void give_back(size_t index);

    mutable std::mutex mu_;
    std::vector<unsigned> holders_;
    size_t cursor_ = 0;  // where the next tie-break search starts
};

}  // namespace cuzk::engine
