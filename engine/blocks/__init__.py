"""Generic building blocks a ruleset wires together: boards, turn steps, clashes, outcomes."""
