// Included by validation.cu once per committed dataset kernel, with KIT_SRC (its path) and
// KIT_NAME defined: compiles the file as it is at Tile_Width 8, 16 and 32, each build in its own
// namespace (the eight files share entry names). No include guard on purpose.
#define KIT_CAT2(a, b) a##b
#define KIT_CAT(a, b) KIT_CAT2(a, b)
namespace KIT_CAT(KIT_NAME, _T8) {
#define Tile_Width 8
#include KIT_SRC
#undef Tile_Width
#undef THREADS
}
namespace KIT_CAT(KIT_NAME, _T16) {
#define Tile_Width 16
#include KIT_SRC
#undef Tile_Width
#undef THREADS
}
namespace KIT_CAT(KIT_NAME, _T32) {
#define Tile_Width 32
#include KIT_SRC
#undef Tile_Width
#undef THREADS
}
#undef KIT_CAT
#undef KIT_CAT2
