#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_status(int, char**) { throw std::runtime_error("'status' is not implemented yet"); }

}  // namespace rmtsweep::app
