"""functools.cache, without importing functools (and the collections package it brings): every agent
command's start-up pays for each module it imports, and the gate's caches need only a dict."""
from __future__ import annotations


def cache(function=None, *, maxsize: int | None = None):
    """`function(*args, **kwargs)` computed once per distinct (hashable) arguments and kept, as functools.cache
    does; with `maxsize`, the results are dropped once there are that many (a warm judge's configs change).
    An exception is not kept. `.cache_clear()` forgets every result."""
    if function is None:
        return lambda f: cache(f, maxsize=maxsize)
    results: dict = {}

    def cached(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return results[key]
        except KeyError:
            pass
        value = function(*args, **kwargs)
        if maxsize is not None and len(results) >= maxsize:
            results.clear()
        results[key] = value
        return value

    cached.__wrapped__ = function
    cached.__name__ = getattr(function, "__name__", "cached")
    cached.__qualname__ = getattr(function, "__qualname__", cached.__name__)
    cached.__doc__ = function.__doc__
    cached.cache_clear = results.clear
    return cached
