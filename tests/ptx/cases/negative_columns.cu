// Block-dependent values that are negative in every block of a box (a halo wider than a block's
// span, as Rodinia's pathfinder has at large iteration counts), written for warpsim's tests:
// their signed shifts (floor), divisions and remainders (toward zero), and masks on either side of
// an `and` decide branches and addresses. The fast path proves these for a box of blocks where the
// value keeps one sign (the box is cut where it changes sign) instead of emulating block by block.
__global__ void negative_columns(const int* src, int* dst, int span, int halo, int cols) {
  const int t = threadIdx.x;
  const int left = span * (int)blockIdx.x - halo;  // negative in the first blocks, or in all
  const int x = left + t;
  const int lo = (left >> 31) & -left;              // nvcc's max(-left, 0): the mask on the left
  const int quotient = x / 8, remainder = x % 8, floor8 = x >> 3;
  const int mixed = x / 3 + x % 5;
  if (t >= lo && x < cols) dst[x + halo] = src[x + halo];
  if (quotient + remainder > -40) dst[floor8 + 2 * halo] = mixed;
  for (int i = lo; i < lo + 4; ++i) {
    if (((x - i) >> 2) & 1) dst[i] += x / 16;
  }
}
