#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_point(int, char**) { throw std::runtime_error("'point' is not implemented yet"); }

}  // namespace rmtsweep::app
