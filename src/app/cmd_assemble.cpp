#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_assemble(int, char**) { throw std::runtime_error("'assemble' is not implemented yet"); }

}  // namespace rmtsweep::app
