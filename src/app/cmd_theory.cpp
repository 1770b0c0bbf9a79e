#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_theory(int, char**) { throw std::runtime_error("'theory' is not implemented yet"); }

}  // namespace rmtsweep::app
