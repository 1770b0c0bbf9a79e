// Why a sweep file carries no Fletcher-32 checksum of its own (docs/reliability.md): with
// Debian 12's parallel HDF5 (1.10.8, Open MPI), a dataset with the Fletcher-32 filter (chunked, as filters
// need) can be written in parallel by collective writes only; the independent write one group leader
// makes of its point's row is refused. So the sweep's points, handed out dynamically and written by
// whichever leader finished them, are checked against their journal records instead (store/verify.hpp).
// What the filter would give is checked too: a byte flipped on the disk fails the read.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"

namespace io = rmtsweep::io;

namespace {

int rank_of_world() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::string shared_path() {
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return (std::filesystem::temp_directory_path() / ("rmtsweep_fletcher_" + std::to_string(pid) + ".h5"))
      .string();
}

/// A points x 4 dataset of doubles, chunked one row a chunk, with the Fletcher-32 filter (collective).
io::Dataset create_checksummed(hid_t file, hsize_t points) {
  const io::PropertyList dcpl(io::check_id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate"));
  const hsize_t chunk[2] = {1, 4};
  io::check(H5Pset_chunk(dcpl, 2, chunk), "H5Pset_chunk");
  io::check(H5Pset_fletcher32(dcpl), "H5Pset_fletcher32");
  io::check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "H5Pset_alloc_time");  // required in parallel
  const io::Dataspace space = io::simple_dataspace({points, 4});
  return io::Dataset(io::check_id(
      H5Dcreate2(file, "points", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), "H5Dcreate2"));
}

/// Writes row `row` (or nothing, with row < 0) with the transfer mode given; returns H5Dwrite's status.
herr_t write_row(hid_t set, long row, H5FD_mpio_xfer_t mode) {
  const io::PropertyList dxpl(io::check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"));
  io::check(H5Pset_dxpl_mpio(dxpl, mode), "H5Pset_dxpl_mpio");
  const io::Dataspace file_space(io::check_id(H5Dget_space(set), "H5Dget_space"));
  const hsize_t start[2] = {static_cast<hsize_t>(row < 0 ? 0 : row), 0}, count[2] = {row < 0 ? 0u : 1u, 4};
  io::check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr),
            "H5Sselect_hyperslab");
  const io::Dataspace memory = io::simple_dataspace({count[0], 4});
  const std::vector<double> values{1.0, 2.0, 3.0, 4.0};
  return H5Dwrite(set, H5T_NATIVE_DOUBLE, memory, file_space, dxpl, values.data());
}

TEST(ChecksumFilter, ParallelWritesToAFletcherDatasetMustBeCollective) {
  const std::string path = shared_path();
  {
    io::File file = io::create_file(path, MPI_COMM_WORLD);
    const io::Dataset set = create_checksummed(file, 8);
    // A group leader's write of its point: rank 0 alone, independently.
    herr_t independent = 0;
    if (rank_of_world() == 0) {
      H5E_BEGIN_TRY { independent = write_row(set, 3, H5FD_MPIO_INDEPENDENT); }
      H5E_END_TRY;
    }
    MPI_Bcast(&independent, sizeof independent, MPI_BYTE, 0, MPI_COMM_WORLD);
    EXPECT_LT(independent, 0) << "HDF5 wrote a filtered dataset independently: the checksum route is open";
    // The same row written collectively, every other rank taking part with an empty selection: accepted.
    EXPECT_GE(write_row(set, rank_of_world() == 0 ? 3 : -1, H5FD_MPIO_COLLECTIVE), 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of_world() == 0) {
    // The filter's promise: a byte flipped in the chunk's data fails the read (serially here).
    {
      haddr_t offset = 0;
      {
        const io::File file = io::open_file(path, io::Access::read_only);
        const io::Dataset set = io::open_dataset(file, "points");
        const hsize_t at[2] = {3, 0};
        unsigned filter_mask = 0;
        hsize_t bytes = 0;
        ASSERT_GE(H5Dget_chunk_info_by_coord(set, at, &filter_mask, &offset, &bytes), 0);
      }
      std::fstream raw(path, std::ios::in | std::ios::out | std::ios::binary);
      raw.seekp(static_cast<std::streamoff>(offset + 3));
      raw.put('\x7f');
    }
    const io::File file = io::open_file(path, io::Access::read_only);
    const io::Dataset set = io::open_dataset(file, "points");
    std::vector<double> values(32);
    herr_t read = 0;
    H5E_BEGIN_TRY { read = H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()); }
    H5E_END_TRY;
    EXPECT_LT(read, 0) << "a flipped byte read back without an error";
    std::filesystem::remove(path);
  }
}

}  // namespace
