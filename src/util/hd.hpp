// CUZK_HD marks functions written once for host and device (formulas above the field level).
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#else
#define CUZK_HD
#endif
