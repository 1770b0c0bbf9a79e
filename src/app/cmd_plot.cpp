#include <stdexcept>

#include "commands.hpp"

namespace rmtsweep::app {

int command_plot(int, char**) { throw std::runtime_error("'plot' is not implemented yet"); }

}  // namespace rmtsweep::app
