"""Synthesis: MCP specifications -> executable, verified services (see `run_synth`)."""
