"""Chapter 04 exercises: FIFO against LRU eviction, and cachetools' FIFOCache."""

from loopkit.bounded import LRUDict
from loopkit.eviction_race import run_script

from . import Question, equals, function_cases


def _text(answer):
    return answer.strip()


#: Exercise 4.1's script: room for two keys, and a read before the third key arrives.
READ_BEFORE_FLOOD = "set x 1; set y 2; get x; set z 3"

q1 = Question(
    "4.1",
    "Predict: room for two, set x 1; set y 2; get x; set z 3. Which key does LRUDict evict?",
    kind="prediction",
    checker=equals("y", why="Reading x made it the most recent, so y is the least recently used key when z "
                   "arrives. BoundedDict would evict x: reads never change its order.", normalize=_text),
    solution="y",
    solution_code='prediction = "y"   # the read of x made y the least recently used key',
    hint="Track the order from least to most recently used. Does a read count as use for an LRU dict?",
    wrong={
        "x": "x was inserted first, and that is what BoundedDict (FIFO) goes by. LRUDict goes by use: reading x "
        "made it the most recent, so y is the least recently used.",
        "z": "The key being inserted is never the one evicted: a full dict makes room for it by evicting an old key.",
        "xy": "One new key needs one free place: with room for two, inserting z evicts exactly one key.",
    },
)

#: Exercise 4.3's script: an overwrite, then a read, then a new key.
OVERWRITE_THEN_READ = "set p 1; set q 2; set p 3; get q; set r 4"

q3 = Question(
    "4.3",
    "Room for two: set p 1; set q 2; set p 3; get q; set r 4. Which keys does cachetools.FIFOCache keep, "
    "next to evict first?",
    kind="value",
    checker=equals(("p", "r"), why="Overwriting p moved it behind q, the read of q changed nothing, so q went "
                   "first. BoundedDict and LRUDict both keep (q, r) here, for different reasons.", normalize=tuple),
    solution=("p", "r"),
    hint="In FIFOCache an overwrite counts as a fresh insertion, but a read does not move anything.",
    wrong={
        ("q", "r"): "That is what BoundedDict and LRUDict keep here. FIFOCache counts an overwrite as a fresh "
        "insertion, so p moved behind q, and a read (get q) does not move anything: q goes first.",
        ("r", "p"): "Right keys, wrong order: give them next to evict first. p was refreshed before r arrived, so "
        "p is older than r.",
        ("p", "q"): "A full cache evicts an old key to make room for the new one: r is always kept.",
    },
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


q4 = Question(
    "4.4",
    "Write lru_evictions(writes, maxsize): the keys an LRUDict evicts, in order, when the keys are written in turn",
    kind="function",
    checker=lambda answer: _eviction_cases(_as_list(answer)),
    solution=lru_evictions,
    hint="Create LRUDict(maxsize, on_evict=...) with a callback that appends the key to a list, write each key "
    "(any value will do), then return the list.",
    wrong=[_fifo_evictions, _lru_survivors, _first_keys_beyond_room, _reversed_as_tuple],
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
    },
)

QUESTIONS = (q1, q2, q3, q4)
