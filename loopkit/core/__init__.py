"""The core: a model of upstream's loop detection at the pinned commit, and the later contract beside it.

Normalization, read buckets and stable keys, fingerprints, bounded dicts, the detector's windows and orderings, and
the middleware hook by hook. It uses the standard library only, and imports nothing from the floors above it.
"""
