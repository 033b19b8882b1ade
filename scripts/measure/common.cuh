// Shared helpers of the measurement kit (docs/measuring.md): error checks, device facts and the
// raw output convention. Every benchmark prints comment lines starting with '#' and records, one
// per line, whose first field names the record type; scripts/measure/parse.py knows each type's
// fields. Lines are flushed one by one so that a benchmark killed by the driver's time limit
// leaves only whole records behind.
#pragma once

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(call)                                                                           \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_),   \
                         __FILE__, __LINE__, cudaGetErrorString(err_));                    \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

// One record line on stdout, flushed at once.
static inline void record(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stdout, fmt, ap);
    va_end(ap);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

struct DeviceFacts {
    cudaDeviceProp prop;
    int sms;
    int l2_bytes;
};

static inline DeviceFacts device_facts(const char *bench)
{
    DeviceFacts d{};
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&d.prop, 0));
    CK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, 0));
    record("# warpsim-measure %s on %s, cc %d.%d, %d SMs, L2 %d bytes", bench, d.prop.name,
           d.prop.major, d.prop.minor, d.sms, d.l2_bytes);
    return d;
}

static inline double median(std::vector<double> v)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Integer option "--name=value" from argv, or the default.
static inline long long opt_int(int argc, char **argv, const char *name, long long dflt)
{
    size_t n = std::strlen(name);
    for (int i = 1; i < argc; i++)
        if (std::strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
            return std::atoll(argv[i] + n + 1);
    return dflt;
}
