// The HDF5 RAII layer: serial round trips, errors carrying the call, and the parallel pattern
// of the sweep (datasets created collectively, rows written independently by some ranks).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace io = rmtsweep::io;

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// A path in the temp directory unique to this process (serial tests) or shared (parallel).
std::string temp_path(const std::string& stem, bool per_rank) {
  int pid = static_cast<int>(getpid());
  if (!per_rank) MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string name = "rmtsweep_" + stem + "_" + std::to_string(pid);
  if (per_rank) name += "_r" + std::to_string(world_rank());
  return (std::filesystem::temp_directory_path() / (name + ".h5")).string();
}

}  // namespace

TEST(Hdf5Serial, DatasetsAndAttributesRoundTripExactly) {
  const std::string path = temp_path("roundtrip", true);
  {
    const io::File file = io::create_file(path);
    const io::Group group = io::create_group(file, "a/b");
    io::write(io::create_double_dataset(group, "x", {2, 3}), std::vector<double>{1, 2, 3, 4, 5, 6.5});
    io::write(io::create_int_dataset(file, "n", {3}), std::vector<std::int64_t>{-1, 0, 1LL << 40});
    io::write(io::create_string_dataset(file, "s", 2, 8), std::vector<std::string>{"mean", "causal:1"});
    io::write_attribute(file, "text", std::string("line one\nline two"));
    io::write_attribute(group, "pi", 3.25);
    io::write_attribute(group, "count", 7);
  }
  const io::File file = io::open_file(path, io::Access::read_only);
  EXPECT_EQ(io::read_doubles(io::open_dataset(file, "a/b/x")), (std::vector<double>{1, 2, 3, 4, 5, 6.5}));
  EXPECT_EQ(io::shape(io::open_dataset(file, "/a/b/x")), (std::vector<hsize_t>{2, 3}));
  EXPECT_EQ(io::read_ints(io::open_dataset(file, "n")), (std::vector<std::int64_t>{-1, 0, 1LL << 40}));
  EXPECT_EQ(io::read_strings(io::open_dataset(file, "s")), (std::vector<std::string>{"mean", "causal:1"}));
  EXPECT_EQ(io::read_string_attribute(file, "text"), "line one\nline two");
  const io::Group group = io::open_group(file, "a/b");
  EXPECT_EQ(io::read_double_attribute(group, "pi"), 3.25);
  EXPECT_EQ(io::read_int_attribute(group, "count"), 7);
  EXPECT_EQ(io::list_attributes(group), (std::vector<std::string>{"count", "pi"}));
  EXPECT_EQ(io::list_children(file), (std::vector<std::string>{"a", "n", "s"}));
  EXPECT_TRUE(io::exists(file, "/a/b/x"));
  EXPECT_FALSE(io::exists(file, "/a/c/x"));
  std::filesystem::remove(path);
}

TEST(Hdf5Serial, UnwrittenRowsHoldTheFillValueAndRowsCanBeWrittenAlone) {
  const std::string path = temp_path("rows", true);
  const io::File file = io::create_file(path);
  const io::Dataset matrix = io::create_double_dataset(file, "m", {3, 2});
  io::write_rows(matrix, 1, 1, std::vector<double>{7, 8});
  const std::vector<double> all = io::read_doubles(matrix);
  EXPECT_TRUE(std::isnan(all[0]) && std::isnan(all[5]));
  EXPECT_EQ(io::read_double_rows(matrix, 1, 1), (std::vector<double>{7, 8}));
  const io::Dataset strings = io::create_string_dataset(file, "e", 2, 4);
  io::write_rows(strings, 1, 1, std::vector<std::string>{"truncated"});
  EXPECT_EQ(io::read_strings(strings), (std::vector<std::string>{"", "trun"}));
  std::filesystem::remove(path);
}

// what() is one line: the call and the operating system's cause; the stack is kept apart.
TEST(Hdf5Serial, AFailedCallThrowsHdf5ErrorNamingTheCallAndTheCauseWithTheStackApart) {
  try {
    (void)io::open_file("/nonexistent/dir/file.h5", io::Access::read_only);
    FAIL() << "opening a missing file did not throw";
  } catch (const rmtsweep::Hdf5Error& e) {
    EXPECT_EQ(std::string(e.what()), "H5Fopen(/nonexistent/dir/file.h5) failed: No such file or directory");
    EXPECT_EQ(e.cause().os_error, ENOENT);
    EXPECT_FALSE(e.cause().truncated);
    EXPECT_NE(e.stack().find("H5FD_open"), std::string::npos) << e.stack();
    EXPECT_NE(e.stack().find('\n'), std::string::npos) << "one frame a line: " << e.stack();
  }
}

// A file cut short: HDF5's H5E_TRUNCATED is told, with the size the superblock records, and
// io::file_error says so in one line with both sizes and what to do.
TEST(Hdf5Serial, ATruncatedFileIsToldAsTruncatedWithBothSizes) {
  const std::string path = temp_path("truncated", true);
  {
    const io::File file = io::create_file(path);
    io::write(io::create_double_dataset(file, "x", {1000}), std::vector<double>(1000, 1.0));
  }
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  try {
    (void)io::open_file(path, io::Access::read_only);
    FAIL() << "opening a truncated file did not throw";
  } catch (const rmtsweep::Hdf5Error& e) {
    EXPECT_TRUE(e.cause().truncated) << e.what();
    EXPECT_EQ(e.cause().expected_bytes, size);
    const std::string told = io::file_error(path, "open the sweep file", e).what();
    EXPECT_NE(
        told.find(path + ": cannot open the sweep file: the file is truncated (" + std::to_string(size / 2) +
                  " bytes of the " + std::to_string(size) + " bytes HDF5 expects); "),
        std::string::npos)
        << told;
    EXPECT_EQ(told.find('\n'), std::string::npos) << told;
  }
  std::filesystem::remove(path);
}

TEST(Hdf5Serial, HoldersCloseTheirIdOnceAndMoveOwnership) {
  io::Dataspace a = io::simple_dataspace({4});
  const hid_t id = a.get();
  io::Dataspace b = std::move(a);
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(b.get(), id);
  EXPECT_GT(H5Iis_valid(id), 0);
  b.reset();
  EXPECT_LE(H5Iis_valid(id), 0);
}

TEST(Hdf5Parallel, RowsWrittenIndependentlyByEachRankLandInOneSharedFile) {
  const std::string path = temp_path("parallel", false);
  const int rank = world_rank(), size = world_size();
  {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const io::File file = io::create_file(path, comm);
    const io::Dataset values = io::create_double_dataset(file, "values", {static_cast<hsize_t>(size), 2});
    const io::Dataset labels = io::create_string_dataset(file, "labels", static_cast<hsize_t>(size), 6);
    io::write_attribute(file, "ranks", size);  // collective, same value everywhere
    io::flush(file);
    if (rank != 1) {  // rank 1 writes nothing: its row keeps the fill value
      io::write_rows(values, static_cast<hsize_t>(rank), 1, std::vector<double>{rank + 0.5, -rank * 1.0});
      io::write_rows(labels, static_cast<hsize_t>(rank), 1,
                     std::vector<std::string>{"rank" + std::to_string(rank)});
    }
    MPI_Comm_free(&comm);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const io::File file = io::open_file(path, io::Access::read_only);
    const std::vector<double> values = io::read_doubles(io::open_dataset(file, "values"));
    const std::vector<std::string> labels = io::read_strings(io::open_dataset(file, "labels"));
    for (int r = 0; r < size; ++r) {
      if (r == 1) {
        EXPECT_TRUE(std::isnan(values[2]));
        EXPECT_EQ(labels[1], "");
      } else {
        EXPECT_EQ(values[static_cast<std::size_t>(2 * r)], r + 0.5);
        EXPECT_EQ(labels[static_cast<std::size_t>(r)], "rank" + std::to_string(r));
      }
    }
    EXPECT_EQ(io::read_int_attribute(file, "ranks"), size);
    std::filesystem::remove(path);
  }
}

// The sweep's failure messages: a variable-length string dataset is created collectively, but
// parallel HDF5 1.10 refuses to write it through MPI-IO; after the parallel close one process writes chosen
// rows serially, beside a reader that holds the file open, and an empty text there is a null string again.
TEST(Hdf5Parallel, AVariableLengthStringDatasetIsCreatedInParallelAndWrittenSeriallyBesideAReader) {
  const std::string path = temp_path("variable", false);
  const int rank = world_rank();
  {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const io::File file = io::create_file(path, comm);
    const io::Dataset texts = io::create_variable_string_dataset(file, "texts", 4);
    EXPECT_TRUE(io::is_variable_string(texts));
    if (rank == 0) {
      EXPECT_THROW(io::write_strings_at(texts, {1}, {"refused"}), rmtsweep::Hdf5Error);
    }
    MPI_Comm_free(&comm);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    // A reader holding the file open keeps a shared flock on it, as HDF5 does for h5py in a notebook.
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_EQ(::flock(reader, LOCK_SH | LOCK_NB), 0);
    EXPECT_THROW(io::open_file(path, io::Access::read_write), rmtsweep::Hdf5Error) << "HDF5's own lock";
    {
      const io::File writer = io::open_file_beside_readers(path);
      io::write_strings_at(io::open_dataset(writer, "texts"), {3, 1}, {"δ three", "one"});
    }
    {
      const io::File writer = io::open_file_beside_readers(path);
      io::write_strings_at(io::open_dataset(writer, "texts"), {1}, {""});
    }
    const io::File file = io::open_file(path, io::Access::read_only);
    EXPECT_EQ(io::read_strings(io::open_dataset(file, "texts")),
              (std::vector<std::string>{"", "", "", "δ three"}));
    EXPECT_THROW(io::write_strings_at(io::open_dataset(file, "texts"), {4}, {"beyond"}), rmtsweep::Hdf5Error);
    ::close(reader);
    std::filesystem::remove(path);
  }
}
