"""wispsh: a command gate that stands in for /bin/sh."""
__version__ = "0.1.0"
