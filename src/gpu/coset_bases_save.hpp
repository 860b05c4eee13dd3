// Saving a resident coset-Lagrange set's converted sections to a file of converted H bases
// (groth16/coset_bases_file.hpp), so that a later process loads them
// (ResidentLoadOptions::coset_bases_file) instead of converting the .params file again.
//
// save_coset_bases(params, path): params must be coset-Lagrange and loaded from a .params file
// (params.path(), whose verifying-key prefix and size become the file's source; the file must
// still be there). h and l are copied back from the device in chunks of whole digest blocks
// (through one pooled pinned buffer) and streamed to "<path>.tmp.…", renamed over path when
// complete. Host memory: one chunk (~64 MiB), never a whole section.
// Errors: kInvalidArgument for a monomial set; IO_ERROR naming the file; CUDA errors as Status.
// Host C++ header (no CUDA types).
#pragma once

#include <string>

#include "gpu/resident_params.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

util::Status save_coset_bases(const ResidentParams& params, const std::string& path,
                              util::ThreadPool* pool = nullptr);

// The converted file's name for a .params file in `dir`: "<dir>/<file name>.coset-lagrange".
std::string coset_bases_path(const std::string& dir, const std::string& params_path);

}  // namespace cuzk::gpu
