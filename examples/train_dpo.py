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
"""

import argparse
import json
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="trl-dpo JSONL export, receiver JSONL, or a folder sink's manifest.json")
    parser.add_argument("--model", required=True, help="base (ideally SFT'd) model, e.g. Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--out", default="dpo-out", help="output_dir for checkpoints")
    parser.add_argument("--beta", type=float, default=0.1, help="DPO beta (strength of the KL anchor to the reference model)")
    parser.add_argument("--lr", type=float, default=5e-7)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--grad-accum", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=4096, help="tokens per prompt+completion (long agent trajectories are truncated)")
    parser.add_argument("--min-agreement", type=float, default=0.0)
    parser.add_argument("--max-steps", type=int, default=-1, help="stop after this many optimizer steps (a smoke run); -1: the epochs")
    args = parser.parse_args()

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

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.bfloat16 if bf16 else torch.float32)

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
        logging_steps=10,
        save_strategy="epoch",
        bf16=bf16,
        use_cpu=not cuda,
        report_to="none",
    )
    # ref_model=None: TRL keeps a frozen copy of `model` as the reference
    trainer = DPOTrainer(model=model, ref_model=None, args=config, train_dataset=dataset, processing_class=tokenizer)
    trainer.train()
    trainer.save_model(args.out)
    print(f"saved to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
