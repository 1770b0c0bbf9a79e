// SIGTERM/SIGINT request a stop of the sweep (a batch system's walltime, Ctrl-C).
#include <csignal>

#include "rmtsweep/sweep/runner.hpp"

namespace rmtsweep::sweep {
namespace {

volatile std::sig_atomic_t requested = 0;

extern "C" void on_stop_signal(int signal) { requested = signal; }

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

int stop_signal() noexcept { return static_cast<int>(requested); }

}  // namespace rmtsweep::sweep
