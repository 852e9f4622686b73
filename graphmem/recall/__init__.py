"""Recall: for a question, the memories worth putting in an agent's context, ranked, with the
structure behind them (`mem.recall(query, user=..., k=10)`).

`analysis` reads the question; `channels` rank memories by one kind of evidence each;
`pipeline` fuses them, ranks the candidates (`ranker`) and builds the answer (`results`);
`tuning` holds every constant they use."""

from .channels import CHANNELS, Channel, Ranked
from .pipeline import gaps, recall
from .results import Gaps, Recalled, Recollection, trim_to_budget

__all__ = ["recall", "gaps", "Recollection", "Recalled", "Gaps", "trim_to_budget", "CHANNELS", "Channel", "Ranked"]
