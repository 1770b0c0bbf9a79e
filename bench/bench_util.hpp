#pragma once
/// Small helpers shared by the benchmark programs: option lists, wall-clock timing, peak memory.
#include <mpi.h>
#include <sys/resource.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace rmtsweep::bench {

/// "1000,2000,4000" -> {1000, 2000, 4000}.
inline std::vector<int> parse_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) out.push_back(std::stoi(item));
  return out;
}

/// Wall seconds of one call of `work` on this process.
template <class Work>
double seconds_of(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The largest peak resident memory (getrusage ru_maxrss) over the ranks of `comm`, in MB.
inline double peak_rss_mb(MPI_Comm comm) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  double mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  MPI_Allreduce(MPI_IN_PLACE, &mb, 1, MPI_DOUBLE, MPI_MAX, comm);
  return mb;
}

}  // namespace rmtsweep::bench
