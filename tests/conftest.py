import os
import pathlib

import pytest
from hypothesis import settings

ROOT = pathlib.Path(__file__).resolve().parent.parent

# A loaded 2-core CI machine must not turn a slow example into a failure; CI also derandomizes, so a red build
# can be reproduced exactly.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def spanish():
    """Speak Spanish for one test (loopkit.core.language.set_language), and English again afterwards."""
    from loopkit.core.language import set_language

    set_language("es")
    yield
    set_language("en")
