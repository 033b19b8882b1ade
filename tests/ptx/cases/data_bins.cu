// data_bins: a histogram of 32-bit values into `bins` counters, written for warpsim's tests: a grid-stride
// loop whose atomic's address depends on the data. With --input 0=zeros every update goes to
// bin 0 (issue 46: what the input holds; colliding atomics); without, the address is unknown.
extern "C" __global__ void histogram(const unsigned* data, unsigned* counts, unsigned n, unsigned bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&counts[data[i] % bins], 1u);
  }
}
