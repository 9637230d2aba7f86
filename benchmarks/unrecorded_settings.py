"""The production settings with access records off: only for the load benchmark's second
server (benchmarks/run_load.sh), which measures what recording every token read costs
recall. Nothing else may run without them: an owner is promised every read is recorded."""

from config.settings import *  # noqa: F403
from config.settings import REVERIE_ACCESS

REVERIE_ACCESS = {**REVERIE_ACCESS, "record": False}
