"""Chapter 05 exercises: the pinned ordering, the tool window, an override, and a burst inside one batch."""

from loopkit.detector import DetectorConfig
from loopkit.middleware import PinnedMiddleware
from loopkit.patterns import get

from . import Question, as_tuple, equals


q1 = Question(
    "5.1",
    "Predict four identical bash batches with warn_threshold=2, hard_limit=4, tool_freq_warn=3",
    kind="value",
    checker=equals(("ok", "warn", "ok", "stop"),
                   why="Turn 2's new hash warning returns before bash is counted, so bash has 1 call; turn 3's hash "
                       "is already warned and falls through, bash reaches 2 (< 3); turn 4's hash count 4 is the "
                       "hard limit. bash never reaches 3 calls.",
                   normalize=as_tuple),
    solution=("ok", "warn", "ok", "stop"),
    hint="Count two things per turn: the fingerprint (hash window) and bash (tool window). Which turns return "
         "before bash is counted?",
    wrong=[("ok", "warn", "warn", "stop"), ("ok", "warn", "ok", "ok"), ("ok", "ok", "warn", "stop")],
)

q2 = Question(
    "5.2",
    "How many of read_burst's 60 reads does the pinned detector count, and what does it decide?",
    kind="value",
    checker=equals((30, "warn"),
                   why="The frequency layer counts names in model order and returns at the first decision: the "
                       "30th read reaches tool_freq_warn and warns. Reads 31-60 are never counted, so the hard "
                       "limit of 50 is never reached, although all 60 reads run.",
                   normalize=as_tuple),
    solution=(30, "warn"),
    hint="Walk the batch call by call: the tool count climbs 1, 2, 3, ... What happens at the first call that "
         "crosses a threshold?",
    wrong=[(60, "stop"), (50, "stop"), (60, "warn"), (30, "stop")],
)

q3 = Question(
    "5.3",
    "How many calls does the tool-name window hold?",
    kind="value",
    checker=equals(70, why="freq_window is the largest of window_size (25), tool_freq_hard_limit (40) and every "
                           "override's hard limit (30 and 70): a shorter window could never count to 70."),
    solution=70,
    solution_code=("answer = 70   # DetectorConfig(window_size=25, tool_freq_warn=20, tool_freq_hard_limit=40,\n"
                   "              #     tool_freq_overrides={'grep': (10, 30), 'bash': (60, 70)}).freq_window"),
    hint="The window must be long enough that every hard limit in the config can be reached. Which limit is "
         "the largest?",
    wrong=[25, 40, 60, 30],
)


def _override_verdict(answer):
    """Correct when a bash override keeps the 40-step pipeline silent and still stops a runaway by turn 80."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return False, "Answer with a (warn, hard) tuple, such as (45, 70)."
    answer = tuple(answer)
    try:
        config = DetectorConfig(tool_freq_overrides={"bash": answer})
    except ValueError as exc:
        return False, f"That is not a valid override: {exc}"
    pipeline = PinnedMiddleware(config)
    actions = [pipeline.after_model(b, "t", "r").action for b in get("bash_pipeline").batches]
    if "warn" in actions or "stop" in actions:
        return False, f"The 40-step pipeline still gets a {'stop' if 'stop' in actions else 'warning'}."
    runaway = PinnedMiddleware(config)
    stopped = [runaway.after_model([{"name": "bash", "args": {"command": f"retry {i}"}}], "t", "r").action
               for i in range(80)]
    if "stop" not in stopped:
        return False, "80 different bash commands in a row are never stopped: the hard limit is too high."
    return True, ("The pipeline (40 calls) stays under warn, and the runaway reaches hard by turn 80. The window "
                  "grows to cover your hard limit, so it can be reached.")


q4 = Question(
    "5.4",
    "Choose a bash override (warn, hard) for a 40-step migration pipeline",
    kind="value",
    checker=_override_verdict,
    solution=(60, 80),
    solution_code="answer = (60, 80)   # any 41 <= warn <= hard <= 80 passes",
    hint="The pipeline calls bash 40 times: warn must be above that. A runaway must still stop within 80 calls.",
    wrong=[(30, 50), (40, 60), (60, 100), (80, 60), 60],
)

QUESTIONS = (q1, q2, q3, q4)
