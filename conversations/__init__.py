"""Pure conversation state machine: flows, steps and sessions with no I/O imports."""
