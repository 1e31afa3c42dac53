"""Chapter 10's upload view: replay your own transcript from the page, with no terminal (Binder, a hub).

A thin view over :func:`loopkit.teaching.uploads.read_upload`, which replays the file in this kernel's memory
through the replay ``python -m loopkit replay`` runs; this module draws what it returns: the summary line, the
batches that warned or stopped with their "why", and the timeline of :mod:`loopkit.views.plots`. The command line's
flags are controls here: the tool map (``--tool-map``), the tool budgets box (``--override TOOL=WARN:HARD``, read by
:func:`loopkit.teaching.uploads.tool_budgets`) and the skip box (``--skip-bad-records``); the verdicts name the box.
"""

from __future__ import annotations

import html
import pathlib

import ipywidgets as W

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.teaching.uploads import (
    TOOL_MAP_CHOICES,
    UPLOAD_LIMIT,
    UploadReading,
    WhyLine,
    read_upload,
    sample_files,
    tool_budgets,
)
from loopkit.traces.adapters import human_size
from loopkit.traces.tool_maps import DETECTED

from ._base import View, figure_html, table_html

__all__ = ["chosen_file", "render_reading", "render_upload", "transcript_upload"]

_COLUMNS = ("step", "at", "action", "layer", "count", "tool", "calls", N_("why"))


def chosen_file(upload, sample: str) -> tuple[bytes, str] | None:
    """The file to replay: the sample picked (a path), else the uploaded file (ipywidgets 8 keeps each as a dict with
    ``name`` and ``content``), else None. The upload's bytes are read from memory; nothing is saved."""
    if sample:
        path = pathlib.Path(sample)
        return path.read_bytes(), path.name
    if upload:
        first = upload[0]
        return bytes(first["content"]), str(first["name"])
    return None


def _row(line: WhyLine) -> dict:
    return dict(zip(_COLUMNS, (line.step, line.at, line.action, line.layer, line.count, line.tool, line.calls,
                               line.why), strict=True))


def render_reading(reading: UploadReading) -> str:
    """The panel for one reading: its problem, or each run's summary, why lines and (for the first run) timeline."""
    if reading.problem:
        return f"<pre style='color:#b00;white-space:pre-wrap'>{html.escape(reading.message or '')}</pre>"
    parts = []
    for number, run in enumerate(reading.runs, start=1):
        parts.append(f"<p>{html.escape(run.summary)}</p>")
        if run.why:
            parts.append(f"<b>{html.escape(tr('Batches that warned or stopped, and why'))}</b>")
            parts.append(table_html([_row(line) for line in run.why], _COLUMNS))
        if number == 1 and run.steps:
            parts.append(_timeline(reading, run, several=len(reading.runs) > 1))
    return "".join(parts)


def _timeline(reading: UploadReading, run, *, several: bool) -> str:
    from loopkit.teaching.replay_table import table

    from ..plots.described import description
    from ..plots.timelines import timeline

    notes = []
    if several:
        notes.append(tr("The timeline is drawn for the first run of the {count} in this file.", count=len(reading.runs)))
    if run.plot_cut:
        notes.append(tr("The timeline shows the first {count} steps.", count=len(run.steps)))
    figure = next(ax for ax in timeline(table(run.steps, reading.config), reading.config) if ax is not None).figure
    caption = "".join(f"<p><i>{html.escape(note)}</i></p>" for note in notes)
    alt = f'{tr("timeline of {name}", name=reading.name)}: {description(figure)}'
    return caption + figure_html(figure, alt=alt)


def render_upload(upload, sample: str, tool_map: str, budgets: str = "", skip: bool = False) -> str:
    """The panel for the controls' values: the chosen file replayed with the chosen tool map, tool budgets (the
    box's ``TOOL=WARN:HARD`` pairs) and skipping of unreadable records, or what to do."""
    try:
        config = DetectorConfig(tool_freq_overrides=tool_budgets(budgets))
    except ValueError as exc:
        problem = tr("Tool budgets: {problem}", problem=str(exc))
        return f"<pre style='color:#b00;white-space:pre-wrap'>{html.escape(problem)}</pre>"
    chosen = chosen_file(upload, sample)
    if chosen is None:
        return f"<p>{html.escape(tr('Upload a transcript, or pick a sample above.'))}</p>"
    data, name = chosen
    return render_reading(read_upload(data, name, tool_map, config, skip_bad_records=skip))


def _memory_note() -> str:
    return html.escape(tr(
        "Your file stays in this kernel's memory only: it is never written to disk, and it is gone when the kernel "
        "stops or you press Forget. Up to {limit}; a file over 10 MiB never reaches the kernel (the server refuses "
        "it and the page reconnects), so compress a large one with gzip first.", limit=human_size(UPLOAD_LIMIT)))


def transcript_upload(folder: str | pathlib.Path = "data") -> View:
    """An upload control, the samples of ``folder`` and a tool-map choice; the panel replays the chosen file."""
    samples = sample_files(folder)
    maps = [(tr("the detected format's preset"), DETECTED),
            *[(choice, choice) for choice in TOOL_MAP_CHOICES if choice not in (DETECTED, "none")],
            (tr("none: the names as written"), "none")]
    # room for the longest Spanish label, "presupuestos por herramienta" (the layout test at 1280 px cut it at 160 px)
    style = {"description_width": "220px"}
    controls = {
        "upload": W.FileUpload(multiple=False, description=tr("Upload")),
        "sample": W.Dropdown(options=[(tr("(your upload)"), ""), *[(p.name, str(p)) for p in samples]], value="",
                             description=tr("sample"), style=style, layout=W.Layout(width="40em")),
        "tool_map": W.Dropdown(options=maps, value=DETECTED, description=tr("tool map"), style=style,
                               layout=W.Layout(width="40em")),
        "budgets": W.Text(value="", placeholder="bash=60:80, read_file=40:60", description=tr("tool budgets"),
                          continuous_update=False, style=style, layout=W.Layout(width="40em")),
        "skip": W.Checkbox(value=False, description=tr("skip records that cannot be read (they are counted)"),
                           indent=False, layout=W.Layout(width="40em")),  # a checkbox's label is 300 px wide otherwise
    }
    forget = W.Button(description=tr("Forget"), tooltip=tr("Drop the uploaded file from the kernel's memory"))
    view = View(controls, render_upload, title=tr("Replay your own transcript"), buttons=[forget])

    def uploaded(change) -> None:  # a new upload is what the learner wants to see
        if change["new"]:
            controls["sample"].value = ""

    def forget_file(_button) -> None:
        controls["upload"].value = ()

    controls["upload"].observe(uploaded, names="value")
    forget.on_click(forget_file)
    note = W.HTML(f"<p>{_memory_note()}</p>")
    note.add_class("loopkit-upload-note")
    view.children = (view.children[0], note, *view.children[1:])
    view.add_class("loopkit-transcript-upload")
    view.panel.add_class("loopkit-panel")
    return view
