// The engine policy (simulate::choose_engine): which engine computes a point or a line, from the options, the
// spectrum, this node's memory and the cost model; and the one rule between the engine and a spectrum.
#include <gtest/gtest.h>

#include "point_fixture.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/simulate/engine.hpp"

namespace simulate = rmtsweep::simulate;
namespace test = rmtsweep::test;
using simulate::DenseMemory;
using simulate::Engine;
using simulate::Work;

namespace {

rmtsweep::model::PointParams point_of(int d, double delta = 0.5, double gamma = 0.25) {
  return test::make_point(d, delta, gamma, 1.0, "mean", "prefix:3", "iid");
}

Engine point_engine(int d, const simulate::SimulationOptions& options = {}, double delta = 0.5,
                    double gamma = 0.25) {
  return simulate::choose_engine(point_of(d, delta, gamma), options, Work::point, DenseMemory::fits);
}

// The cost model at delta 0.5, gamma 0.25: Krylov from d = 1600 (measured 0.83 x the dense time there on
// 2 ranks x 1 thread, 0.33 x at 4000 and 0.16 x at 8000 on 1 rank x 2 threads), dense at d = 1250 (1.10 x)
// and 1000 (1.42 x). Dense for N < d Gram points of size 2000.
TEST(EnginePolicy, APointTakesKrylovWhereTheCostModelSaysItIsFaster) {
  EXPECT_EQ(point_engine(4000), Engine::krylov);
  EXPECT_EQ(point_engine(3000), Engine::krylov);
  EXPECT_EQ(point_engine(1600), Engine::krylov);
  EXPECT_EQ(point_engine(1250), Engine::dense);
  EXPECT_EQ(point_engine(1000), Engine::dense);
  EXPECT_EQ(point_engine(2000, {}, 1.0, 2.0), Engine::dense);
}

TEST(EnginePolicy, AStoredSpectrumKeepsAutomaticDense) {
  simulate::SimulationOptions options;
  options.spectrum = true;
  EXPECT_EQ(point_engine(4000, options), Engine::dense);
  EXPECT_EQ(simulate::choose_engine(point_of(4000), options, Work::point, DenseMemory::too_small),
            Engine::dense);
}

TEST(EnginePolicy, APointWhoseDenseEngineDoesNotFitTakesKrylovWhateverTheCostModelSays) {
  EXPECT_EQ(simulate::choose_engine(point_of(1000), {}, Work::point, DenseMemory::too_small), Engine::krylov);
  EXPECT_EQ(simulate::choose_engine(point_of(1000), {}, Work::line, DenseMemory::too_small), Engine::krylov);
}

TEST(EnginePolicy, WithoutTheMemoryTheCostModelAloneDecides) {
  EXPECT_EQ(simulate::choose_engine(point_of(4000), {}, Work::point), Engine::krylov);
  EXPECT_EQ(simulate::choose_engine(point_of(1000), {}, Work::point), Engine::dense);
}

TEST(EnginePolicy, AForcedEngineIsTaken) {
  simulate::SimulationOptions options;
  options.engine = Engine::dense;
  EXPECT_EQ(point_engine(8000, options), Engine::dense);
  EXPECT_EQ(simulate::choose_engine(point_of(8000), options, Work::line, DenseMemory::too_small),
            Engine::dense);
  options.engine = Engine::krylov;
  EXPECT_EQ(point_engine(200, options), Engine::krylov);
  EXPECT_EQ(simulate::choose_engine(point_of(200), options, Work::line), Engine::krylov);
}

// One Krylov basis serves every snr of a line, so a line takes it where a point would not (at d = 1000);
// below min_krylov_line_d the basis's fixed costs outweigh what it saves.
TEST(EnginePolicy, ALineTakesKrylovFromASmallerSizeThanAPointButNeverBelowTheLinesFloor) {
  EXPECT_EQ(simulate::choose_engine(point_of(1000), {}, Work::line, DenseMemory::fits), Engine::krylov);
  EXPECT_EQ(simulate::choose_engine(point_of(1000), {}, Work::point, DenseMemory::fits), Engine::dense);
  EXPECT_EQ(
      simulate::choose_engine(point_of(simulate::min_krylov_line_d - 1), {}, Work::line, DenseMemory::fits),
      Engine::dense);
}

TEST(EnginePolicy, TheKrylovEngineAskedForASpectrumIsRefusedNamingTheEngine) {
  simulate::SimulationOptions options;
  options.engine = Engine::krylov;
  options.spectrum = true;
  for (const Work work : {Work::point, Work::line}) {
    try {
      (void)simulate::choose_engine(point_of(100), options, work, DenseMemory::fits);
      ADD_FAILURE() << "a spectrum from the Krylov engine was accepted";
    } catch (const rmtsweep::InvalidArgument& e) {
      EXPECT_EQ(e.name(), "engine");
      EXPECT_EQ(e.value(), "krylov");
    }
  }
  EXPECT_FALSE(simulate::gives_spectrum(Engine::krylov));
  EXPECT_TRUE(simulate::gives_spectrum(Engine::dense));
}

}  // namespace
