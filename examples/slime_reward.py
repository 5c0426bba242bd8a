"""A slime / Miles custom reward function for Witness' `slime` export (`--custom-rm-path`).

    witness export --format slime --split train --out prompts.jsonl
    PYTHONPATH=examples:$PYTHONPATH python train.py ... \\
        --prompt-data prompts.jsonl --input-key prompt --label-key label --metadata-key metadata \\
        --tool-key tools --apply-chat-template --custom-rm-path slime_reward.witness_reward

slime calls it as `await witness_reward(args, sample)` for one sample, and with a list of samples
(batched / `--group-rm`); it returns a float in 0..1 (a list for a list). What it reads:

- `sample.label`: the task's reference answer, or None. When there is one, the reward is 1.0
  if the response's final answer contains it (case and whitespace folded), else 0.0.
- `sample.metadata["score"]` (0..1, the reviewers' consensus score of the reviewed trajectory)
  and `sample.metadata["completion"]` (that trajectory's messages). Without a reference answer,
  the response is compared with the reviewed final answer (token F1): resembling a trajectory
  reviewers scored high earns reward, resembling one they scored low costs it:
  reward = score * f1 + (1 - score) * (1 - f1).

It is a starting point: swap in a task-specific checker where one exists. Checked against
slime's own Dataset and load_function by scripts/trainers/check_loaders.py.
"""

import re


def _words(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text.lower())


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def _f1(a: str, b: str) -> float:
    x, y = _words(a), _words(b)
    if not x or not y:
        return 0.0
    common = 0
    pool = list(y)
    for w in x:
        if w in pool:
            pool.remove(w)
            common += 1
    if common == 0:
        return 0.0
    p, r = common / len(x), common / len(y)
    return 2 * p * r / (p + r)


def _reviewed_answer(metadata: dict) -> str:
    for m in reversed(metadata.get("completion") or []):
        if m.get("role") == "assistant" and m.get("content"):
            return m["content"]
    return ""


def score_sample(sample) -> float:
    response = sample.response or ""
    if sample.label:
        return 1.0 if _fold(sample.label) in _fold(response) else 0.0
    metadata = sample.metadata if isinstance(sample.metadata, dict) else {}
    human = float(metadata.get("score") or 0.0)
    f1 = _f1(response, _reviewed_answer(metadata))
    return human * f1 + (1.0 - human) * (1.0 - f1)


async def witness_reward(args, sample, **kwargs):
    if isinstance(sample, list):
        return [score_sample(s) for s in sample]
    return score_sample(sample)
