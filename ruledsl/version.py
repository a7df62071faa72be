"""The version of ruledsl (the only thing here: every stage may read it)."""

__version__ = "0.1.0"
