// Device facts for the measurement kit's device.csv and for picking -arch (docs/measuring.md).
// Built as PTX for compute_75 so that it runs (JIT) on any GPU this nvcc supports, before the
// kit knows the architecture.  Records:  dev,KEY,VALUE
#include "common.cuh"

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int driver = 0, runtime = 0, clock_khz = 0, mem_khz = 0, bus = 0, l2 = 0, sms = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    record("dev,name,%s", p.name);
    record("dev,compute_capability,%d.%d", p.major, p.minor);
    record("dev,sm_count,%d", sms);
    record("dev,cuda_driver_version,%d", driver);
    record("dev,cuda_runtime_version,%d", runtime);
    record("dev,sm_clock_attr_khz,%d", clock_khz);
    record("dev,mem_clock_attr_khz,%d", mem_khz);
    record("dev,memory_bus_bits,%d", bus);
    record("dev,l2_cache_bytes,%d", l2);
    record("dev,global_mem_bytes,%zu", p.totalGlobalMem);
    record("dev,shared_mem_per_sm_bytes,%zu", p.sharedMemPerMultiprocessor);
    record("dev,shared_mem_per_block_optin_bytes,%zu", p.sharedMemPerBlockOptin);
    record("dev,max_threads_per_sm,%d", p.maxThreadsPerMultiProcessor);
    record("dev,regs_per_sm,%d", p.regsPerMultiprocessor);
    return 0;
}
