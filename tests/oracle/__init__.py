"""Test oracles: independent move generators the rules engine is cross-checked against."""
