#include "apps/commands.hpp"

int main(int argc, char** argv) { return heat::run_command_line(argc, argv); }
