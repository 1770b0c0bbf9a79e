#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_run(int, char**) { throw std::runtime_error("'run' is not implemented yet"); }

}  // namespace rmtsweep::app
