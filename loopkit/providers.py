"""The import path chapters and older code use for the transcript adapters; everything lives in
:mod:`loopkit.adapters` (one module per format, plus sources, runs and batching), re-exported here unchanged."""

from .adapters import (CONTAINER_KEYS, DEFAULT_MAX_BYTES, FORMATS, Batch, Run, Trace, TraceError, TraceStream,
                       batches_from_messages, from_anthropic, from_langchain, from_openai_chat,
                       from_openai_responses, iter_runs, iter_trace, load_trace)

__all__ = [
    "FORMATS",
    "CONTAINER_KEYS",
    "DEFAULT_MAX_BYTES",
    "TraceError",
    "Batch",
    "Run",
    "Trace",
    "TraceStream",
    "iter_runs",
    "iter_trace",
    "load_trace",
    "batches_from_messages",
    "from_openai_chat",
    "from_openai_responses",
    "from_anthropic",
    "from_langchain",
]
