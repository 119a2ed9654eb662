"""Tests of the simulated WhatsApp Cloud API (a package: its helpers are imported relatively)."""
