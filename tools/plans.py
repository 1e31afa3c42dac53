"""The instructor guide's workshop plans, built on the chapter times of tools/chapter_times.py, and the rules that
keep them honest in a room.

A plan is a list of slots: a launch buffer, chapters (each along its core path, or only some of its sections), a
break, slack, hands-on replay and a wrap-up. A chapter's minutes always come from the time model, as delivered live
(``ChapterTime.live``: chapter_times.LIVE_FACTOR on the cells a room types along), never from this file, so a plan
cannot give a chapter less time than the model does. A section slot costs its sections and the chapter's title
cell, where the chapter's new ideas are charged.

``check_plan`` refuses a plan that breaks one of these rules, and its error names the plan and the rule:

- **fits its length**: the slots add up to no more than the plan's minutes;
- **prerequisites taught**: every chapter a taught chapter builds on (PREREQUISITES) is taught too, at least in
  part, never left to self-study;
- **launch buffer and break**: a first Binder launch takes 5-10 minutes, and the break is when whoever is still
  waiting switches to the fallback;
- **slack**: the slots named slack add up to at least ``SLACK_SHARE`` (15%) of the teaching time (the chapters and
  the hands-on replay), besides the breaks, the launch buffer and the wrap-up. It is there for questions, for a room
  that types along slower than the model's live factor says, and for a learner who is stuck;
- **promises kept**: every outcome the plan promises (OUTCOMES, the guide's "What learners take home") is reached
  by its slots: each chapter's core path or section the outcome needs is taught, and the hands-on replay when the
  outcome needs one;
- **hands-on replay**: a plan of ``LONG_PLAN`` minutes (3 hours) or more holds at least ``REPLAY_MINUTES`` (10) of
  hands-on replay: each learner replays their own transcript in chapter 10's upload view (section "Replay your own
  transcript"), or one of the sample transcripts offered.

The guides hold each plan between ``<!-- plan:NAME -->`` and ``<!-- /plan:NAME -->``, and the outcomes between
``<!-- outcomes -->`` and ``<!-- /outcomes -->``: docs/instructor.md in English, docs/es/notas-ejercicios.md in
Spanish. ``python tools/chapter_times.py --write`` renders them.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from dataclasses import dataclass
from typing import Literal

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "docs" / "instructor.md", "es": ROOT / "docs" / "es" / "notas-ejercicios.md"}

SLACK_SHARE = 0.15
REPLAY_MINUTES = 10
LONG_PLAN = 180

#: Which chapters each chapter builds on (the chapters its title cell lists under "Prerequisites").
PREREQUISITES = {
    "00": [],
    "01": ["00"],
    "02": ["01"],
    "03": ["01", "02"],
    "04": ["00"],
    "05": ["02", "03", "04"],
    "06": ["04", "05"],
    "07": ["05", "06"],
    "08": ["03", "04"],
    "09": ["03", "04"],
    "10": ["03", "05", "06"],
}

Kind = Literal["launch buffer", "chapter", "break", "slack", "replay", "wrap-up"]
#: The slots whose minutes are teaching time, which the slack is measured against.
TEACHING_KINDS = frozenset({"chapter", "replay"})


@dataclass(frozen=True)
class Text:
    """A sentence of the guides, in both tracks' languages."""

    en: str
    es: str

    def __call__(self, language: str) -> str:
        return getattr(self, language)


NO_TEXT = Text("", "")


@dataclass(frozen=True)
class Slot:
    """One row of a plan. A chapter slot teaches the chapter's core path, or only ``sections`` (their ``##``
    headings, in English); every other slot lasts ``minutes``. ``live`` names the exercises done together."""

    kind: Kind
    note: Text = NO_TEXT
    chapter: str | None = None
    sections: tuple[str, ...] = ()
    minutes: int = 0
    live: tuple[str, ...] = ()


@dataclass(frozen=True)
class Need:
    """What an outcome needs a plan to teach: a chapter's core path (``section`` None), one of its sections, or
    (``chapter`` None) the hands-on replay."""

    chapter: str | None
    section: str | None = None


@dataclass(frozen=True)
class Outcome:
    text: Text
    needs: tuple[Need, ...]


@dataclass(frozen=True)
class Plan:
    name: str
    length: int
    promises: tuple[int, ...]
    slots: tuple[Slot, ...]
    title: Text = NO_TEXT

    def live_exercises(self) -> tuple[str, ...]:
        """The exercises this plan does together, in its order."""
        return tuple(qid for slot in self.slots for qid in slot.live)


def launch(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("launch buffer", note, minutes=minutes)


def pause(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("break", note, minutes=minutes)


def slack(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("slack", note, minutes=minutes)


def replay(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("replay", note, minutes=minutes)


def wrap_up(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("wrap-up", note, minutes=minutes)


def chapter(number: str, note: Text = NO_TEXT, *, live: tuple[str, ...] = (), sections: tuple[str, ...] = ()) -> Slot:
    return Slot("chapter", note, chapter=number, sections=sections, live=live)


def core(number: str) -> Need:
    return Need(number)


def section(number: str, heading: str) -> Need:
    return Need(number, heading)


HANDS_ON_REPLAY = Need(None)

#: What a learner takes home, and what each outcome needs a plan to teach (numbered as in the guides).
OUTCOMES = {
    1: Outcome(Text(
        "Explain the first two steps by which DeerFlow's loop detector keys a tool call: normalized arguments (a "
        "fallback key when they are not a usable dict) and, for `read_file`, 200-line buckets.",
        "Explicar los dos primeros pasos con los que el detector de bucles de DeerFlow da clave a una llamada a "
        "herramienta: los argumentos normalizados (una clave de respaldo cuando no son un dict utilizable) y, para "
        "`read_file`, los intervalos de lectura de 200 líneas."),
        (core("01"), core("02"))),
    2: Outcome(Text(
        "Explain how it decides that two model turns did \"the same thing\": salient fields for most tools, and an "
        "order-independent fingerprint of the batch.",
        "Explicar cómo decide que dos turnos del modelo hicieron «lo mismo»: los campos relevantes de casi todas las "
        "herramientas y una huella del lote a la que no le importa el orden."),
        (core("03"),)),
    3: Outcome(Text(
        "Predict when the detector warns and when it stops a run, from its two layers (repeated fingerprints in a "
        "sliding window, and per-tool counts) and their thresholds.",
        "Predecir cuándo avisa el detector y cuándo detiene una ejecución, a partir de sus dos capas (huellas "
        "repetidas en una ventana deslizante y recuentos por herramienta) y de sus umbrales."),
        (section("05", "Two layers, one decision per turn"), section("05", "The hash layer goes first, and returns"),
         section("05", "The frequency layer: varied arguments"))),
    4: Outcome(Text(
        "Name the detector's false positives (paging through a long file, honest sweeps) and false negatives (loops "
        "that change a *salient* argument each turn, such as a new `query`; a loop that changes only an *ignored* "
        "argument, such as the `description`, is caught), and choose a per-tool override for a legitimate pipeline.",
        "Nombrar los falsos positivos del detector (paginar un archivo largo, los barridos honestos) y sus falsos "
        "negativos (bucles que cambian en cada turno un argumento *relevante*, como una `query` nueva; un bucle que "
        "solo cambia un argumento *ignorado*, como la `description`, sí se detecta), y elegir un ajuste por "
        "herramienta para una cadena de pasos legítima."),
        (core("02"), core("03"), section("05", "The frequency layer: varied arguments"),
         section("05", "Deep dive: per-tool overrides"))),
    5: Outcome(Text(
        "Say what a matching fingerprint does *not* prove: it is a counting label, not a credential, and helper "
        "results are not runtime guarantees.",
        "Decir qué *no* demuestra una huella que coincide: es una etiqueta para contar, no una credencial, y los "
        "resultados de los helpers no son garantías en tiempo de ejecución."),
        (core("00"), core("03"))),
    6: Outcome(Text(
        "Replay their own agent's transcript, or a sample one, and judge whether DeerFlow's detector would have "
        "stopped it, when, and why (chapter 10 then compares five other agents' detectors on the same trace).",
        "Reproducir la transcripción de su propio agente, o una de ejemplo, y juzgar si el detector de DeerFlow la "
        "habría detenido, cuándo y por qué (el capítulo 10 compara después los detectores de otros cinco agentes "
        "con la misma traza)."),
        (HANDS_ON_REPLAY, section("05", "Two layers, one decision per turn"),
         section("05", "The hash layer goes first, and returns"), section("05", "The frequency layer: varied arguments"))),
}

SETUP = Text("Run `loopkit.check_setup()` together.", "Ejecutad juntos `loopkit.check_setup()`.")
LAUNCH = Text(
    "Open the pinned Binder link together; a first launch can take 5-10 minutes. Whoever is still waiting follows "
    "on the projector and switches to the hub or a laptop at the break.",
    "Abrid juntos el enlace fijado de Binder; un primer arranque puede tardar de 5 a 10 minutos. Quien siga "
    "esperando sigue la sesión en el proyector y se pasa al hub o a un portátil en la pausa.")
FALLBACK = Text("Anyone whose launch failed switches to the fallback now.",
                "Quien no haya podido arrancar se pasa ahora a la alternativa.")
CATCH_UP = Text("Questions, and time for whoever is behind to catch up; start the next slot early if nobody is.",
                "Preguntas, y tiempo para que se ponga al día quien vaya por detrás; si nadie lo está, empezad antes "
                "la siguiente parte.")

PLANS = (
    Plan("90-minute", 90, title=Text("90-minute plan", "plan de 90 minutos"), promises=(1,), slots=(
        launch(10, LAUNCH),
        chapter("00", SETUP, live=("0.1",)),
        chapter("01", Text("The argument shapes table.", "La tabla de formas de los argumentos."), live=("1.1",)),
        slack(10, CATCH_UP),
        pause(5, FALLBACK),
        chapter("02", Text("Predict, then drag the bucket slider across line 200.",
                           "Predecid y después arrastrad el control de intervalo más allá de la línea 200."),
                live=("2.1",)),
        slack(10, CATCH_UP),
        wrap_up(5, Text("Questions. Homework, in order: the core paths of 03, 04, 05 and 06, then the optional "
                        "sections.",
                        "Preguntas. Para casa, en orden: las rutas básicas de 03, 04, 05 y 06, y después las "
                        "secciones opcionales.")),
    )),
    Plan("3-hour", 180, title=Text("3-hour plan", "plan de 3 horas"), promises=(1, 2, 3, 4, 5, 6), slots=(
        launch(10, LAUNCH),
        chapter("00", SETUP, live=("0.1",)),
        chapter("01", Text("The argument shapes table.", "La tabla de formas de los argumentos."), live=("1.1",)),
        chapter("02", Text("Predict, then drag the bucket slider across line 200.",
                           "Predecid y después arrastrad el control de intervalo más allá de la línea 200."),
                live=("2.1",)),
        slack(5, CATCH_UP),
        pause(10, FALLBACK),
        chapter("03", Text("Build batches with the batch widget (shuffle, duplicate).",
                           "Construid lotes con la vista de lotes (barajar, duplicar)."), live=("3.1",)),
        chapter("04", Text("Which policy upstream uses for stop reasons, and which for thread histories.",
                           "Qué política usa el upstream para los motivos de parada y cuál para los historiales de "
                           "hilo."),
                live=("4.2",), sections=("Bounded state", "Where each policy is used upstream")),
        chapter("05", Text("Predict, then run; then the override a pipeline needs.",
                           "Predecid y después ejecutad; luego, el ajuste que necesita una cadena de pasos."),
                live=("5.1", "5.4"),
                sections=("Two layers, one decision per turn", "The hash layer goes first, and returns",
                          "The frequency layer: varied arguments", "Deep dive: per-tool overrides")),
        slack(10, CATCH_UP),
        replay(10, Text(
            "Hands-on: each learner opens chapter 10's upload view (section \"Replay your own transcript\") and "
            "replays their own agent's transcript; without one, one of the three samples in the view's sample menu "
            "(a coding loop, a Claude Code session that needs its tool map, a long refactor that meets the call "
            "budget). Ask: would DeerFlow have stopped it, when, and why? Remind "
            "the room that a transcript may hold secrets and code: replay it, do not share it.",
            "Práctica: cada cual abre la vista de subida del capítulo 10 y reproduce la transcripción de su propio "
            "agente; quien no tenga una, uno de los tres ejemplos del menú de ejemplos de la vista (un bucle de "
            "código, una sesión de Claude Code que necesita su mapa de herramientas, una refactorización larga que "
            "llega al presupuesto de llamadas). "
            "Preguntad: ¿la habría detenido DeerFlow, cuándo y por qué? Recordad a la sala que una transcripción "
            "puede contener secretos y código: se reproduce, no se comparte.")),
        slack(10, CATCH_UP),
        wrap_up(5, Text("Questions. Homework, in order: the rest of 04 and 05, then chapters 06-10 and the optional "
                        "sections.",
                        "Preguntas. Para casa, en orden: el resto de 04 y 05, después los capítulos 06-10 y las "
                        "secciones opcionales.")),
    )),
)


# --- the rules -----------------------------------------------------------------------------------------------------

def slot_minutes(slot: Slot, times: dict) -> int:
    """A chapter slot's live minutes from the time model; any other slot's own minutes."""
    if slot.kind != "chapter":
        return slot.minutes
    time = times[slot.chapter]
    return time.live_minutes(slot.sections) if slot.sections else time.live


def _reaches(plan: Plan, need: Need, times: dict) -> bool:
    if need.chapter is None:
        return any(slot.kind == "replay" for slot in plan.slots)
    for slot in plan.slots:
        if slot.kind != "chapter" or slot.chapter != need.chapter:
            continue
        if not slot.sections:   # the core path: every section that is not optional
            if need.section is None or any(s.heading == need.section and not s.optional
                                           for s in times[need.chapter].sections):
                return True
        elif need.section in slot.sections:
            return True
    return False


def _describe(need: Need) -> str:
    if need.chapter is None:
        return "the hands-on replay"
    return f"chapter {need.chapter}'s core path" if need.section is None else f"chapter {need.chapter}'s {need.section!r}"


def problems(plan: Plan, times: dict, outcomes: dict[int, Outcome] = OUTCOMES) -> list[str]:
    """Every rule ``plan`` breaks, each as a sentence naming the plan and the rule (empty when it keeps them all)."""
    found = []

    def broken(rule: str, detail: str) -> None:
        found.append(f"the {plan.name} plan breaks rule {rule!r}: {detail}")

    try:
        minutes = [slot_minutes(slot, times) for slot in plan.slots]
    except ValueError as unknown:   # a section its chapter does not have
        broken("known sections", str(unknown))
        return found
    used = sum(minutes)
    if used > plan.length:
        broken("fits its length", f"its slots need {used} min, more than its {plan.length}")
    taught = {slot.chapter for slot in plan.slots if slot.kind == "chapter"}
    for number in sorted(taught):
        missing = [need for need in PREREQUISITES[number] if need not in taught]
        if missing:
            broken("prerequisites taught", f"it teaches chapter {number} but leaves {missing} to self-study")
    for kind in ("launch buffer", "break"):
        if not any(slot.kind == kind for slot in plan.slots):
            broken("launch buffer and break", f"it has no {kind}")
    teaching = sum(m for slot, m in zip(plan.slots, minutes) if slot.kind in TEACHING_KINDS)
    held = sum(m for slot, m in zip(plan.slots, minutes) if slot.kind == "slack")
    needed = math.ceil(SLACK_SHARE * teaching - 1e-9)
    if held < needed:
        broken("slack", f"it holds {held} min of slack, less than {SLACK_SHARE:.0%} of its {teaching} min of "
                        f"teaching ({needed} min)")
    for number in plan.promises:
        if number not in outcomes:
            broken("promises kept", f"it promises outcome {number}, which the guide does not list")
            continue
        for need in outcomes[number].needs:
            if not _reaches(plan, need, times):
                broken("promises kept", f"it promises outcome {number} but does not teach {_describe(need)}")
    replayed = sum(m for slot, m in zip(plan.slots, minutes) if slot.kind == "replay")
    if plan.length >= LONG_PLAN and replayed < REPLAY_MINUTES:
        broken("hands-on replay", f"it runs {plan.length} min but holds {replayed} min of hands-on replay of a "
                                  f"learner's own transcript, less than {REPLAY_MINUTES}")
    return found


def check_plan(plan: Plan, times: dict, outcomes: dict[int, Outcome] = OUTCOMES) -> None:
    """Raise ValueError naming the plan and each rule it breaks (see the module's docstring)."""
    found = problems(plan, times, outcomes)
    if found:
        raise ValueError("; ".join(found))


# --- rendering -----------------------------------------------------------------------------------------------------

WORDS = {
    "en": {"header": "| start | what | min | what to do |", "end": "end", "spare": "{n} min unplanned.",
           "core path": "core path", "live": "live", "and": "and",
           "kinds": {"launch buffer": "launch buffer", "break": "break", "slack": "slack",
                     "replay": "hands-on replay", "wrap-up": "wrap-up"},
           "summary": "Teaching {teaching} min, **slack {slack} min** ({share}% of the teaching time), breaks "
                      "{breaks} min, launch buffer {launch} min, wrap-up {wrap} min. It reaches {reaches} of "
                      "[what learners take home](#what-learners-take-home){rest}.",
           "outcome": "outcome", "outcomes": "outcomes", "rest": "; the others are homework"},
    "es": {"header": "| inicio | qué | min | qué hacer |", "end": "fin", "spare": "{n} min sin asignar.",
           "core path": "ruta básica", "live": "en directo", "and": "y",
           "kinds": {"launch buffer": "margen de arranque", "break": "pausa", "slack": "holgura",
                     "replay": "práctica de reproducción", "wrap-up": "cierre"},
           "summary": "Enseñanza {teaching} min, **holgura {slack} min** (el {share} % del tiempo de enseñanza), "
                      "pausas {breaks} min, margen de arranque {launch} min, cierre {wrap} min. Alcanza {reaches} "
                      "de [lo que se llevan los participantes](#lo-que-se-llevan-los-participantes){rest}.",
           "outcome": "el resultado", "outcomes": "los resultados", "rest": "; los demás quedan para casa"},
}


def chapter_paths(language: str) -> dict[str, pathlib.Path]:
    folder = ROOT / "notebooks" / ("es" if language == "es" else "")
    return {path.name[:2]: path for path in sorted(folder.glob("[0-9][0-9]_*.ipynb"))}


def _headings(path: pathlib.Path) -> list[str]:
    """The first line of every markdown cell that opens with a heading of level 1 or 2, in order; the twins of
    both tracks have their headings in the same cells, so the n-th heading of one is the n-th of the other."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    firsts = ["".join(cell["source"]).split("\n", 1)[0] for cell in cells if cell["cell_type"] == "markdown"]
    return [line for line in firsts if re.match(r"#{1,2} ", line)]


def _chapter_words(number: str, sections: tuple[str, ...], language: str) -> tuple[str, list[str]]:
    """The chapter's label (``05 The detector``) and its sections' headings, in ``language``."""
    english = [line.lstrip("# ") for line in _headings(chapter_paths("en")[number])]
    there = [line.lstrip("# ") for line in _headings(chapter_paths(language)[number])]
    label = there[0].replace(" · ", " ", 1)
    return label, [there[english.index(heading)] for heading in sections]


def _listed(items: list[str], language: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {WORDS[language]['and']} {items[-1]}"


def render_table(plan: Plan, times: dict, language: str = "en") -> str:
    """The plan as a markdown table (start time, what, minutes, what to do), after a line that sums it up."""
    check_plan(plan, times)
    words = WORDS[language]
    rows = [words["header"], "|---|---|---|---|"]
    clock = 0
    for slot in plan.slots:
        minutes = slot_minutes(slot, times)
        if slot.kind == "chapter":
            label, headings = _chapter_words(slot.chapter, slot.sections, language)
            what = f"{label} ({words['core path']})" if not slot.sections else f"{label}: {'; '.join(headings)}"
        else:
            what = words["kinds"][slot.kind]
        note = slot.note(language)
        if slot.live:
            note = f"{note.rstrip('.')}; {words['live']}: {_listed(list(slot.live), language)}."
        rows.append(f"| {clock // 60}:{clock % 60:02d} | {what} | {minutes} | {note} |")
        clock += minutes
    spare = words["spare"].format(n=plan.length - clock) if plan.length > clock else ""
    rows.append(f"| {clock // 60}:{clock % 60:02d} | {words['end']} | | {spare} |")
    return "\n".join(rows)


def summary(plan: Plan, times: dict, language: str = "en") -> str:
    """One sentence: the plan's teaching, slack, breaks and buffer in minutes, and the outcomes it reaches."""
    words = WORDS[language]

    def total(*kinds: str) -> int:
        return sum(slot_minutes(slot, times) for slot in plan.slots if slot.kind in kinds)

    teaching = total(*TEACHING_KINDS)
    numbers = [str(n) for n in plan.promises]
    reaches = f"{words['outcome'] if len(numbers) == 1 else words['outcomes']} {_listed(numbers, language)}"
    rest = words["rest"] if set(plan.promises) != set(OUTCOMES) else ""
    return words["summary"].format(teaching=teaching, slack=total("slack"), share=round(100 * total("slack") / teaching),
                                   breaks=total("break"), launch=total("launch buffer"), wrap=total("wrap-up"),
                                   reaches=reaches, rest=rest)


def render_outcomes(language: str = "en") -> str:
    return "\n".join(f"{number}. {outcome.text(language)}" for number, outcome in OUTCOMES.items())


def _replace_block(text: str, name: str, body: str, where: str) -> str:
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"{where} has no {start} ... {end} markers")
    return pattern.sub(lambda _: f"{start}\n{body}\n{end}", text)


def render_plans(text: str, times: dict, language: str = "en") -> str:
    """``text`` (a guide) with its outcomes and each plan rendered between their markers."""
    where = GUIDES[language].relative_to(ROOT).as_posix()
    text = _replace_block(text, "outcomes", render_outcomes(language), where)
    for plan in PLANS:
        body = summary(plan, times, language) + "\n\n" + render_table(plan, times, language)
        text = _replace_block(text, f"plan:{plan.name}", body, where)
    return text
