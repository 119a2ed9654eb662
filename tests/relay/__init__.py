"""Tests of the relay (a package: its helpers are imported relatively)."""
