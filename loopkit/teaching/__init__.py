"""The teaching aids: what the chapters build around the core to show a concept.

Named synthetic traces, the chapters' exercises, tables and races, the boundary models of chapters 08 and 09, and
other agents' detectors (chapter 10). Each module says what it is: a model of upstream (at the pinned commit, or of a
later PR it names) or this workbook's own invention. They build on the core and the traces.
"""
