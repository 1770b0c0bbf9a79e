// A file or directory built under a temporary name and renamed into place
// (include/rmtsweep/io/staged_path.hpp).
#include "rmtsweep/io/staged_path.hpp"

#include <filesystem>
#include <utility>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/move_aside.hpp"

namespace fs = std::filesystem;

namespace rmtsweep::io {

std::string StagedPath::fixed_name(const std::string& target, const std::string& suffix) {
  return resolved_path(target) + "." + suffix;
}

StagedPath StagedPath::fixed(std::string target, const std::string& suffix) {
  target = resolved_path(target);
  std::string path = target + "." + suffix;
  return StagedPath(std::move(target), std::move(path));
}

StagedPath StagedPath::fresh(std::string target, const std::string& label) {
  target = resolved_path(target);
  std::string path = aside_name(target, label);
  return StagedPath(std::move(target), std::move(path));
}

StagedPath::StagedPath(StagedPath&& other) noexcept
    : target_(std::move(other.target_)), path_(std::move(other.path_)), owned_(other.owned_) {
  other.owned_ = false;
}

StagedPath& StagedPath::operator=(StagedPath&& other) noexcept {
  if (this != &other) {
    if (owned_) (void)discard();
    target_ = std::move(other.target_);
    path_ = std::move(other.path_);
    owned_ = other.owned_;
    other.owned_ = false;
  }
  return *this;
}

StagedPath::~StagedPath() {
  if (owned_) (void)discard();
}

void StagedPath::remove_leftover(const std::string& entry_extension) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path_, ec);
  if (fs::is_regular_file(status)) {
    if (!fs::remove(path_, ec)) throw os_file_error(path_, "remove an interrupted build's file", ec.value());
    return;
  }
  if (!fs::is_directory(status)) return;
  for (const auto& entry : fs::directory_iterator(path_, ec)) {
    if (entry_extension.empty() || entry.path().extension() != entry_extension) {
      owned_ = false;  // not ours: never removed
      throw InvalidFile(path_, "holds " + entry.path().filename().string() +
                                   ", which no rmtsweep wrote there: move it out, then run the same command");
    }
  }
  fs::remove_all(path_, ec);
  if (ec) throw os_file_error(path_, "remove an interrupted build's directory", ec.value());
}

void StagedPath::put_in_place(const std::string& operation, Sync sync) {
  if (sync == Sync::file_and_directory) sync_file(path_, operation);  // failing, it is removed as unfinished
  owned_ = false;  // a failed rename leaves it where it is: the caller names it (it may be all of the work)
  rename_path(path_, target_, operation);
}

std::error_code StagedPath::discard() noexcept {
  owned_ = false;
  std::error_code ec;
  fs::remove_all(path_, ec);
  return ec;
}

}  // namespace rmtsweep::io
