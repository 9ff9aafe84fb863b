"""The rules of one family of programs each (files, vcs, network, ...)."""
