"""What the detector says: a :class:`Decision` per batch, an :class:`Outcome` per trace, and the warning texts."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Action, Layer

__all__ = ["Decision", "OK", "Outcome", "HASH_WARNING", "HASH_STOP", "frequency_warning", "frequency_stop"]


@dataclass(frozen=True)
class Decision:
    """What the detector decided about one batch.

    ``count`` is the batch fingerprint's count in the hash window (hash layer) or the tool's windowed call count
    (frequency layer), and ``None`` for ``ok``; ``tool`` is set for frequency decisions only. ``fingerprint`` is
    the batch's (``None`` only for an empty batch). ``message`` is the text the middleware would deliver: this
    workbook's paraphrase, not upstream's wording.
    """

    action: Action
    layer: Layer | None = None
    tool: str | None = None
    count: int | None = None
    fingerprint: str | None = None
    message: str | None = None

    def brief(self) -> str:
        """The decision in a few words: its action, then its layer, tool and count where it has them.

        >>> Decision("warn", "frequency", "bash", 30).brief(), Decision("ok").brief()
        ('warn frequency bash 30', 'ok')
        """
        parts = (self.action, self.layer, self.tool, self.count)
        return " ".join(str(part) for part in parts if part is not None)


#: The decision for an empty batch: nothing was counted, so there is no fingerprint either.
OK = Decision("ok")


@dataclass(frozen=True)
class Outcome:
    """What one detector made of a whole trace: the step of its first warning and of its stop (``None``: never).

    The one vocabulary for a verdict, shared by the replay, the pattern tables and the peer models: ``action`` is
    ``"stop"`` if it ever stopped, ``"warn"`` if it only warned, else ``"ok"``.

    >>> Outcome("DeerFlow", warn_step=3).action, Outcome("Cline").action
    ('warn', 'ok')
    """

    detector: str
    warn_step: int | None = None
    stop_step: int | None = None

    @property
    def action(self) -> Action:
        return "stop" if self.stop_step is not None else "warn" if self.warn_step is not None else "ok"

# The texts are this workbook's paraphrases. What matters for the middleware is which parts vary: upstream's hash
# warning is one fixed text (so two hash warnings queued for a run merge into one), while its frequency warning
# names the tool and the count.
HASH_WARNING = ("[loop detected] You are repeating the same set of tool calls; repeating it will not give new "
                "information. Stop calling tools and give your final answer (workbook paraphrase).")
HASH_STOP = ("[forced stop] The same tool calls came back too many times, so they were removed; this is the "
             "final answer with what was collected so far (workbook paraphrase).")


def frequency_warning(tool: str, count: int) -> str:
    """The frequency warning's text for ``tool`` at ``count`` calls (a workbook paraphrase)."""
    return (f"[loop detected] You have called {tool} {count} times without finishing. Stop calling tools and give "
            f"your final answer (workbook paraphrase).")


def frequency_stop(tool: str, count: int) -> str:
    """The frequency stop's text for ``tool`` at ``count`` calls (a workbook paraphrase)."""
    return (f"[forced stop] {tool} was called {count} times, past its safety limit, so the calls were removed; "
            f"this is the final answer (workbook paraphrase).")
