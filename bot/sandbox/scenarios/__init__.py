"""Scenario files that ship with the sandbox (a package so the TOML files are installed)."""
