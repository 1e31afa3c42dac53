"""Chapter 04 exercises: FIFO against LRU eviction, and cachetools' FIFOCache."""

from loopkit.bounded import LRUDict
from loopkit.policies import run_script

from . import Question, equals, function_cases


def _text(answer):
    return answer.strip()


q1 = Question(
    "4.1",
    "Room for two: set x 1; set y 2; get x; set z 3. Which key does LRUDict evict?",
    kind="value",
    checker=equals("y", why="Reading x made it the most recent, so y is the least recently used key when z "
                   "arrives. BoundedDict would evict x: reads never change its order.", normalize=_text),
    solution="y",
    hint="Track the order from least to most recently used. Does a read count as use for an LRU dict?",
    wrong=["x", "z"],
)

q2 = Question(
    "4.2",
    "Room for two: set x 1; set y 2; set x 3; get y; set z 4. Which keys does cachetools.FIFOCache keep, "
    "next to evict first?",
    kind="value",
    checker=equals(("x", "z"), why="Overwriting x moved it behind y, the read of y changed nothing, so y went "
                   "first. BoundedDict and LRUDict both keep (y, z) here, for different reasons.", normalize=tuple),
    solution=("x", "z"),
    hint="In FIFOCache an overwrite counts as a fresh insertion, but a read does not move anything.",
    wrong=[("y", "z"), ("z", "x"), ("x", "y")],
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


_eviction_cases = function_cases(
    [
        ((["a", "b", "a", "c"], 2), ["b"]),
        ((["a", "b", "c", "d"], 2), ["a", "b"]),
        ((["a", "a", "a"], 1), []),
        ((["a", "b", "a", "c", "b"], 2), ["b", "a"]),
        (([], 3), []),
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


q3 = Question(
    "4.3",
    "Write lru_evictions(writes, maxsize): the keys an LRUDict evicts, in order, when the keys are written in turn",
    kind="function",
    checker=lambda answer: _eviction_cases(_as_list(answer)),
    solution=lru_evictions,
    hint="Create LRUDict(maxsize, on_evict=...) with a callback that appends the key to a list, write each key "
    "(any value will do), then return the list.",
    wrong=[_fifo_evictions, _lru_survivors, _first_keys_beyond_room, _reversed_as_tuple],
)

q4 = Question(
    "4.4",
    "Per-thread histories: an active thread must keep its state while many short threads arrive. FIFO or LRU?",
    kind="value",
    checker=equals("LRU", why="Every turn of the active thread touches its history, so LRU keeps it; FIFO would "
                   "evict it as soon as enough newer threads were inserted.", normalize=lambda a: a.strip().upper()),
    solution="LRU",
    hint="Which policy notices that the active thread was used a moment ago?",
    wrong=["FIFO", "fifo"],
)

QUESTIONS = (q1, q2, q3, q4)
