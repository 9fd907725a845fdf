"""The one wrapper over `llama_cpp.Llama` that the rest of Veil uses (`LocalModel`,
`get_model`).

What it adds to llama.cpp:
- lazy loading (first use or `start_loading()` from a worker thread, never the UI thread),
  and freeing the weights after a while unused (`loader`);
- one inference at a time (llama.cpp contexts are not thread-safe) behind a lock,
- threads and GPU layers chosen for the machine,
- a time budget per call (prompt evaluation in chunks and a stopping criterion check the
  clock) and a token budget, so a slow model can never stall the engine (`generation`);
- JSON-schema-constrained output (a llama.cpp grammar built from the schema; `constrained`),
- the chat template from the GGUF metadata when there is one; base models get plain text
  completion (the tasks then use few-shot prompts),
- `choose()`: pick one of a few answers from the next-token logits: one forward pass,
  and the answer is one of the options by construction (good for tiny base models),
- llama.cpp's log output routed to Python logging instead of stderr.
Everything that touches llama.cpp's own objects is in `llama`.

Every call returns a result object (never raises for a model that is slow or says junk);
callers validate what the model wrote before using it.
"""

from models.runtime.constrained import JsonGeneration
from models.runtime.generation import LocalModel, get_model
from models.runtime.llama import default_threads
from models.runtime.loader import (
    ModelLoadError,
    idle_release_seconds,
    release_models,
    set_idle_release,
)
from models.runtime.results import Choice, Generation

__all__ = [
    "Choice",
    "Generation",
    "JsonGeneration",
    "LocalModel",
    "ModelLoadError",
    "default_threads",
    "get_model",
    "idle_release_seconds",
    "release_models",
    "set_idle_release",
]
