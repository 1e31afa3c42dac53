"""Transcript adapters: turn a recorded agent transcript into the batches DeerFlow's loop detector sees.

A *batch* is one model turn's tool calls, each a ``{"name", "args", "id"}`` dict whose ``args`` are left exactly
as the provider sent them (a JSON string from OpenAI, a dict from Anthropic); the detector normalizes them itself.
The only rewriting is where a format has no arguments field of its own: a shell command stored as text (SWE-agent's
``action``, a mini-swe-agent code fence) becomes ``{"command": ...}``, and a Responses ``local_shell_call`` or
``web_search_call`` item gives its ``action``.

Formats (``format=`` / ``--format``), one small reader each, in a module of its own:
``openai-chat``, ``openai-responses``, ``anthropic``, ``langchain`` (message dicts, ``messages_to_dict``,
``dumpd``, LangGraph / DeerFlow thread states), ``claude-code``, ``codex``, ``openhands`` (V0 events, and V1 events
through :mod:`.openhands_sdk`), ``gemini-cli``, ``inspect-ai``, ``swe-agent``, ``mini-swe-agent``, ``smolagents``,
``gemini-cli-stream`` (:mod:`.gemini_stream`), ``kimi-code``, ``opencode``, ``cline`` (the UI export,
:mod:`.cline_ui`). :mod:`.formats` lists them in detection order. An Aider chat history is refused with the reason.

The pieces: :mod:`.sources` opens paths, ``-`` and streams, compressed input (:mod:`.compression`: gzip, bzip2, xz;
zstd named and refused; limited, its expansion ratio checked as it streams) and zip (Inspect AI ``.eval``) input,
and tells JSON from JSON Lines; :mod:`.json_pieces` reads a large document one value at a time;
:mod:`.finding` finds each run's records (JSON Lines, or a document through :mod:`.documents`); :mod:`.batching`
reads records with a format, groups calls into batches and counts what it read (one :class:`ReadCounts`);
:mod:`.runs` hands out the runs; :mod:`.call_shapes` is the last check against a silent zero; :mod:`.one_run` is the API for a file that
holds one run.

The API::

    iter_runs(source, format="auto", *, max_bytes=DEFAULT_MAX_BYTES, max_record_bytes=DEFAULT_MAX_RECORD_BYTES,
              skip_bad_records=False, on_bad_record=None) -> Iterator[Run]
    Run: path, index, label, meta, requested, format, picked_at, container, messages, batches, calls, turns,
         skipped, not_known, bad_records, cut_off (or all at once: counts, a frozen ReadCounts); iterate for
         Batch; describe()
    runs_in(source, format: Format | None, reading: ReadOptions) -> Iterator[Run]   # options parsed already
    Batch(step, where, calls, turn)
    iter_trace(source, format="auto", *, max_bytes=...) -> TraceStream      # a file that holds one run
    load_trace(path, format="auto", *, max_bytes=...) -> Trace             # the same, read whole
    batches_from_messages(records, format="auto", *, source="messages") -> list of batches
    TraceError: every unusable input, its message starting with FILE:LINE, a message index or an archive member
        (BadRecord: one record that skip_bad_records would skip; LimitReached: a size limit, after whole records)

Example::

    for run in iter_runs("output.jsonl.gz"):
        for batch in run:
            detector.observe(batch.calls)
        print(run.label, run.meta, run.describe())
"""

from .base import BadRecord, Batch, Damaged, Format, Message, Skipped, TraceError
from .compression import RATIO_CHECK_AFTER, LimitReached, human_size
from .formats import FORMATS, REGISTRY, get_format
from .one_run import Trace, TraceStream, batches_from_messages, iter_trace, load_trace
from .runs import CONTAINER_KEYS, META_KEYS, ReadCounts, ReadOptions, Run, iter_runs, runs_in
from .sources import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES, TRANSCRIPT_SUFFIXES

__all__ = [
    "FORMATS",
    "REGISTRY",
    "CONTAINER_KEYS",
    "META_KEYS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_RECORD_BYTES",
    "TRANSCRIPT_SUFFIXES",
    "TraceError",
    "BadRecord",
    "LimitReached",
    "RATIO_CHECK_AFTER",
    "human_size",
    "Batch",
    "Damaged",
    "Format",
    "Message",
    "Skipped",
    "ReadCounts",
    "ReadOptions",
    "Run",
    "Trace",
    "TraceStream",
    "get_format",
    "iter_runs",
    "runs_in",
    "iter_trace",
    "load_trace",
    "batches_from_messages",
]
