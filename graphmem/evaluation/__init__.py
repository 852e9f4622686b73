"""Evaluation harnesses: retrieval quality on LoCoMo with same-run baselines."""

from .locomo import (BM25, LemmaTokenizer, CATEGORIES, DEFAULT_KS, SCORED_CATEGORIES, BenchmarkResult, Conversation, Dense,
                     DroppedQuestion, EvidenceIssue, Progress, Question, QuestionSet, System, all_at_k, baselines,
                     evidence_misses,
                     load_conversations, load_questions, normalise_dia_id, normalise_evidence, recall_at_k,
                     run_benchmark, scan_questions, tokenize, turn_text)

__all__ = [
    "BM25", "Dense", "LemmaTokenizer", "System", "baselines", "run_benchmark", "BenchmarkResult", "Progress",
    "Question", "QuestionSet", "DroppedQuestion", "EvidenceIssue", "Conversation",
    "load_questions", "scan_questions", "load_conversations", "normalise_evidence", "normalise_dia_id",
    "recall_at_k", "all_at_k", "evidence_misses", "turn_text", "tokenize", "CATEGORIES", "SCORED_CATEGORIES", "DEFAULT_KS",
]
