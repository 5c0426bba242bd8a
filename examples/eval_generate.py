#!/usr/bin/env python3
"""Answer a project's evaluation tasks with a trained checkpoint, one ATIF trajectory file per task.

The trainer agent's eval command (`witness-trainer --eval-command '…'`):

    python examples/eval_generate.py --checkpoint-uri {checkpoint_uri} --tasks {tasks} --out {eval_out}

- `--checkpoint-uri`: the model folder the training command saved (transformers
  `from_pretrained`: config, weights, tokenizer with a chat template);
- `--tasks`: the JSONL the agent downloads (`GET /api/v1/training-runs/ID/eval-tasks`), one
  `{"task", "instruction", "criteria": [text…]}` a line;
- `--out`: a folder; one `<n>-<task>.json` per task, which the agent uploads with the checkpoint
  as policy and split `eval`.

Each task's instruction goes through the tokenizer's chat template as the user's message and the
model answers greedily (`generate`, `--max-new-tokens`, on the GPU when there is one, else the
CPU; with a repetition penalty, as a small or undertrained model otherwise loops on one token). The file is ATIF (Harbor's Agent Trajectory Interchange Format, the shape
lib/formats/atif.ts reads): a user step with the instruction, an agent step with the answer,
`extra.task_name` = the eval task's name (so the trajectory lands on that task, beside the parent
policy's) and `extra.acceptance_criteria` = its criteria. `--policy` names the agent
(`agent.model_name`; the agent's upload names the policy anyway).

Needs `torch` and `transformers`. A real eval harness (an agent loop with tools, a verifier)
would replace this script; anything that writes files Witness imports works the same way.
"""

import argparse
import json
import re
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path


def read_tasks(path: Path) -> list[dict]:
    tasks = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise SystemExit(f"{path}:{n}: not JSON: {e}")
        if not isinstance(row, dict) or not isinstance(row.get("task"), str) or not row["task"].strip():
            raise SystemExit(f'{path}:{n}: expected {{"task": name, "instruction": text, "criteria": [text…]}}, got {line[:200]}')
        if not isinstance(row.get("instruction", ""), str):
            raise SystemExit(f"{path}:{n}: instruction must be a string")
        criteria = row.get("criteria") or []
        if not isinstance(criteria, list) or not all(isinstance(c, str) for c in criteria):
            raise SystemExit(f"{path}:{n}: criteria must be a list of strings")
        tasks.append({"task": row["task"], "instruction": row.get("instruction") or "", "criteria": criteria})
    return tasks


def file_name(n: int, task: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", task).strip("-.")[:80] or "task"
    return f"{n:04d}-{safe}.json"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def atif(task: dict, answer: str, model_name: str, asked: str, answered: str, prompt_tokens: int, completion_tokens: int) -> dict:
    return {
        "schema_version": "ATIF-v1.6",
        "session_id": str(uuid.uuid4()),
        "agent": {"name": "witness-eval-generate", "version": "1", "model_name": model_name},
        "steps": [
            {"step_id": 1, "timestamp": asked, "source": "user", "message": task["instruction"]},
            {
                "step_id": 2,
                "timestamp": answered,
                "source": "agent",
                "model_name": model_name,
                "message": answer,
                "metrics": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
            },
        ],
        "extra": {"task_name": task["task"], "acceptance_criteria": task["criteria"]},
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--checkpoint-uri", type=Path, required=True, help="the trained model folder (save_pretrained: model + tokenizer)")
    p.add_argument("--tasks", type=Path, required=True, help="eval tasks JSONL: {task, instruction, criteria} a line")
    p.add_argument("--out", type=Path, required=True, help="folder for the trajectory files (created)")
    p.add_argument("--policy", default=None, help="the model name the files record (default: the checkpoint folder's name)")
    p.add_argument("--max-new-tokens", type=int, default=48)
    p.add_argument("--repetition-penalty", type=float, default=1.3, help="greedy decoding with this penalty (1.0: none)")
    p.add_argument("--no-repeat-ngram-size", type=int, default=2, help="greedy decoding never repeats an n-gram of this size (0: off)")
    p.add_argument("--max-prompt-tokens", type=int, default=1024, help="a longer prompt keeps its last tokens")
    a = p.parse_args()

    if not (a.checkpoint_uri / "config.json").is_file():
        print(f"--checkpoint-uri {a.checkpoint_uri}: not a saved model folder (no config.json)", file=sys.stderr)
        return 2
    if not a.tasks.is_file():
        print(f"--tasks {a.tasks}: no such file", file=sys.stderr)
        return 2
    tasks = read_tasks(a.tasks)
    a.out.mkdir(parents=True, exist_ok=True)
    model_name = a.policy or a.checkpoint_uri.resolve().name
    if not tasks:
        print(f"{a.tasks}: no eval tasks; nothing to answer")
        return 0

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(str(a.checkpoint_uri))
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(str(a.checkpoint_uri)).to(device).eval()
    print(f"{len(tasks)} eval tasks, {a.checkpoint_uri} on {device}", flush=True)

    for n, task in enumerate(tasks, 1):
        asked = now()
        messages = [{"role": "user", "content": task["instruction"] or task["task"]}]
        if tokenizer.chat_template:
            ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt", return_dict=True)["input_ids"]
        else:
            ids = tokenizer(task["instruction"], return_tensors="pt")["input_ids"]
        ids = ids[:, -a.max_prompt_tokens :].to(device)
        t0 = time.time()
        with torch.no_grad():
            out = model.generate(
                ids,
                attention_mask=torch.ones_like(ids),
                max_new_tokens=a.max_new_tokens,
                do_sample=False,
                repetition_penalty=a.repetition_penalty,
                no_repeat_ngram_size=a.no_repeat_ngram_size,
                pad_token_id=tokenizer.pad_token_id,
                eos_token_id=tokenizer.eos_token_id,
            )
        new = out[0, ids.shape[1] :]
        answer = tokenizer.decode(new, skip_special_tokens=True).strip()
        doc = atif(task, answer, model_name, asked, now(), int(ids.shape[1]), int(new.shape[0]))
        target = a.out / file_name(n, task["task"])
        target.write_text(json.dumps(doc, ensure_ascii=False, indent=1))
        print(f"{task['task']}: {len(new)} tokens in {time.time() - t0:.2f} s -> {target.name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
