//===- GpuCopiesTest.cpp - Strided copies as driver rectangles ------------===//
//
// How many 1-D, 2-D and 3-D copies a strided copy becomes, and that running
// those rectangles writes exactly what the strided copy itself writes.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuCopies.h"
#include "wrappers/host/HostCopies.h"

#include "unittests/wrappers/TestSupport.h"

#include <numeric>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

MemRefView view(void *aligned, int64_t offset, std::vector<int64_t> sizes,
                std::vector<int64_t> strides) {
  MemRefView result;
  result.aligned = static_cast<char *>(aligned);
  result.offset = offset;
  result.sizes = std::move(sizes);
  result.strides = std::move(strides);
  result.elementSizeBytes = 4;
  return result;
}

/// The rectangles of a copy from `src` into `dst` (int32 elements).
std::vector<RectangularCopy> rectangles(const MemRefView &dst,
                                        const MemRefView &src) {
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(dst, src, plan));
  std::vector<RectangularCopy> result;
  CHECK(forEachRectangularCopy(plan, [&](const RectangularCopy &copy) {
    result.push_back(copy);
    return true;
  }));
  return result;
}

/// Copies with the rectangles and with runStridedCopy into two buffers that
/// start alike, and checks that they end alike.
void checkSameAsStridedCopy(int64_t dstOffset, std::vector<int64_t> sizes,
                            std::vector<int64_t> dstStrides, int64_t srcOffset,
                            std::vector<int64_t> srcStrides) {
  std::vector<int32_t> src(4096), viaRectangles(4096, -1), viaLoops(4096, -1);
  std::iota(src.begin(), src.end(), 1);
  StridedCopyPlan byRectangles, byLoops;
  REQUIRE_OK(planStridedCopy(
      view(viaRectangles.data(), dstOffset, sizes, dstStrides),
      view(src.data(), srcOffset, sizes, srcStrides), byRectangles));
  REQUIRE_OK(
      planStridedCopy(view(viaLoops.data(), dstOffset, sizes, dstStrides),
                      view(src.data(), srcOffset, sizes, srcStrides), byLoops));
  forEachRectangularCopy(byRectangles, [](const RectangularCopy &copy) {
    runRectangularCopy(copy);
    return true;
  });
  runStridedCopy(byLoops);
  CHECK(viaRectangles == viaLoops);
}

} // namespace

TEST_CASE("a contiguous copy is one 1-D rectangle", "[rectangles]") {
  int32_t a[64], b[64];
  auto copies =
      rectangles(view(a, 0, {4, 16}, {16, 1}), view(b, 0, {4, 16}, {16, 1}));
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].dimensions() == 1);
  CHECK(copies[0].widthBytes == 256);
}

TEST_CASE("a window of a matrix is one 2-D rectangle", "[rectangles]") {
  int32_t matrix[36], block[6];
  // A 2x3 block into the (2,1) window of a 6x6 matrix.
  auto copies = rectangles(view(matrix, 13, {2, 3}, {6, 1}),
                           view(block, 0, {2, 3}, {3, 1}));
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].dimensions() == 2);
  CHECK(copies[0].dst == reinterpret_cast<char *>(matrix + 13));
  CHECK(copies[0].widthBytes == 12);
  CHECK(copies[0].height == 2);
  CHECK(copies[0].dstPitch == 24);
  CHECK(copies[0].srcPitch == 12);
}

TEST_CASE("a sub-volume of a 3-D array is one 3-D rectangle", "[rectangles]") {
  std::vector<int32_t> volume(8 * 8 * 8), box(2 * 3 * 4);
  auto copies =
      rectangles(view(box.data(), 0, {2, 3, 4}, {12, 4, 1}),
                 view(volume.data(), 64 + 8 + 1, {2, 3, 4}, {64, 8, 1}));
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].dimensions() == 3);
  CHECK(copies[0].depth == 2);
  CHECK(copies[0].height == 3);
  CHECK(copies[0].srcPitch == 32);
  CHECK(copies[0].srcHeight == 8);
  CHECK(copies[0].dstHeight == 3);
}

TEST_CASE("strides that no rectangle takes become more rectangles",
          "[rectangles]") {
  int32_t a[64], b[64];
  // Reversed rows: a negative pitch, so one contiguous run per row.
  auto reversed =
      rectangles(view(a, 0, {4, 8}, {8, 1}), view(b, 24, {4, 8}, {-8, 1}));
  CHECK(reversed.size() == 4);
  for (const RectangularCopy &copy : reversed)
    CHECK(copy.dimensions() == 1);
  // A slice stride that is not a whole number of rows: 2-D copies per slice.
  std::vector<int32_t> c(512), d(512);
  auto uneven = rectangles(view(c.data(), 0, {3, 2, 4}, {8, 4, 1}),
                           view(d.data(), 0, {3, 2, 4}, {20, 6, 1}));
  CHECK(uneven.size() == 3);
  for (const RectangularCopy &copy : uneven)
    CHECK(copy.dimensions() == 2);
  // Slices that overlap (fewer rows apart than a slice has): the drivers
  // take no slice height below the height, so 2-D copies again.
  auto overlapping = rectangles(view(c.data(), 0, {3, 4, 2}, {8, 2, 1}),
                                view(d.data(), 0, {3, 4, 2}, {6, 3, 1}));
  CHECK(overlapping.size() == 3);
  for (const RectangularCopy &copy : overlapping)
    CHECK(copy.dimensions() == 2);
}

TEST_CASE("rectangles write what the strided copy writes", "[rectangles]") {
  checkSameAsStridedCopy(0, {16}, {1}, 5, {1});
  checkSameAsStridedCopy(3, {5, 7}, {9, 1}, 11, {7, 1});
  checkSameAsStridedCopy(0, {6, 5}, {1, 6}, 0, {5, 1}); // a transpose
  checkSameAsStridedCopy(100, {3, 4, 5}, {40, 10, 2}, 7, {20, 5, 1});
  checkSameAsStridedCopy(2, {2, 3, 4, 5}, {240, 60, 12, 1}, 0, {60, 20, 5, 1});
  checkSameAsStridedCopy(0, {4, 8}, {8, 1}, 24, {-8, 1});
  checkSameAsStridedCopy(500, {3, 2, 4}, {8, 4, 1}, 0, {20, 6, 1});
  checkSameAsStridedCopy(0, {3, 4, 2}, {8, 2, 1}, 0, {6, 3, 1});
  checkSameAsStridedCopy(0, {7, 3}, {3, 1}, 2000, {-200, -2});
}

TEST_CASE("a copy stops at the first rectangle the driver refuses",
          "[rectangles]") {
  int32_t a[64], b[64];
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(a, 0, {4, 8}, {8, 1}),
                             view(b, 24, {4, 8}, {-8, 1}), plan));
  int calls = 0;
  CHECK_FALSE(forEachRectangularCopy(
      plan, [&](const RectangularCopy &) { return ++calls < 2; }));
  CHECK(calls == 2);
}
