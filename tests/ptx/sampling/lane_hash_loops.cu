// Kernels whose warps' paths depend on values each lane computes (docs/ptx.md, "Sampling"):
// no two blocks share a class, so a large launch is lowered from a sample of its blocks.
// Written for warpsim's sampling tests; PTX: nvcc -ptx -arch=sm_80 -O3.

// Each lane hashes its index and loops that many times: a warp runs as long as its longest lane.
__global__ void lane_hash_loops(float* out, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  unsigned w = (i / 32) * 2246822519u;
  w ^= w >> 16;
  const unsigned trips = w % 96 + h % 8;
  float acc = 0.0f;
  for (unsigned k = 0; k < trips; ++k) acc = acc * 1.0001f + static_cast<float>(k);
  if (i < static_cast<unsigned>(n)) out[i] = acc;
}

// A linear congruential generator per lane decides, bit by bit, whether to do a step of work,
// as a random generator's skip-ahead does.
__global__ void lcg_skip_ahead(unsigned* state, int rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = i * 747796405u + 2891336453u;
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r) {
    x = x * 1664525u + 1013904223u;
    if (x & 0x80000000u) {
      for (int k = 0; k < 8; ++k) acc = acc * 31u + (x >> k);
    }
  }
  state[i] = acc;
}
