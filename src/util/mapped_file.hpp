// A read-only memory mapping of a whole file (POSIX open + fstat + mmap), RAII.
//
// Invariants: a MappedFile either maps exactly size() bytes of the file (PROT_READ, MAP_PRIVATE)
// or, for an empty file or a moved-from object, maps nothing and bytes() is empty. The mapping is
// released in the destructor. The file must not be truncated while mapped (the kernel would
// deliver SIGBUS on access past the new end) — parameter caches are immutable, which is what this
// is for. Access hints: MADV_SEQUENTIAL and MADV_WILLNEED (failures of madvise are ignored; they
// are only hints). Errors are IO_ERROR Statuses naming the path, the failing call and errno.
// Thread-safe for concurrent reads of bytes().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "util/status.hpp"

namespace cuzk::util {

class MappedFile {
   public:
    static Result<MappedFile> open(const std::string& path);

    MappedFile() = default;
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const uint8_t> bytes() const { return {data_, size_}; }
    size_t size() const { return size_; }
    const std::string& path() const { return path_; }

   private:
    void release();

    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    std::string path_;
};

}  // namespace cuzk::util
