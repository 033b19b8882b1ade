// The warpsim subcommands. Each takes the arguments after its name and returns the exit status;
// InputError escapes to main(), which prints it and exits with status 2.
#pragma once

#include <string>
#include <vector>

namespace warpsim::cli {

using Args = std::vector<std::string>;

int run_core(const Args& args);
int run_simulate(const Args& args);
int run_explain(const Args& args);
int run_lower(const Args& args);
int run_launch(const Args& args);
int run_predict(const Args& args);
int run_plot(const Args& args);
int run_sweep(const Args& args);
int run_gpus(const Args& args);
int run_evaluate(const Args& args);
int run_import(const Args& args);
int run_calibrate(const Args& args);
int run_occupancy(const Args& args);
int run_app(const Args& args);

}  // namespace warpsim::cli
