"""Chapter 05 exercises: the two layers, window sizing, overrides, and the pattern table."""

from loopkit.detector import DetectorConfig, LoopDetector
from loopkit.patterns import get

from . import Question, equals

q1 = Question(
    "5.1",
    "How many calls does the tool-name window hold?",
    checker=equals(80, why="freq_window is the largest of window_size (20), tool_freq_hard_limit (50) and every "
                           "override's hard limit (80): a shorter window could never count to 80."),
    solution=80,
    solution_code="answer = 80   # DetectorConfig(tool_freq_overrides={'bash': (60, 80)}).freq_window",
    hint="The window must be long enough that every hard limit in the config can be reached. Which limit is "
         "the largest?",
    wrong=[20, 50, 60],
)

q2 = Question(
    "5.2",
    "At which step does the detector stop cross_file_sweep under the defaults?",
    checker=equals(50, why="Each read is new, so the hash layer never fires; read_file reaches "
                           "tool_freq_hard_limit = 50 on the 50th turn. An honest sweep is stopped."),
    solution=50,
    hint="Every fingerprint differs, so only the frequency layer can act. What are its warn and hard limits?",
    wrong=[30, 5, 60, None],
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
    pipeline = LoopDetector(config)
    actions = [pipeline.observe(b).action for b in get("bash_pipeline").batches]
    if "warn" in actions or "stop" in actions:
        return False, f"The 40-step pipeline still gets a {'stop' if 'stop' in actions else 'warning'}."
    runaway = LoopDetector(config)
    stopped = [runaway.observe([{"name": "bash", "args": {"command": f"retry {i}"}}]).action for i in range(80)]
    if "stop" not in stopped:
        return False, "80 different bash commands in a row are never stopped: the hard limit is too high."
    return True, ("The pipeline (40 calls) stays under warn, and the runaway reaches hard by turn 80. The window "
                  "grows to cover your hard limit, so it can be reached.")


q3 = Question(
    "5.3",
    "Choose a bash override (warn, hard) for a 40-step migration pipeline",
    checker=_override_verdict,
    solution=(60, 80),
    solution_code="answer = (60, 80)   # any 41 <= warn <= hard <= 80 passes",
    hint="The pipeline calls bash 40 times: warn must be above that. A runaway must still stop within 80 calls.",
    wrong=[(30, 50), (40, 60), (60, 100), (80, 60), 60],
)

q4 = Question(
    "5.4",
    "Which patterns does the detector judge differently from the human label (defaults)?",
    checker=equals(
        {"sequential_paging", "cross_file_sweep", "retry_changing_flags", "identical_in_batch", "polling",
         "read_burst", "bash_pipeline"},
        why="Five false alarms: two repeats that are really progress (paging inside one bucket, polling) and "
            "three from the frequency layer (sweep, burst, pipeline). Two misses: the changing flags and the "
            "in-batch stutter.",
        normalize=lambda a: set(a) if isinstance(a, (set, frozenset, list, tuple)) else a,
    ),
    solution={"sequential_paging", "cross_file_sweep", "retry_changing_flags", "identical_in_batch", "polling",
              "read_burst", "bash_pipeline"},
    hint="Build trace.pattern_table() and keep the rows where 'agrees' is False.",
    wrong=[{"polling", "read_burst"}, {"retry_changing_flags", "identical_in_batch"}, set(),
           {"sequential_paging", "cross_file_sweep", "polling", "read_burst", "bash_pipeline"}],
)
