// Launch overhead (docs/measuring.md), as workloads/measurements/dwt_timing.cu measures it and
// more ways, each over ROUNDS rounds of CALLS calls after 100 warm-up launches:
//   sync         host time (std::chrono) of empty<<<1,1>>>() + cudaDeviceSynchronize(), median
//   api          host time of the launch call alone (cudaLaunchKernel returning), median
//   event_single cudaEvent time around one empty launch (the floor of an event-timed kernel), median
//   back_to_back cudaEvent time of CALLS empty launches in a row / CALLS (launch throughput)
// Records:  launch,KIND,ROUND,CALLS,US      (US: that round's median, or mean for back_to_back)
#include <chrono>

#include "common.cuh"

__global__ void empty_kernel() {}

using Clock = std::chrono::steady_clock;

static double us_since(Clock::time_point a)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - a).count();
}

int main(int argc, char **argv)
{
    const int rounds = (int)opt_int(argc, argv, "--rounds", 5);
    const int calls = (int)opt_int(argc, argv, "--calls", 200);
    device_facts("launch");
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 100; i++) {
        empty_kernel<<<1, 1>>>();
        CK(cudaDeviceSynchronize());
    }
    for (int r = 0; r < rounds; r++) {
        std::vector<double> sync, api, ev;
        for (int i = 0; i < calls; i++) {
            auto t = Clock::now();
            empty_kernel<<<1, 1>>>();
            CK(cudaDeviceSynchronize());
            sync.push_back(us_since(t));
        }
        for (int i = 0; i < calls; i++) {
            auto t = Clock::now();
            empty_kernel<<<1, 1>>>();
            api.push_back(us_since(t));
            CK(cudaDeviceSynchronize());
        }
        for (int i = 0; i < calls; i++) {
            CK(cudaEventRecord(a));
            empty_kernel<<<1, 1>>>();
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float ms = 0.f;
            CK(cudaEventElapsedTime(&ms, a, b));
            ev.push_back(1000.0 * ms);
        }
        CK(cudaEventRecord(a));
        for (int i = 0; i < calls; i++) empty_kernel<<<1, 1>>>();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms = 0.f;
        CK(cudaEventElapsedTime(&ms, a, b));
        record("launch,sync,%d,%d,%.3f", r, calls, median(sync));
        record("launch,api,%d,%d,%.3f", r, calls, median(api));
        record("launch,event_single,%d,%d,%.3f", r, calls, median(ev));
        record("launch,back_to_back,%d,%d,%.3f", r, calls, 1000.0 * ms / calls);
    }
    return 0;
}
