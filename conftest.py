"""Settings for every pytest run from the repository root, notebooks included.

A missing translation is an error in the tests (a learner gets the English text instead): the nbval kernels
inherit this variable, so a Spanish chapter that shows an untranslated loopkit text fails. See loopkit/language.py.
"""

import os

os.environ["LOOPKIT_STRICT_TRANSLATIONS"] = "1"
