// KeptCopies: one copy per (space, value), made by the first caller only, dropped by release().
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "strided/core/kept_copies.hpp"

namespace {

using strided::detail::KeptCopies;

/// A copy owned by a shared_ptr whose release the test can see (`alive` expires).
struct Maker {
  std::atomic<int>* made;
  std::weak_ptr<int>* alive;
  std::pair<std::shared_ptr<void>, const void*> operator()() const {
    ++*made;
    auto owner = std::make_shared<int>(*made);
    *alive = owner;
    const void* address = owner.get();
    return {std::move(owner), address};
  }
};

TEST(KeptCopies, MakesOneCopyPerSpaceAndValue) {
  const auto copies = std::make_shared<KeptCopies>();
  const char space_a = 0, space_b = 0;
  const double value = 1, other = 2;
  std::atomic<int> made{0};
  std::weak_ptr<int> alive;
  const void* first = copies->find_or_make(&space_a, &value, Maker{&made, &alive});
  EXPECT_EQ(made, 1);
  EXPECT_EQ(copies->find_or_make(&space_a, &value, Maker{&made, &alive}), first);
  EXPECT_EQ(made, 1);
  EXPECT_NE(copies->find_or_make(&space_b, &value, Maker{&made, &alive}), first);
  EXPECT_NE(copies->find_or_make(&space_a, &other, Maker{&made, &alive}), first);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(copies->size(), 3u);
}

TEST(KeptCopies, ReleaseDropsTheCopiesAndLaterCallsMakeThemAgain) {
  const auto copies = std::make_shared<KeptCopies>();
  const char space = 0;
  const double value = 1;
  std::atomic<int> made{0};
  std::weak_ptr<int> alive;
  (void)copies->find_or_make(&space, &value, Maker{&made, &alive});
  EXPECT_FALSE(alive.expired());
  copies->release();
  EXPECT_TRUE(alive.expired());
  EXPECT_EQ(copies->size(), 0u);
  (void)copies->find_or_make(&space, &value, Maker{&made, &alive});
  EXPECT_EQ(made, 2);
  EXPECT_EQ(copies->size(), 1u);
}

TEST(KeptCopies, ThreadsThatAskAtOnceShareOneCopy) {
  const auto copies = std::make_shared<KeptCopies>();
  const char space = 0;
  const double value = 1;
  std::atomic<int> made{0};
  std::weak_ptr<int> alive;
  std::vector<const void*> got(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      got[t] = copies->find_or_make(&space, &value, Maker{&made, &alive});
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(made, 1);
  for (const void* address : got) EXPECT_EQ(address, got[0]);
}

TEST(KeptCopies, IsSharedFromItsOwner) {
  // The backend files a weak reference for Kokkos::finalize (kept_plan.hpp).
  const auto copies = std::make_shared<KeptCopies>();
  EXPECT_EQ(copies->weak_from_this().lock(), copies);
}

}  // namespace
