"""Tests of the Partner API sandbox (a package: its helpers are imported relatively)."""
