"""Chapter 05 exercises: the pinned ordering, a burst inside one batch, the tool window, and an override."""

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr
from loopkit.core.middleware import PinnedMiddleware
from loopkit.teaching.patterns import get

from . import Case, Question, ____, equals, function_cases

__all__ = ["____", "q1", "q2", "q3", "q4"]

q1 = Question(
    "5.1",
    "predict before you run",
    kind="prediction",
    checker=equals(("ok", "warn", "warn", "stop"),
                   why="Turn 2's new hash warning returns before bash is counted, so bash has 1 call. Turn 3's "
                       "fingerprint is already warned, so the batch falls through: bash reaches 2 and warns in the "
                       "frequency layer. Turn 4: bash reaches 3, its hard limit, and stops."),
    solution=("ok", "warn", "warn", "stop"),
    hint="Keep two counts per turn: the fingerprint's (hash window) and bash's (tool window). On which turn does "
         "the hash layer return before bash is counted?",
    wrong={
        ("ok", "warn", "ok", "ok"):
            "That is the hash layer alone. A batch whose fingerprint is already warned falls through to the "
            "frequency layer, which counts bash on every such turn and has its own limits (2 and 3 here).",
        ("ok", "warn", "stop", "stop"):
            "That is the later severity-first model (PR #5245), which counts every name even when the hash layer "
            "warns. At the pinned commit f1f4af99 a new hash warning returns at once: turn 2's bash is never "
            "counted, so bash reaches 3 only on turn 4.",
        ("ok", "warn", "warn", "ok"):
            "The mark from turn 3's warning only stops bash from warning again; the hard-limit check comes before "
            "it. On turn 4 bash reaches 3, its tool_freq_hard_limit, and the batch is stopped.",
        ("ok", "warn", "warn", "warn"):
            "tool_freq_hard_limit=3 is the frequency layer's own stop (hard_limit=9 belongs to the hash layer): on "
            "turn 4 bash reaches 3 and the batch is stopped. And a warned tool does not warn again while it stays "
            "marked.",
        ("ok", "warn", "ok", "stop"):
            "The hash layer's mark belongs to the fingerprint only. The frequency layer keeps its own marks, per "
            "tool name, and bash has none yet: on turn 3 bash reaches 2, its tool_freq_warn, and warns.",
        ("ok", "ok", "warn", "warn"):
            "Thresholds are reached, not exceeded: the fingerprint's count of 2 on turn 2 equals warn_threshold, "
            "and that warns. Waiting for the count to pass each threshold makes every decision a turn late.",
        ("ok", "ok", "warn", "stop"):
            "Thresholds are reached, not exceeded: the fingerprint's count of 2 on turn 2 equals warn_threshold, "
            "and that warns.",
    },
    responses={
        ("ok", "warn", "ok", "ok"):
            "Ask what happens to a batch whose fingerprint is already warned: it falls through to the frequency "
            "layer, which counts bash.",
        ("ok", "warn", "stop", "stop"):
            "Ask which version the chapter runs: at the pinned commit turn 2's hash warning returns before bash "
            "is counted; the turn-3 stop is the later model of chapter 07.",
        ("ok", "warn", "warn", "ok"):
            "Ask which check the frequency layer makes first: the hard limit, before it looks at the warned mark.",
        ("ok", "warn", "warn", "warn"):
            "Ask which limit belongs to which layer: hard_limit=9 is the hash layer's, tool_freq_hard_limit=3 the "
            "frequency layer's.",
        ("ok", "warn", "ok", "stop"):
            "Ask whose mark turn 2 set: the fingerprint's; bash keeps marks of its own, and has none yet.",
        ("ok", "ok", "warn", "warn"):
            "Ask whether a count of 2 warns when warn_threshold is 2: it does, because thresholds are compared "
            "with >=.",
        ("ok", "ok", "warn", "stop"):
            "Ask whether a count of 2 warns when warn_threshold is 2: it does, on turn 2, because the comparison "
            "is >=.",
    },
    reveal=r"^actions = {answer}$",
)

q2 = Question(
    "5.2",
    "a burst in one turn",
    kind="prediction",
    checker=equals((30, "warn"),
                   why="The frequency layer counts names in model order and returns at the first decision: the "
                       "30th read reaches tool_freq_warn and warns. Reads 31-60 are never counted, so the hard "
                       "limit of 50 is never reached, although all 60 reads run."),
    solution=(30, "warn"),
    hint="Walk the batch call by call: the read_file count climbs 1, 2, 3, ... What happens at the first call "
         "that reaches a threshold, and to the calls after it?",
    wrong={
        (60, "stop"):
            "The pinned detector does not count the whole batch first and then decide: it decides at the first "
            "call that reaches a threshold, and the calls after it are never counted.",
        (50, "stop"):
            "That is the later severity-first model (PR #5245), where a hard stop anywhere in the batch wins. At "
            "the pinned commit f1f4af99 the warning at the 30th read returns at once, and the 50th is never "
            "reached.",
        (1, "ok"):
            "One batch is one entry in the *hash* window, but the frequency layer counts every call's name, one "
            "call at a time, even inside a single turn.",
        (60, "warn"):
            "The warning is right, but it returns at once: reads 31 to 60 are never counted (they still run).",
        (30, "stop"):
            "The 30th read reaches tool_freq_warn, and a warning is not a stop: the stop needs "
            "tool_freq_hard_limit=50, and the warning returns before any read after the 30th is counted.",
        (31, "warn"):
            "Thresholds are reached, not exceeded: the 30th read brings the count to 30, which equals "
            "tool_freq_warn, and that warns at once.",
        (2, "warn"):
            "That is what the three-read example above gives, under tool_freq_warn=2. The rule is the same, but "
            "this burst runs under the default thresholds: which call reaches tool_freq_warn=30?",
    },
    reveal=r"^\(counted, action\) = {answer}$",
)


def freq_window(window_size, tool_freq_hard_limit, overrides):
    return max(window_size, tool_freq_hard_limit, *(hard for _, hard in overrides.values()))


#: Exercise 5.3's hidden cases, from the basic idea to the edges: (window_size, tool_freq_hard_limit, overrides) ->
#: calls in the tool-name window. tests/test_exercises_ch05_ch06.py checks every expected value against
#: DetectorConfig.freq_window.
Q3_CASES = [
    Case((20, 50, {}), 50,
         "with no override and a short window_size (20), the window is the global hard limit: 50 calls hold a "
         "count of 50, no more is needed"),
    Case((80, 50, {}), 80, "the window is never shorter than window_size, even when every hard limit is smaller"),
    Case((25, 40, {"grep": (10, 30), "bash": (60, 70)}), 70,
         "an override's hard limit (bash: 70) above the global one must be reachable too: its hard value, not its "
         "warn value, and whichever override holds it"),
    Case((25, 40, {"grep": (10, 30)}), 40,
         "an override changes its own tool only: every other tool still stops at the global hard limit (40), so the "
         "window must still reach it"),
    Case((100, 40, {"bash": (60, 90)}), 100,
         "window_size still wins when it is longer than every hard limit, the overrides' included"),
    Case((10, 10, {"bash": (5, 5), "web_search": (30, 45)}), 45,
         "every tool's override counts, not only bash's, and the largest hard limit wins wherever it sits in the "
         "dict (here web_search's, the last one)"),
]

q3 = Question(
    "5.3",
    "sizing the tool-name window",
    kind="function",
    checker=function_cases(Q3_CASES,
                           why="Every hard limit must be reachable, so the window is at least the largest one, the "
                               "overrides' included, and never shorter than window_size: upstream sizes it that "
                               "way at f1f4af99."),
    solution=freq_window,
    hint="A count cannot exceed the window it is counted in. Which hard limits must the window be able to reach? "
         "An override's hard limit is one of them.",
    wrong=[
        # the overrides forgotten
        lambda window_size, tool_freq_hard_limit, overrides: max(window_size, tool_freq_hard_limit),
        # only the global hard limit
        lambda window_size, tool_freq_hard_limit, overrides: tool_freq_hard_limit,
        # window_size forgotten
        lambda window_size, tool_freq_hard_limit, overrides: max(
            [tool_freq_hard_limit] + [hard for _, hard in overrides.values()]),
        # the overrides' warn values instead of their hard values
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, tool_freq_hard_limit, *(warn for warn, _ in overrides.values())),
        # an override taken to replace the global hard limit for every tool
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, *(hard for _, hard in overrides.values())) if overrides else max(
            window_size, tool_freq_hard_limit),
        # window_size looked at only when there is no override
        lambda window_size, tool_freq_hard_limit, overrides: max(
            tool_freq_hard_limit, *(hard for _, hard in overrides.values())) if overrides else max(
            window_size, tool_freq_hard_limit),
        # only the first override looked at
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, tool_freq_hard_limit, *(hard for _, hard in list(overrides.values())[:1])),
        # only bash's override looked at (the tool of the chapter's example)
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, tool_freq_hard_limit, overrides.get("bash", (0, 0))[1]),
        # max() over an empty sequence when there is no override
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, tool_freq_hard_limit, max(hard for _, hard in overrides.values())),
        # the window sized one past the largest limit
        lambda window_size, tool_freq_hard_limit, overrides: max(
            window_size, tool_freq_hard_limit, *(hard for _, hard in overrides.values())) + 1,
    ],
)


def _override_verdict(answer):
    """Correct when a bash override keeps the 40-step pipeline silent and still stops a runaway by turn 80."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return False, tr("Answer with a (warn, hard) tuple, such as (45, 70).")
    answer = tuple(answer)
    try:
        config = DetectorConfig(tool_freq_overrides={"bash": answer})
    except ValueError as exc:
        return False, tr("That is not a valid override: {error}", error=exc)
    pipeline = PinnedMiddleware(config)
    actions = [pipeline.after_model(b, "t", "r").action for b in get("bash_pipeline").batches]
    if "stop" in actions:
        return False, tr("The 40-step pipeline still gets a stop.")
    if "warn" in actions:
        return False, tr("The 40-step pipeline still gets a warning.")
    runaway = PinnedMiddleware(config)
    stopped = [runaway.after_model([{"name": "bash", "args": {"command": f"retry {i}"}}], "t", "r").action
               for i in range(80)]
    if "stop" not in stopped:
        return False, tr("80 different bash commands in a row are never stopped: the hard limit is too high.")
    return True, tr("The pipeline (40 calls) stays under warn, and the runaway reaches hard by turn 80. The window "
                    "grows to cover your hard limit, so it can be reached.")


q4 = Question(
    "5.4",
    "an override for a pipeline",
    kind="value",
    checker=_override_verdict,
    solution=(41, 80),
    solution_code="answer = (41, 80)   # the lowest warn, the highest hard: any 41 <= warn <= hard <= 80 passes",
    hint="The pipeline calls bash 40 times: warn must be above that. A runaway must still stop within 80 calls.",
    wrong={
        (30, 50): "Those are the global defaults: the pipeline's 30th bash call warns, as the override section showed.",
        (40, 60): "A threshold is reached, not exceeded: the pipeline's 40th call brings bash to 40, which warns.",
        (40, 80): "The hard limit is right, but a threshold is reached, not exceeded: the pipeline's 40th call brings "
                  "bash to 40, which warns. The warn limit must be 41 or more.",
        (60, 90): "That is the override shown above: the pipeline is quiet, but a runaway of 80 different commands "
                  "never reaches 90, so nothing stops it.",
        (80, 60): "The hard limit must be at least the warn limit; DetectorConfig refuses (80, 60).",
        60: "An override is a (warn, hard) pair: the warn limit and the hard limit of that one tool.",
    },
    responses={
        (30, 50):
            "Ask which bash call of the pipeline warns under the defaults: the 30th, so the warn limit must rise "
            "above 40.",
        (40, 60):
            "Ask what bash's count is at the pipeline's 40th call: 40, which reaches a warn limit of 40.",
        (40, 80):
            "Keep the 80 and ask for the smallest warn limit that stays quiet through 40 calls: 41.",
        (60, 90):
            "Ask when a runaway of 80 different bash commands stops with a hard limit of 90: never, within its 80 "
            "calls.",
        (80, 60):
            'Build DetectorConfig(tool_freq_overrides={"bash": (80, 60)}) on the projector and read its error '
            "together.",
        60:
            'Ask what an override holds: a (warn, hard) pair for one tool, as tool_freq_overrides={"bash": (warn, '
            "hard)} shows.",
    },
    reveal=r"^{answer} -> pipeline_quiet=True runaway_stopped=True$",
)

QUESTIONS = (q1, q2, q3, q4)
