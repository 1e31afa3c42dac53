"""How other open-source agents notice loops: small teaching models of their detectors, each pinned to a commit.

Every peer model here is a **simplified model, not the real implementation**. Each names the repository, the full
commit and the file it models (``repo``, ``commit``, ``path``) and states its rule in one sentence (``rule``); the
rule was read in that file at that commit. Its docstring says what the model leaves out. All models take the same
batches the DeerFlow detector takes, look at the calls one at a time in model order, and report the first step
(batch, counted from 1) at which they would *warn* (tell the model) and at which they would *stop* (halt the run,
or block it until a human decides). A stop ends the replay.

A call may carry ``observation`` (what the tool returned), ``exit_code`` (for a shell command) and ``error``
(truthy when it failed); only the OpenHands model reads them. An entry ``{"message": text}`` without a ``name`` is an
agent message with no tool call (also OpenHands only); the other models skip it.

The models live one per module: :mod:`.gemini_cli`, :mod:`.openhands`, :mod:`.roo_code`, :mod:`.cline`,
:mod:`.opencode`, and :mod:`.deerflow` (DeerFlow's own, for comparison); :mod:`.model` holds what they share and
:mod:`.comparison` the roster and the table.
"""

from .cline import Cline
from .comparison import DETECTORS, PEERS, compare, disagrees
from .deerflow import DeerFlow
from .gemini_cli import GeminiCLI
from .model import SIMPLIFIED, PeerModel, ordered_key, sorted_key
from .opencode import OpenCode
from .openhands import OpenHands
from .roo_code import RooCode

__all__ = ["PeerModel", "DeerFlow", "GeminiCLI", "OpenHands", "RooCode", "Cline", "OpenCode", "PEERS", "DETECTORS",
           "SIMPLIFIED", "compare", "disagrees", "ordered_key", "sorted_key"]
