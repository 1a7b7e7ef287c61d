// kope-remote: the agent that runs device operations on a remote host (see remote_agent.cpp).
#include "kope/device/remote_agent.h"

int main(int argc, char** argv) { return kope::device::remote_agent_main(argc, argv); }
