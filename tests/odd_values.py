"""Values the JSON helpers must survive: one whose ``str()`` is its JSON stand-in, one whose ``str()`` and
``repr()`` both raise."""


class Shown:
    def __str__(self):
        return "odd!"


class Hostile:
    def __str__(self):
        raise RuntimeError("no str for you")

    def __repr__(self):
        raise RuntimeError("no repr either")
