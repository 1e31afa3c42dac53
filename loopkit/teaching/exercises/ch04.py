"""Chapter 04 exercises: FIFO against LRU eviction, and cachetools' FIFOCache."""

from loopkit.core.bounded import LRUDict
from loopkit.teaching.eviction_race import run_script

from . import Case, Question, ____, equals, function_cases, standard_form

__all__ = ["____", "q1", "q2", "q3", "q4", "ONE_STEP", "READ_BEFORE_FLOOD", "flood"]

#: Exercise 4.1's script: room for two keys, and a read before the third key arrives.
READ_BEFORE_FLOOD = "set x 1; set y 2; get x; set z 3"

q1 = Question(
    "4.1",
    "Predict: room for two, set x 1; set y 2; get x; set z 3. Which key does LRUDict evict?",
    kind="prediction",
    checker=equals("y", why="Reading x made it the most recent, so y is the least recently used key when z "
                   "arrives. BoundedDict would evict x: reads never change its order."),
    solution="y",
    solution_code='prediction = "y"   # the read of x made y the least recently used key',
    hint="Track the order from least to most recently used. Does a read count as use for an LRU dict?",
    wrong={
        "x": "x was inserted first, and that is what BoundedDict (FIFO) goes by. LRUDict goes by use: reading x "
        "made it the most recent, so y is the least recently used.",
        "z": "The key being inserted is never the one evicted: a full dict makes room for it by evicting an old key.",
        "xy": "One new key needs one free place: with room for two, inserting z evicts exactly one key.",
        ("x", "y"): "One new key needs one free place: with room for two, inserting z evicts exactly one key.",
        "b": "b is what LRUDict evicted in the chapter's first example. This script has the keys x, y and z: follow "
        "it step by step, from least to most recently used.",
        None: "Something must go: after set x and set y the dict is full, and the read of x adds no key, so z "
        "needs the place of an old key.",
    },
    reveal=r"^lru_evicted = {answer}$",
)


def flood(cls):
    """Chapter 04's flood (exercise 4.2): room for three threads; a long thread is busy on every turn while four
    short ones start. Returns (the turns the long thread remembers, the threads evicted, in order)."""
    lost = []
    threads = cls(3, on_evict=lambda thread, turns: lost.append(thread))
    threads["long"] = 1
    for short in ["s1", "s2", "s3", "s4"]:
        threads["long"] = threads.get("long", 0) + 1  # the long thread is busy on every turn
        threads[short] = 1  # and a new short thread starts
    return threads["long"], lost


q2 = Question(
    "4.2",
    "Predict: in the flood, how many of its 5 turns does the long thread remember under BoundedDict (FIFO)?",
    kind="prediction",
    checker=equals(1, why="The long thread was inserted first, and overwriting it never moves it, so FIFO evicts "
                   "it when s3 arrives, although it had just been written; its next write starts it over at 1. A "
                   "history touched on every turn needs LRU."),
    solution=1,
    solution_code="prediction = 1   # flood(BoundedDict): evicted when s3 arrives, then started over",
    hint="BoundedDict evicts by insertion order, and an overwrite keeps a key's place. When is the long thread the "
    "oldest key, and what does get('long', 0) return after it was evicted?",
    wrong={
        5: "That is LRU's answer: there every write refreshes the long thread, so it is never the least recent. In "
        "BoundedDict an overwrite keeps the key's first place, so the busy thread is still the oldest.",
        0: "It is evicted, but the very next turn writes it again: get('long', 0) + 1 starts it over as a new key "
        "with 1 turn, and it is not evicted again before the end.",
        3: "Room for three counts threads, not turns. The long thread is evicted when s3 arrives, and what it had "
        "is lost: its next write starts it over at 1.",
        4: "It had 4 turns when it was evicted, but eviction forgets them: its next write starts it over at 1.",
        2: "After the eviction (when s3 arrives) the loop writes the long thread only once more, in the turn of s4: "
        "get('long', 0) + 1 gives 1.",
    },
    responses={
        5:
            "Ask which dict refreshes a key on a write: LRUDict; in BoundedDict the busy thread keeps its first "
            "place and goes first.",
        0:
            "Ask what the turn after the eviction does: it writes long again, as a new key with 1 turn.",
        3:
            "Ask what the 3 in BoundedDict(3) counts: threads (keys), not turns.",
        4:
            "Ask what an eviction keeps of a thread: nothing; its 4 turns are gone, and its next write starts at "
            "1.",
        2:
            "Step through the last two turns on the board: after s3 evicts it, long is written only once more, "
            "when s4 arrives.",
    },
    reveal=r"^flood\(BoundedDict\) = \({answer}, ",
)

#: Exercise 4.3: room for two keys, and one operation to choose for the blank before r arrives.
ONE_STEP = "set p 1; set q 2; {step}; set r 4"


def _operation(text):
    """One operation as (verb, key), such as ("set", "p"): which value a set writes does not matter here, nor case
    or a closing ";". Anything else stays as it is."""
    words = text.replace(";", " ").split() if isinstance(text, str) else []
    if len(words) >= 2 and words[0].lower() in ("set", "get", "del"):
        return words[0].lower(), words[1]
    return text


def _operations(answer):
    """A pair of operations however it is written: a list or a tuple, any value after set, any spacing or case."""
    form = standard_form(answer, like=("", ""))
    return tuple(_operation(item) for item in form) if isinstance(form, tuple) else form


q3 = Question(
    "4.3",
    "Room for two: set p 1; set q 2; ____; set r 4. Which one operation in the blank makes cachetools.FIFOCache "
    "evict a different key from BoundedDict, and which one makes it evict a different key from LRUDict?",
    kind="value",
    checker=equals(("set p 3", "get p"), normalize=_operations,
                   why="An overwrite of p moves it to the back in FIFOCache but not in BoundedDict, so FIFOCache "
                   "evicts q and BoundedDict p. A read of p moves it in LRUDict but not in FIFOCache, so LRUDict "
                   "evicts q and FIFOCache p. Any value after set p will do."),
    solution=("set p 3", "get p"),
    hint="Without the blank every policy evicts p, the oldest key. FIFOCache moves a key on an overwrite, not on a "
    "read; BoundedDict moves it on neither, LRUDict on both. What must happen to p?",
    wrong={
        ("get p", "set p 3"): "The other way round: BoundedDict and FIFOCache both ignore a read, so after get p "
        "both evict p; and LRUDict and FIFOCache both move p on an overwrite, so after set p 3 both evict q.",
        ("set p 3", "set p 3"): "An overwrite tells FIFOCache from BoundedDict, but not from LRUDict: both move p to "
        "the back on a write, so both evict q. Only a read sets those two apart.",
        ("get p", "get p"): "A read tells FIFOCache from LRUDict, but not from BoundedDict: neither FIFO dict moves "
        "a key on a read, so both evict p. What FIFOCache adds to BoundedDict is the move on an overwrite.",
        ("set q 3", "get q"): "q is already behind p, so moving it again leaves p first to go in every policy: the "
        "blank must touch p, the key that would be evicted.",
        ("del q", "del q"): "A removal frees a place, so r evicts nothing at all, in any policy: they still agree.",
        ("del p", "get p"): "The read is right. But a removal frees a place in every policy alike, so after del p "
        "nothing is evicted when r arrives: the first blank needs an operation that BoundedDict and FIFOCache "
        "treat differently.",
    },
    reveal=r"^one_step = {answer}$",
)


def lru_evictions(writes, maxsize):
    evicted = []
    d = LRUDict(maxsize, on_evict=lambda key, value: evicted.append(key))
    for i, key in enumerate(writes):
        d[key] = i
    return evicted


def _fifo_evictions(writes, maxsize):
    """The same log for BoundedDict: a plausible mix-up of the two policies."""
    script = "\n".join(f"set {key} {i}" for i, key in enumerate(writes))
    return list(run_script(script, maxsize)["BoundedDict (FIFO)"].evicted_keys)


def _lru_survivors(writes, maxsize):
    d = LRUDict(maxsize)
    for i, key in enumerate(writes):
        d[key] = i
    return list(d)


def _reversed_as_tuple(writes, maxsize):
    """The right keys in the wrong order: a tuple answer is read as a list, not as a set."""
    return tuple(reversed(lru_evictions(writes, maxsize)))


def _first_keys_beyond_room(writes, maxsize):
    distinct = list(dict.fromkeys(writes))
    return distinct[: max(len(distinct) - maxsize, 0)]


def _log_in_a_default_argument(writes, maxsize, evicted=[]):  # noqa: B006 - the mistake this wrong answer shows
    """The log as a default argument: Python makes that list once, so every call adds to the calls before it."""
    d = LRUDict(maxsize, on_evict=lambda key, value: evicted.append(key))
    for i, key in enumerate(writes):
        d[key] = i
    return evicted


def _room_for_one_more(writes, maxsize):
    """An LRUDict one key too large."""
    return lru_evictions(writes, maxsize + 1)


_eviction_cases = function_cases(
    [
        Case((["a", "b", "c"], 2), ["a"],
             "with room for 2 keys, the 3rd key evicts the least recently used one, and the log holds the evicted "
             "key: here a"),
        Case((["a", "b", "c"], 2), ["a"],
             "the same writes again give the same log: start a new LRUDict and a new list on every call"),
        Case((["a", "b", "a", "c"], 2), ["b"],
             "overwriting a refreshes it, so b is the least recently used key when c arrives"),
        Case((["c", "a", "b", "d"], 2), ["c", "a"],
             "the log lists every eviction, in the order they happen"),
        Case((["a", "b", "a", "c", "b"], 2), ["b", "a"],
             "an evicted key written again is a new key: b comes back and evicts a"),
        Case((["a", "a", "a"], 1), [],
             "overwriting the only key evicts nothing: a key never makes room for itself"),
        Case(([], 3), [], "no writes, no evictions: the log is an empty list"),
    ],
    why="on_evict hears every eviction in the order it happens; overwriting a key refreshes it.",
)


def _as_list(function):
    """The learner's function with a tuple result read as a list: ('b',) and ['b'] are the same log."""
    if not callable(function):
        return function

    def listed(*args):
        got = function(*args)
        return list(got) if isinstance(got, tuple) else got

    return listed


def _check_eviction_log(answer):
    """The cases of :data:`_eviction_cases`, run on the learner's function with a tuple result read as a list."""
    return _eviction_cases(_as_list(answer))


_check_eviction_log.cases = _eviction_cases.cases
_check_eviction_log.why = _eviction_cases.why

q4 = Question(
    "4.4",
    "Write lru_evictions(writes, maxsize): the keys an LRUDict evicts, in order, when the keys are written in turn",
    kind="function",
    checker=_check_eviction_log,
    solution=lru_evictions,
    hint="Create LRUDict(maxsize, on_evict=...) with a callback that appends the key to a list, write each key "
    "(any value will do), then return the list.",
    wrong=[_fifo_evictions, _lru_survivors, _first_keys_beyond_room, _reversed_as_tuple, _log_in_a_default_argument,
           _room_for_one_more],
)

QUESTIONS = (q1, q2, q3, q4)
