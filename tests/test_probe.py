"""loopkit.teaching.probe without a network: stand-in "upstream" files written here, from the helper spec in the foundation
issue (what upstream returns), stand in for the real downloads.

They prove: a file whose sha256 differs is refused, naming it and both hashes; extraction runs the named
definitions and nothing else; the claim table agrees when the stand-ins agree with loopkit and flags exactly the
claims a deliberately wrong stand-in breaks; offline, it says so in one line and touches no network.
"""

import dataclasses
import hashlib
import http.client
import pathlib
import re
import sys
import textwrap
import urllib.error
import urllib.request

import pytest

from loopkit import LRUDict
from loopkit.core import upstream
from loopkit.teaching import probe

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import record_probe  # noqa: E402

MIDDLEWARE = f"{upstream.MIDDLEWARE_DIR}/loop_detection_middleware.py"
BOUNDED = f"{upstream.MIDDLEWARE_DIR}/_bounded_dict.py"
PINNED_MIDDLEWARE_SHA = "7a3ea6d6998635a7846ac3b51f006a847dff427de93837e6bf51ddf53e484e89"  # from the issue
PINNED_BOUNDED_SHA = "faf5ec8f072dc0fca4e6c49dcecebb4f871d981525bc6dc46a360cbc696dbd0a"

# A stand-in for the middleware module: the three helpers written from the spec, surrounded by code that must not
# run (a third-party import, a missing module, a side effect, a raise, another function and a class).
MIDDLEWARE_SOURCE = '''\
"""Stand-in middleware module for loopkit's probe tests."""
import hashlib
import json
import logging
import pathlib
from typing import override  # Python 3.12+: on 3.11 this import fails if it is ever run

import loopkit_tests_no_such_module
from langchain.agents import AgentState

pathlib.Path(MARKER).write_text("the module body ran")
raise RuntimeError("the module body must never run")

logger = logging.getLogger(__name__)
READ_BUCKET = 200
SALIENT = ("path", "url", "query", "command", "pattern", "glob", "cmd")
FULL_ARGS = frozenset({"write_file", "str_replace"})


def _normalize_tool_call_args(raw):
    if isinstance(raw, dict):
        return raw, None
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {}, raw
        if isinstance(parsed, dict):
            return parsed, None
        return {}, NON_DICT_JSON
    if raw is None:
        return {}, None
    return {}, json.dumps(raw, sort_keys=True, default=str)


def _stable_tool_key(name, args, fallback):
    if name == "read_file" and fallback is None:
        def line(value, default):
            if value is None:
                return default
            try:
                return int(value)
            except (TypeError, ValueError):
                return default
        first = line(args.get("start_line"), 1)
        last = line(args.get("end_line"), first)
        low, high = sorted((first, last))
        low, high = max(low, 1), max(high, 1)
        return f"{args.get('path') or ''}:{(low - 1) // READ_BUCKET}-{(high - 1) // READ_BUCKET}"
    if name in FULL_ARGS:
        return fallback if fallback is not None else json.dumps(args, sort_keys=True, default=str)
    picked = {k: args[k] for k in SALIENT if args.get(k) is not None}
    if picked:
        return json.dumps(picked, sort_keys=True, default=str)
    return fallback if fallback is not None else json.dumps(args, sort_keys=True, default=str)


def _hash_tool_calls(calls):
    entries = []
    for call in calls:
        name = call.get("name", "")
        args, fallback = _normalize_tool_call_args(call.get("args", {}))
        entries.append(f"{name}:{_stable_tool_key(name, args, fallback)}")
    ORDER(entries)
    return hashlib.md5(json.dumps(entries, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _not_kept():
    pathlib.Path(MARKER).write_text("another function ran")


class LoopDetectionMiddleware(AgentState):
    @override
    def after_model(self, state):
        return _hash_tool_calls(state)
'''

BOUNDED_SOURCE = '''\
"""Stand-in bounded dict module for loopkit's probe tests."""
from __future__ import annotations

import pathlib
from collections import OrderedDict

pathlib.Path(MARKER).write_text("the module body ran")


class BoundedDict(OrderedDict):
    def __init__(self, maxsize: int = 1000, *args: Any, **kwargs: Any) -> None:
        self.maxsize = maxsize
        super().__init__(*args, **kwargs)

    def __setitem__(self, key: Any, value: Any) -> None:
        if key in self:
            REFRESH
        elif len(self) >= self.maxsize:
            self.popitem(last=False)
        super().__setitem__(key, value)
'''


def write_standins(root, marker, *, non_dict_json="json.dumps(parsed, sort_keys=True, default=str)",
                   order="entries.sort()", refresh="pass"):
    """Write the two stand-ins under ``root`` (full upstream paths); return {path: bytes}."""
    texts = {
        MIDDLEWARE: MIDDLEWARE_SOURCE.replace("MARKER", repr(str(marker)))
        .replace("NON_DICT_JSON", non_dict_json)
        .replace("ORDER(entries)", order),
        BOUNDED: BOUNDED_SOURCE.replace("MARKER", repr(str(marker))).replace("REFRESH", refresh),
    }
    data = {}
    for path, text in texts.items():
        target = pathlib.Path(root) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        data[path] = text.encode("utf-8")
    return data


def files_for(data):
    """upstream.FILES with the stand-ins' hashes (computed here with hashlib, not by the probe)."""
    return {path: {**info, "sha256": hashlib.sha256(data[path]).hexdigest()} for path, info in upstream.FILES.items()}


@pytest.fixture
def standins(tmp_path):
    marker = tmp_path / "marker.txt"
    data = write_standins(tmp_path / "repo", marker)
    return tmp_path / "repo", marker, data


def test_the_pinned_facts_are_the_ones_from_the_issue():
    assert upstream.COMMIT == "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    assert upstream.FILES[MIDDLEWARE]["sha256"] == PINNED_MIDDLEWARE_SHA
    assert upstream.FILES[BOUNDED]["sha256"] == PINNED_BOUNDED_SHA
    assert upstream.raw_url(BOUNDED) == (
        "https://raw.githubusercontent.com/bytedance/deer-flow/f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be/"
        "backend/packages/harness/deerflow/agents/middlewares/_bounded_dict.py"
    )


# ---------------------------------------------------------------------------------------------------- hash refusal


def test_a_file_with_another_hash_is_refused_naming_the_file_and_both_hashes(standins):
    root, marker, data = standins
    report = probe.run_probe(fetch=probe.directory_fetcher(root), env={})
    actual = hashlib.sha256(data[MIDDLEWARE]).hexdigest()
    assert report.status == "refused" and not report.ran
    assert report.message.startswith(f"Probe refused: refusing {MIDDLEWARE}: ")
    assert actual in report.message and PINNED_MIDDLEWARE_SHA in report.message
    assert "\n" not in report.message and report.table is None
    assert not marker.exists()


def test_only_the_tampered_file_is_named(standins):
    root, marker, data = standins
    files = files_for(data)
    tampered = data[BOUNDED] + b"\n# one more line\n"

    def fetch(path):
        return tampered if path == BOUNDED else data[path]

    report = probe.run_probe(fetch=fetch, files=files, env={})
    assert report.status == "refused"
    assert BOUNDED in report.message and MIDDLEWARE not in report.message
    assert hashlib.sha256(tampered).hexdigest() in report.message and files[BOUNDED]["sha256"] in report.message


def test_verify_sha256_directly():
    empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # sha256 of no bytes
    probe.verify_sha256("a/b.py", b"", empty)
    with pytest.raises(probe.HashMismatch) as caught:
        probe.verify_sha256("a/b.py", b"x", empty)
    text = str(caught.value)
    assert "a/b.py" in text and empty in text
    assert "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881" in text  # sha256 of b"x"
    with pytest.raises(TypeError, match="must be bytes"):
        probe.verify_sha256("a/b.py", "x", empty)


# ------------------------------------------------------------------------------------------------------ extraction


def test_extraction_runs_the_named_functions_and_nothing_else(standins):
    root, marker, data = standins
    names = upstream.FILES[MIDDLEWARE]["names"]
    ex = probe.extract_definitions(data[MIDDLEWARE], names, filename=MIDDLEWARE)
    assert not marker.exists(), "a statement outside the kept definitions ran"
    assert list(ex.objects) == ["_normalize_tool_call_args", "_stable_tool_key", "_hash_tool_calls"]
    assert ex.imports == ("import hashlib", "import json")  # the kept functions use no other import
    assert ex.constants == ("FULL_ARGS", "READ_BUCKET", "SALIENT")
    # docstring, 3 unused stdlib imports, 2 third-party imports, write, raise, logger, 3 constants (rebuilt as
    # literals, not run), _not_kept, class
    assert ex.skipped == 14
    namespace = ex.objects["_hash_tool_calls"].__globals__
    for absent in ("logger", "LoopDetectionMiddleware", "_not_kept", "AgentState", "pathlib", "logging", "override",
                   "loopkit_tests_no_such_module"):
        assert absent not in namespace
    normalize, key, digest = (ex.objects[n] for n in names)
    assert normalize("[1,2]") == ({}, "[1, 2]")
    assert key("read_file", {"path": "a", "start_line": 201}, None) == "a:1-1"
    call = {"name": "bash", "args": {"command": "ls"}}
    assert digest([call]) == hashlib.md5(b'["bash:{\\"command\\": \\"ls\\"}"]').hexdigest()[:12]


def test_extraction_keeps_the_class_with_lazy_annotations(standins):
    root, marker, data = standins
    ex = probe.extract_definitions(data[BOUNDED], ["BoundedDict"], filename=BOUNDED)
    assert not marker.exists()
    assert ex.imports == ("from collections import OrderedDict",)  # `Any` is only in lazy annotations
    d = ex.objects["BoundedDict"](2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10
    d["c"] = 3
    assert list(d.items()) == [("b", 2), ("c", 3)]


def extract(source, names=("f",)):
    return probe.extract_definitions(textwrap.dedent(source), names, filename="stand_in.py")


def test_a_needed_third_party_name_is_refused_by_name():
    with pytest.raises(probe.ExtractionRefused, match=r"stand_in.py:1: .*'AgentState', imported from langchain"):
        extract("from langchain.agents import AgentState\ndef f(x):\n    return AgentState(x)\n")


def test_an_annotation_evaluated_at_definition_time_counts_but_a_lazy_one_does_not():
    source = "from langchain.agents import AgentState\n{future}def f(x: AgentState) -> int:\n    return 1\n"
    with pytest.raises(probe.ExtractionRefused, match="AgentState"):
        extract(source.format(future=""))
    assert extract(source.format(future="from __future__ import annotations\n")).objects["f"](0) == 1


def test_a_computed_constant_is_refused_and_not_run(tmp_path):
    marker = tmp_path / "m"
    source = f"import pathlib\nLIMIT = pathlib.Path({str(marker)!r}).write_text('ran')\ndef f():\n    return LIMIT\n"
    with pytest.raises(probe.ExtractionRefused, match=r"stand_in.py:2: .*'LIMIT', whose value is computed by code"):
        extract(source)
    assert not marker.exists()


def test_missing_names_unknown_globals_and_syntax_errors_are_refused():
    with pytest.raises(probe.ExtractionRefused, match="no top-level function or class named g, h"):
        extract("def f():\n    pass\n", names=("f", "g", "h"))
    with pytest.raises(probe.ExtractionRefused, match="'helper', which is neither a standard-library import nor"):
        extract("def f():\n    return helper()\n")
    with pytest.raises(probe.ExtractionRefused, match="'helper', another top-level function or class; .* keeps only f"):
        extract("def helper():\n    pass\ndef f():\n    return helper()\n")
    with pytest.raises(probe.ExtractionRefused, match="'print', another top-level function"):
        extract("def print(x):\n    pass\ndef f():\n    return print(1)\n")
    with pytest.raises(probe.ExtractionRefused, match=r"stand_in.py:2: cannot parse"):
        extract("def f():\nreturn 1\n")
    with pytest.raises(TypeError, match="sequence of str"):
        extract("def f():\n    pass\n", names="f")


def test_a_nested_function_is_not_a_top_level_one_and_the_last_definition_wins():
    ex = extract("def f():\n    return 1\ndef outer():\n    def g():\n        pass\ndef f():\n    return 2\n")
    assert ex.objects["f"]() == 2
    with pytest.raises(probe.ExtractionRefused, match="named g"):
        extract("def outer():\n    def g():\n        pass\n", names=("g",))


def test_a_literal_constant_that_shadows_a_builtin_is_provided():
    ex = extract("len = 7\nDATA: dict = {'a': (1, 2)}\ndef f():\n    return len, DATA\n")
    assert ex.objects["f"]() == (7, {"a": (1, 2)}) and ex.constants == ("DATA", "len")


def test_a_container_around_a_literal_is_a_constant_but_a_computed_value_is_not():
    ex = extract("A = frozenset({'x'})\nB = tuple()\ndef f():\n    return A, B\n")
    assert ex.objects["f"]() == (frozenset({"x"}), ())
    with pytest.raises(probe.ExtractionRefused, match="'A', whose value is computed by code"):
        extract("A = frozenset(x for x in 'ab')\ndef f():\n    return A\n")
    with pytest.raises(probe.ExtractionRefused, match="'A', whose value is computed by code"):
        extract("A = sorted([2, 1])\ndef f():\n    return A\n")


def test_local_variable_annotations_never_need_a_name():
    ex = extract("def f():\n    x: SomeThirdPartyType = 1\n    return x\n")
    assert ex.objects["f"]() == 1


def test_decorators_bases_and_defaults_get_their_stdlib_imports():
    ex = extract(
        """\
        import functools
        from collections import OrderedDict as OD
        import os.path
        @functools.lru_cache(maxsize=None)
        def f(sep=os.path.sep):
            return sep
        class K(OD):
            pass
        """,
        names=("f", "K"),
    )
    assert ex.imports == ("import functools", "from collections import OrderedDict as OD", "import os.path")
    assert ex.objects["f"]() in ("/", "\\") and issubclass(ex.objects["K"], dict)


# ------------------------------------------------------------------------------------------------- the claim table


def run_with(tmp_path, **variant):
    marker = tmp_path / "marker.txt"
    data = write_standins(tmp_path / "repo", marker, **variant)
    report = probe.run_probe(fetch=probe.directory_fetcher(tmp_path / "repo"), files=files_for(data), env={},
                             batches=120)
    assert not marker.exists()
    return report


CLAIM_NAMES = [
    "JSON normalization",
    "read buckets",
    "changed-write sensitivity",
    "permutation invariance",
    "multiplicity",
    "insertion-order eviction",
    "digest equality",
]


def test_agreeing_standins_agree_on_every_claim(tmp_path):
    report = run_with(tmp_path)
    assert report.status == "ran"
    assert list(report.table.index) == CLAIM_NAMES
    assert list(report.table.columns) == ["checks", "upstream", "loopkit", "agree"]
    assert report.table["agree"].tolist() == [True] * 7
    assert report.table.loc["insertion-order eviction", "upstream"] == "keeps [('b', 2), ('c', 3)]"
    assert report.table.loc["permutation invariance", "upstream"] == "120/120 shuffled batches keep their digest"
    assert report.message == (
        "Probe ran: 2 files verified by sha256 at f1f4af99bbf1; 7 of 7 claims agree between upstream and loopkit "
        "(all agree)."
    )
    assert set(report.extractions) == {MIDDLEWARE, BOUNDED}


@pytest.mark.parametrize(
    "variant, disagreeing",
    [
        # an unsorted hash: order matters, so shuffles and most multi-call digests differ
        ({"order": "pass"}, ["permutation invariance", "digest equality"]),
        # an update that refreshes recency (LRU on write) instead of keeping its place
        ({"refresh": "self.move_to_end(key)"}, ["insertion-order eviction"]),
        # non-dict JSON kept as the raw text instead of re-serialized
        ({"non_dict_json": "raw"}, ["JSON normalization", "digest equality"]),
    ],
)
def test_a_disagreeing_standin_is_flagged_on_exactly_its_claims(tmp_path, variant, disagreeing):
    report = run_with(tmp_path, **variant)
    table = report.table
    assert sorted(table.index[~table["agree"]]) == sorted(disagreeing)
    assert f"{7 - len(disagreeing)} of 7 claims agree" in report.message
    assert f"DISAGREE on {', '.join(disagreeing)}" in report.message


def test_the_lru_standin_shows_what_it_kept(tmp_path):
    table = run_with(tmp_path, refresh="self.move_to_end(key)").table
    assert table.loc["insertion-order eviction", "upstream"] == "keeps [('a', 10), ('c', 3)]"
    assert table.loc["insertion-order eviction", "loopkit"] == "keeps [('b', 2), ('c', 3)]"


def test_a_raising_upstream_helper_is_a_finding_not_a_crash(tmp_path):
    report = run_with(tmp_path, non_dict_json="1 / 0")
    row = report.table.loc["JSON normalization"]
    assert row["upstream"] == "raised ZeroDivisionError: division by zero" and not row["agree"]


def test_claim_rows_need_two_labels():
    with pytest.raises(ValueError, match="different labels"):
        probe.claim_rows(probe.LOOPKIT_HELPERS)


def test_generated_batches_are_reproducible_and_varied():
    batches = probe.generated_batches(300)
    assert batches == probe.generated_batches(300) and batches != probe.generated_batches(300, seed=8)
    shapes = {type(call.get("args", "missing")).__name__ for batch in batches for call in batch}
    assert shapes >= {"dict", "str", "int", "list", "NoneType"}
    assert any(len(b) != len({repr(c) for c in b}) for b in batches), "no batch repeats a call"
    with pytest.raises(ValueError, match="n must be at least 1, got 0"):
        probe.generated_batches(0)


# ---------------------------------------------------------------------------------------------- offline behaviour


def no_network(path):
    raise AssertionError(f"the probe tried to fetch {path}")


def test_switched_off_it_says_so_in_one_line_and_fetches_nothing():
    report = probe.run_probe(False, fetch=no_network)
    assert report.status == "skipped" and report.table is None and str(report) == report.message
    assert report.message == (
        "Probe did not run: it is switched off (RUN_PROBE = False). Set RUN_PROBE = True, with internet access, "
        "to download and check the pinned upstream files."
    )


@pytest.mark.parametrize("value", ["1", "true", "yes", " 1 "])
def test_loopkit_offline_skips_before_any_fetch(value):
    report = probe.run_probe(fetch=no_network, env={"LOOPKIT_OFFLINE": value})
    assert report.status == "skipped"
    expected = f"Probe did not run: LOOPKIT_OFFLINE={value.strip()} is set, so it makes no network requests."
    assert report.message == expected


@pytest.mark.parametrize("value", ["", "0", "false", "No"])
def test_loopkit_offline_off_values_do_not_skip(value):
    fetched = []

    def fetch(path):
        fetched.append(path)
        raise urllib.error.URLError("stop here")

    probe.run_probe(fetch=fetch, env={"LOOPKIT_OFFLINE": value})
    assert fetched == [MIDDLEWARE]


@pytest.mark.parametrize(
    "error, shown",
    [
        (urllib.error.URLError("[Errno -3] Temporary failure\nin name resolution"),
         "URLError: [Errno -3] Temporary failure in name resolution"),
        (TimeoutError("timed out"), "TimeoutError: timed out"),
        (ConnectionRefusedError(111, "Connection refused"), "ConnectionRefusedError: [Errno 111] Connection refused"),
        # http.client's errors are not OSErrors: a cut-off body, a garbled status line, any other protocol error
        (http.client.IncompleteRead(b"abc", 7), "IncompleteRead: IncompleteRead(3 bytes read, 7 more expected)"),
        (http.client.BadStatusLine("HTTP/9.9 ???"), "BadStatusLine: HTTP/9.9 ???"),
        (http.client.HTTPException("protocol error"), "HTTPException: protocol error"),
        (http.client.InvalidURL("bad host"), "InvalidURL: bad host"),
        # urllib raises ValueError for a URL it cannot even parse
        (ValueError("unknown url type: 'htp:/x'"), "ValueError: unknown url type: 'htp:/x'"),
    ],
)
def test_a_failed_download_says_it_did_not_run_and_why(error, shown):
    def fetch(path):
        raise error

    report = probe.run_probe(fetch=fetch, env={})
    assert report.status == "skipped"
    assert report.message == f"Probe did not run: could not get {MIDDLEWARE} ({shown})."


class FakeResponse:
    def __init__(self, body):
        self.body = body

    def read(self, limit):
        return self.body[:limit]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_url_fetcher_downloads_the_raw_file_with_a_timeout(monkeypatch):
    seen = []

    def urlopen(request, timeout):
        seen.append((request.full_url, timeout))
        return FakeResponse(b"content")

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    assert probe.url_fetcher(timeout=3.5)(BOUNDED) == b"content"
    assert seen == [(upstream.raw_url(BOUNDED), 3.5)]
    assert probe.url_fetcher()(BOUNDED) == b"content" and seen[-1][1] == 20.0


def test_url_fetcher_refuses_an_oversized_download(monkeypatch):
    monkeypatch.setattr(urllib.request, "urlopen", lambda request, timeout: FakeResponse(b"x" * 3_000_000))
    report = probe.run_probe(fetch=probe.url_fetcher(), env={})
    assert report.status == "refused" and "larger than 2000000 bytes" in report.message
    with pytest.raises(ValueError, match="timeout must be more than 0, got 0"):
        probe.url_fetcher(timeout=0)


def test_a_body_cut_off_mid_read_by_the_real_fetcher_is_one_line_too(monkeypatch):
    class CutOff(FakeResponse):
        def read(self, limit):
            raise http.client.IncompleteRead(b"partial", 100)

    monkeypatch.setattr(urllib.request, "urlopen", lambda request, timeout: CutOff(b""))
    report = probe.run_probe(fetch=probe.url_fetcher(), env={})
    assert report.status == "skipped"
    assert report.message == (
        f"Probe did not run: could not get {MIDDLEWARE} (IncompleteRead: IncompleteRead(7 bytes read, 100 more expected))."
    )


def test_directory_fetcher_reads_full_paths_or_bare_file_names(tmp_path):
    (tmp_path / "_bounded_dict.py").write_bytes(b"flat")
    assert probe.directory_fetcher(tmp_path)(BOUNDED) == b"flat"
    with pytest.raises(ValueError, match="existing directory"):
        probe.directory_fetcher(tmp_path / "nope")
    report = probe.run_probe(fetch=probe.directory_fetcher(tmp_path), env={})
    assert report.status == "skipped" and "FileNotFoundError" in report.message


# ------------------------------------------------------------------------------------------------------- in Spanish



def test_the_claims_read_in_spanish(spanish):
    assert [claim.name for claim in probe.CLAIMS] == [
        "normalización JSON",
        "bloques de lectura",
        "sensibilidad a la escritura cambiada",
        "invariancia por permutación",
        "multiplicidad",
        "expulsión por inserción",
        "igualdad de digests",
    ]
    assert probe.CLAIMS[5].checks == "maxsize 2: inserta a, b; actualiza a; inserta c"
    assert probe.CLAIMS[5].english_name == "insertion-order eviction"


def test_the_report_and_its_table_speak_spanish(tmp_path, spanish):
    report = run_with(tmp_path, refresh="self.move_to_end(key)")
    assert report.message == (
        "La sonda se ejecutó: 2 archivos verificados por sha256 en f1f4af99bbf1; 6 de 7 afirmaciones coinciden entre "
        "upstream y loopkit (NO COINCIDEN en expulsión por inserción)."
    )
    table = report.table
    assert table.index.name == "afirmación"
    assert list(table.columns) == ["comprueba", "upstream", "loopkit", "coinciden"]
    assert table.loc["expulsión por inserción", "upstream"] == "conserva [('a', 10), ('c', 3)]"
    assert table.loc["invariancia por permutación", "loopkit"] == "120/120 lotes barajados conservan su digest"
    assert table.loc["igualdad de digests", "loopkit"].startswith("120 valores, sha256 combinado ")
    assert table["coinciden"].tolist() == [True] * 5 + [False, True]


def test_a_copy_keeps_its_own_label_as_a_column_heading_in_spanish(spanish):
    copy = dataclasses.replace(probe.LOOPKIT_HELPERS, label="copia LRU", bounded_dict=LRUDict)
    table = probe.claim_table(copy, batches=10)
    assert list(table.columns) == ["comprueba", "copia LRU", "loopkit", "coinciden"]


def test_the_one_line_reports_speak_spanish(spanish):
    assert probe.run_probe(False, fetch=no_network).message == (
        "La sonda no se ejecutó: está desactivada (RUN_PROBE = False). Pon RUN_PROBE = True, con acceso a internet, "
        "para descargar y comprobar los archivos de upstream del commit fijado."
    )
    assert probe.run_probe(fetch=no_network, env={"LOOPKIT_OFFLINE": "1"}).message == (
        "La sonda no se ejecutó: LOOPKIT_OFFLINE=1 está definida, así que no hace ninguna petición de red."
    )
    source = "import json\nimport not_installed\nprint('side effect')\ndef f(x):\n    return json.dumps(x)\n"
    assert probe.extract_definitions(source, ["f"]).summary() == (
        "definiciones conservadas: f; importaciones: import json; constantes literales: ninguna; "
        "otras instrucciones sin ejecutar: 2"
    )


# ---------------------------------------------------------------------------------------------------- the recorded run
# loopkit/teaching/probe/recorded.py holds what upstream's helpers gave when the probe ran on the pinned files
# (tools/record_probe.py, 2026-12-05): the chapter shows that run offline, beside loopkit computed now.

def test_the_recorded_run_agrees_with_loopkit_on_every_claim():
    report = probe.recorded_run()
    assert report.status == "recorded" and not report.ran
    assert report.message == (
        "Probe replayed from its run of 2026-12-05, when 2 files were verified by sha256 at f1f4af99bbf1: upstream's "
        "column is what they gave then, loopkit's is computed now; 7 of 7 claims agree (all agree).")
    assert list(report.table.columns) == ["checks", "upstream, recorded", "loopkit", "agree"]
    assert report.table["agree"].all()


def test_the_recorded_run_catches_a_copy_that_evicts_by_use():
    lru_copy = dataclasses.replace(probe.LOOPKIT_HELPERS, label="lru copy", bounded_dict=LRUDict)
    rows = probe.recorded_run(lru_copy, as_table=False).rows
    assert [row["claim"] for row in rows if not row["agree"]] == ["insertion-order eviction"]
    assert rows[5]["upstream, recorded"] == "keeps [('b', 2), ('c', 3)]"  # as the issue's spec says upstream keeps
    assert rows[5]["lru copy"] == "keeps [('a', 10), ('c', 3)]"


def test_the_recording_holds_observations_and_names_not_code():
    from loopkit.teaching.probe import recorded

    assert list(recorded.UPSTREAM) == [claim.english_name for claim in probe.CLAIMS]
    digests = recorded.UPSTREAM["digest equality"]
    assert len(digests) == recorded.BATCHES == probe.BATCHES and all(re.fullmatch(r"[0-9a-f]{12}", d) for d in digests)
    kept = [name for facts in recorded.RAN.values() for name in facts["kept"]]
    assert kept == [name for info in upstream.FILES.values() for name in info["names"]]
    assert all(re.fullmatch(r"[\w.]+", module) for facts in recorded.RAN.values() for module in facts["imports"])
    source = pathlib.Path(recorded.__file__).read_text(encoding="utf-8")
    assert "def " not in source and "import hashlib" not in source and "return " not in source


def test_the_recording_tool_records_what_the_probe_observed(standins):
    root, marker, data = standins
    text = record_probe.render(root, "2026-01-02", files_for(data))
    namespace = {}
    exec(compile(text, "recorded.py", "exec"), namespace)
    assert namespace["RECORDED_ON"] == "2026-01-02" and not marker.exists()
    expected = probe.claims.observations(probe.LOOPKIT_HELPERS)  # the stand-ins are written to agree with loopkit
    assert list(namespace["UPSTREAM"].values()) == expected
    # not run in BOUNDED_SOURCE: its docstring, `import pathlib` (the class never reads it) and the write
    assert namespace["RAN"]["_bounded_dict.py"] == {"kept": ("BoundedDict",), "imports": ("collections.OrderedDict",),
                                                    "not_run": 3}
    assert namespace["RAN"]["loop_detection_middleware.py"]["imports"] == ("hashlib", "json")
    with pytest.raises(RuntimeError, match="Probe refused: refusing"):
        record_probe.render(root, "2026-01-02")  # the stand-ins do not have the pinned hashes
