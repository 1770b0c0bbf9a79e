// The reader of /proc/meminfo (include/rmtsweep/common/meminfo.hpp).
#include "rmtsweep/common/meminfo.hpp"

#include <fstream>
#include <string>

namespace rmtsweep {

double meminfo_bytes(std::string_view key) {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  double kib = 0.0;
  while (meminfo >> name >> kib) {  // lines "MemTotal:   24576000 kB"
    if (name.size() == key.size() + 1 && name.compare(0, key.size(), key) == 0 && name.back() == ':')
      return 1024.0 * kib;
    meminfo.ignore(256, '\n');
  }
  return 0.0;
}

}  // namespace rmtsweep
