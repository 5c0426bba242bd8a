#!/usr/bin/env python3
"""Train a policy with DPO (TRL) on a Witness `trl-dpo` export or a sink's received labels.

Needs PyTorch, `transformers`, `datasets` and `trl` (TRL 1.x: `DPOTrainer(model, ref_model,
args=DPOConfig(...), train_dataset=..., processing_class=tokenizer)`, the API
`npm run test:trainers` trains with). A GPU for real models; it also runs on a CPU (bf16 only
where the device supports it, fp32 otherwise).

    pip install trl datasets transformers accelerate
    witness export --format trl-dpo --split train --out dpo.jsonl
    python examples/train_dpo.py --data dpo.jsonl --model Qwen/Qwen2.5-0.5B-Instruct --out ./dpo-out

`--data` may also be the JSONL a webhook receiver appends to (examples/receiver), or a folder
sink's `manifest.json` (its shards are read in sequence order).

Each row is conversational with an explicit prompt: {"prompt": [messages], "chosen": [messages],
"rejected": [messages], "tools": [...] (only on rows with tool calls), "witness": {...provenance...}}.
Assistant tool calls follow the transformers chat-template convention, so a tool-aware chat
template renders them; `tools` is passed to the template by TRL when the row has it. The `witness` column (review ids,
agreement, campaign, split) is checked, then dropped before training:

- the measurement guard, again on the trainer side: a row whose witness.purpose is not
  "training" (an eval-split task) stops the script;
- `--min-agreement` keeps only pairs whose reviewers agreed at least that much (adjudicated
  pairs are always kept).

Run by the trainer agent (`witness-trainer --command 'python examples/train_dpo.py --data {dataset}
--model {base_uri} --out {out}'`), it speaks the agent's stdout protocol: one line
`{"witness_metric": {"step": N, "loss": ..., "rewards/accuracies": ..., ...}}` per logging step (every
step on short runs: --logging-steps, default 1 up to 100 steps, 10 beyond), the model and tokenizer
saved to --out at the end, and `{"witness_checkpoint": {"name": ..., "uri": <absolute --out>}}` only
when --checkpoint-name is given (else the agent names the checkpoint `<base>+<run id>`).
`--model` is a hub name or a local model folder (e.g. the tiny model of
scripts/trainers/tiny_model.py).
"""

import argparse
import json
import math
import sys
from pathlib import Path


def read_rows(data: Path):
    if data.name == "manifest.json":
        manifest = json.loads(data.read_text())
        files = [data.parent / s["file"] for s in sorted(manifest["shards"], key=lambda s: s["sequence"])]
    else:
        files = [data]
    for f in files:
        with f.open() as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)


def metric_line(step: int, logs: dict) -> str | None:
    """The agent's metric line for one TRL log dictionary: its finite numbers, at the optimizer step."""
    values = {
        k: float(v) for k, v in logs.items() if k != "step" and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    }
    if not values:
        return None
    return json.dumps({"witness_metric": {"step": step, **values}})


def metric_callback():
    """A TrainerCallback printing one `witness_metric` line per log (flushed: the agent streams stdout)."""
    from transformers import TrainerCallback

    class WitnessMetrics(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            # the end-of-training summary (train_runtime, train_loss…) is not a step's point
            if logs and not any(k.startswith("train_") for k in logs):
                line = metric_line(state.global_step, logs)
                if line:
                    print(line, flush=True)
                # the progress bar prints this same dictionary after us (its callback comes last): with its step,
                # so a reader of TRL's own lines (witness-trainer reads them too) puts the points at the same step
                logs.setdefault("step", state.global_step)

    return WitnessMetrics()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="trl-dpo JSONL export, receiver JSONL, or a folder sink's manifest.json")
    parser.add_argument(
        "--model", required=True, help="base (ideally SFT'd) model: a hub name, e.g. Qwen/Qwen2.5-0.5B-Instruct, or a local model folder"
    )
    parser.add_argument("--out", default="dpo-out", help="output_dir: the trained model and tokenizer are saved here at the end")
    parser.add_argument("--beta", type=float, default=0.1, help="DPO beta (strength of the KL anchor to the reference model)")
    parser.add_argument("--lr", type=float, default=5e-7)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--grad-accum", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=4096, help="tokens per prompt+completion (long agent trajectories are truncated)")
    parser.add_argument("--min-agreement", type=float, default=0.0)
    parser.add_argument("--max-steps", type=int, default=-1, help="stop after this many optimizer steps (a smoke run); -1: the epochs")
    parser.add_argument("--logging-steps", type=int, default=None, help="log (and print a witness_metric line) every N steps; default 1 on short runs (--max-steps 1..100), else 10")
    parser.add_argument("--checkpoint-name", default=None, help="print a witness_checkpoint line naming the checkpoint (the agent's default name otherwise)")
    args = parser.parse_args()
    if args.logging_steps is None:
        args.logging_steps = 1 if 0 < args.max_steps <= 100 else 10
    if args.logging_steps < 1:
        parser.error("--logging-steps must be at least 1")
    local = Path(args.model).expanduser()
    if local.exists() and not (local / "config.json").is_file():
        parser.error(f"--model {args.model}: a folder without config.json (not a saved model)")
    model_ref = str(local.resolve()) if local.exists() else args.model

    rows = []
    for row in read_rows(args.data):
        w = row.get("witness", {})
        if w.get("purpose", "training") != "training" or w.get("split") == "eval":
            print(f"refusing: item {w.get('item_ids')} (task {w.get('task')}) is evaluation data and never trains a model", file=sys.stderr)
            return 2
        if not w.get("adjudicated") and (w.get("agreement") or 0) < args.min_agreement:
            continue
        rows.append({"prompt": row["prompt"], "chosen": row["chosen"], "rejected": row["rejected"], "tools": row.get("tools")})
    if not rows:
        print("no rows to train on", file=sys.stderr)
        return 1
    print(f"{len(rows)} preference pairs from {args.data}")

    # heavy imports only once the data is known to be good
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import DPOConfig, DPOTrainer

    # bf16 where the device has it (recent GPUs); TRL refuses bf16 on a CPU
    cuda = torch.cuda.is_available()
    bf16 = cuda and torch.cuda.is_bf16_supported()
    print(f"device: {'cuda' if cuda else 'cpu'}, {'bf16' if bf16 else 'fp32'}")

    # `tools` only where a row has tools (None elsewhere, which TRL passes to the template as no tools)
    has_tools = any(r["tools"] for r in rows)
    dataset = Dataset.from_list(rows if has_tools else [{k: v for k, v in r.items() if k != "tools"} for r in rows])

    tokenizer = AutoTokenizer.from_pretrained(model_ref)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(model_ref, dtype=torch.bfloat16 if bf16 else torch.float32)

    config = DPOConfig(
        output_dir=args.out,
        beta=args.beta,
        learning_rate=args.lr,
        num_train_epochs=args.epochs,
        max_steps=args.max_steps,
        per_device_train_batch_size=args.batch_size,
        gradient_accumulation_steps=args.grad_accum,
        gradient_checkpointing=cuda,
        max_length=args.max_length,
        logging_steps=args.logging_steps,
        save_strategy="epoch",
        bf16=bf16,
        use_cpu=not cuda,
        report_to="none",
    )
    # ref_model=None: TRL keeps a frozen copy of `model` as the reference
    trainer = DPOTrainer(model=model, ref_model=None, args=config, train_dataset=dataset, processing_class=tokenizer, callbacks=[metric_callback()])
    trainer.train()
    out = Path(args.out).resolve()
    trainer.save_model(str(out))
    tokenizer.save_pretrained(str(out))
    print(f"saved to {args.out}")
    if args.checkpoint_name:
        print(json.dumps({"witness_checkpoint": {"name": args.checkpoint_name, "uri": str(out)}}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
