#!/usr/bin/env python3
"""TRL trains on Witness' exports, as exported (run by scripts/trainers/run.ts: `npm run test:trainers`).

For the `witness export` files of the seeded demo in every format (--exports): every row reads
back through `datasets` as written; then DPOTrainer, KTOTrainer, RewardTrainer, SFTTrainer
(also with assistant_only_loss=True) and trl.experimental.prm's PRMTrainer each take a few
optimizer steps on their export, with a finite loss and no row dropped. The model is a tiny
random-initialised Qwen2 and the tokenizer a byte-level BPE trained here on the exports, with
TRL's own Qwen2.5 training chat template (trl/chat_templates/qwen2_5_training.jinja: tool calls,
tool messages, {% generation %} marks for the assistant-only loss). Nothing is downloaded.

Writes a JSON report (--report) with one entry per test; exits 1 when any failed.
"""

import argparse
import json
import math
import re
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ left in the clone by the import below
import tiny_model  # noqa: E402 - scripts/trainers/tiny_model.py: the tiny Qwen2 and its tokenizer

STEPS = 3
FORMATS = ["trl-dpo", "trl-kto", "trl-reward", "trl-sft", "trl-prm", "openrlhf", "slime"]


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def drop_none(x):
    """datasets fills keys a row lacks (a column other rows have) with None: compare without them."""
    if isinstance(x, dict):
        return {k: drop_none(v) for k, v in x.items() if v is not None}
    if isinstance(x, list):
        return [drop_none(v) for v in x]
    return x


class Ctx:
    def __init__(self, exports: Path, work: Path):
        self.exports = exports
        self.work = work
        self.tokenizer = None

    def rows(self, fmt: str) -> list[dict]:
        return jsonl(self.exports / f"{fmt}.jsonl")

    def dataset(self, fmt: str):
        from datasets import load_dataset

        return load_dataset("json", data_files=str(self.exports / f"{fmt}.jsonl"), split="train")

    def card(self, fmt: str) -> str:
        return (self.exports / f"{fmt}.jsonl.card.md").read_text()


def build_tokenizer(ctx: Ctx):
    texts = [line for f in FORMATS for line in (ctx.exports / f"{f}.jsonl").read_text().splitlines()]
    fast = tiny_model.build_tokenizer(texts)
    fast.save_pretrained(ctx.work / "tokenizer")
    ctx.tokenizer = fast
    return f"byte-level BPE, {len(fast)} tokens, Qwen2.5 training template"


def tiny(kind: str, ctx: Ctx, **extra):
    from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoModelForTokenClassification

    auto = {"lm": AutoModelForCausalLM, "seq": AutoModelForSequenceClassification, "tok": AutoModelForTokenClassification}[kind]
    # saved and loaded from a local folder: trainers that copy the model (DPO/KTO's reference) load it by its path
    return auto.from_pretrained(tiny_model.save_tiny_model(ctx.work / f"model-{kind}", ctx.tokenizer, kind, **extra))


def common(ctx: Ctx, name: str) -> dict:
    return dict(
        output_dir=str(ctx.work / name),
        max_steps=STEPS,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        bf16=False,
        disable_tqdm=True,
        dataloader_num_workers=0,
        seed=0,
    )


def trained(trainer, rows: int) -> str:
    n = len(trainer.train_dataset)
    assert n == rows, f"the trainer kept {n} of {rows} rows (rows dropped silently)"
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert trainer.state.global_step == STEPS, f"{trainer.state.global_step} optimizer steps, expected {STEPS}"
    assert len(losses) == STEPS and all(math.isfinite(l) for l in losses), f"losses {losses}"
    return f"{rows} rows, {STEPS} steps, loss " + " ".join(f"{l:.3f}" for l in losses)


# -- tests --------------------------------------------------------------------------------


def read_back(ctx: Ctx) -> str:
    counts = []
    for fmt in FORMATS:
        rows = ctx.rows(fmt)
        assert rows, f"{fmt}: empty export"
        ds = ctx.dataset(fmt)
        assert len(ds) == len(rows), f"{fmt}: datasets read {len(ds)} of {len(rows)} rows"
        for i, (got, want) in enumerate(zip(ds, rows)):
            assert drop_none(got) == drop_none(want), f"{fmt} row {i} reads back differently:\n got  {json.dumps(got)[:400]}\n want {json.dumps(want)[:400]}"
        counts.append(f"{fmt} {len(rows)}")
    return ", ".join(counts)


def shapes(ctx: Ctx) -> str:
    """The export rules the trainers depend on: no identical pairs, no empty tools, a PRM separator no step contains."""
    for fmt in ["trl-dpo", "trl-reward", "openrlhf"]:
        same = [i for i, r in enumerate(ctx.rows(fmt)) if r["chosen"] == r["rejected"]]
        assert not same, f"{fmt}: rows {same} have chosen == rejected"
    for fmt, keys in [("trl-dpo", ["prompt", "chosen", "rejected"]), ("trl-kto", ["prompt", "completion"]), ("trl-sft", ["messages"]), ("trl-reward", ["chosen", "rejected"]), ("slime", ["prompt"])]:
        for i, r in enumerate(ctx.rows(fmt)):
            msgs = [m for k in keys for m in r[k]] + (r["metadata"]["completion"] if fmt == "slime" else [])
            called = any(m.get("tool_calls") for m in msgs)
            assert r.get("tools") != [], f"{fmt} row {i}: tools: [] (Llama-3.1-style templates add tool boilerplate for it)"
            assert ("tools" in r) == called, f"{fmt} row {i}: tools {'missing' if called else 'present'} with{'' if called else 'out'} tool calls"
    sep = prm_separator(ctx)
    inside = [(i, c) for i, r in enumerate(ctx.rows("trl-prm")) for c in r["completions"] if sep in c]
    assert not inside, f"the PRM step separator {sep!r} occurs inside steps: {inside[:3]}"
    return f"PRM separator {sep!r}"


def llama_tools(ctx: Ctx) -> str:
    """A Llama-3.1 template renders tool boilerplate only for rows that have tools (as slime passes `tools` as is)."""
    import trl

    template = (Path(trl.__file__).parent / "chat_templates" / "llama3_1.jinja").read_text()
    with_tools = without = 0
    for r in ctx.rows("trl-dpo"):
        text = ctx.tokenizer.apply_chat_template(r["prompt"], tools=r.get("tools"), chat_template=template, tokenize=False, add_generation_prompt=True)
        boiler = "Environment: ipython" in text
        assert boiler == ("tools" in r), f"tool boilerplate {boiler} for a row {'with' if 'tools' in r else 'without'} tools"
        with_tools += "tools" in r
        without += "tools" not in r
    assert with_tools and without, f"the demo should have rows with ({with_tools}) and without ({without}) tools"
    return f"{with_tools} prompts with tools, {without} without"


def prm_separator(ctx: Ctx) -> str:
    m = re.search(r"step_separator=(\"(?:[^\"\\]|\\.)*\")", ctx.card("trl-prm"))
    assert m, "the trl-prm dataset card does not give the step separator (step_separator=\"...\")"
    return json.loads(m.group(1))


def dpo(ctx: Ctx) -> str:
    from trl import DPOConfig, DPOTrainer

    ds = ctx.dataset("trl-dpo")
    args = DPOConfig(**common(ctx, "dpo"), beta=0.1, max_length=8192)
    return trained(DPOTrainer(model=tiny("lm", ctx), args=args, train_dataset=ds, processing_class=ctx.tokenizer), len(ds))


def kto(ctx: Ctx) -> str:
    from trl import KTOConfig, KTOTrainer

    ds = ctx.dataset("trl-kto")
    labels = set(ds["label"])
    assert labels == {True, False}, f"KTO needs desirable and undesirable rows, got {labels}"
    args = KTOConfig(**common(ctx, "kto"), max_length=8192)
    return trained(KTOTrainer(model=tiny("lm", ctx), args=args, train_dataset=ds, processing_class=ctx.tokenizer), len(ds))


def reward(ctx: Ctx) -> str:
    from trl import RewardConfig, RewardTrainer

    ds = ctx.dataset("trl-reward")
    assert "margin" in ds.column_names
    args = RewardConfig(**common(ctx, "reward"), max_length=8192)
    return trained(RewardTrainer(model=tiny("seq", ctx, num_labels=1), args=args, train_dataset=ds, processing_class=ctx.tokenizer), len(ds))


def sft(ctx: Ctx, assistant_only: bool) -> str:
    from trl import SFTConfig, SFTTrainer

    ds = ctx.dataset("trl-sft")
    args = SFTConfig(**common(ctx, f"sft-{assistant_only}"), max_length=8192, assistant_only_loss=assistant_only)
    trainer = SFTTrainer(model=tiny("lm", ctx), args=args, train_dataset=ds, processing_class=ctx.tokenizer)
    if assistant_only:
        for ex in trainer.train_dataset:
            kept = [t for t, l in zip(ex["input_ids"], ex["labels"]) if l != -100]
            assert 0 < len(kept) < len(ex["input_ids"]), "assistant_only_loss masks nothing or everything"
            text = ctx.tokenizer.decode(kept)
            assert "<|im_start|>user" not in text and "<tool_response>" not in text, f"user or tool text is trained on: {text[:200]}"
    return trained(trainer, len(ds))


def prm(ctx: Ctx) -> str:
    from trl.experimental.prm import PRMConfig, PRMTrainer

    ds = ctx.dataset("trl-prm")
    args = PRMConfig(**common(ctx, "prm"), step_separator=prm_separator(ctx), max_length=8192, max_completion_length=None)
    trainer = PRMTrainer(model=tiny("tok", ctx, num_labels=2), args=args, train_dataset=ds, processing_class=ctx.tokenizer)
    ex = trainer.train_dataset[0]
    steps = len(ctx.rows("trl-prm")[0]["labels"])
    assert sum(1 for l in ex["labels"] if l != -100) == steps, "one label per step expected"
    return trained(trainer, len(ds))


def example_dpo(ctx: Ctx) -> str:
    """examples/train_dpo.py as its README runs it, on a CPU (fp32: bf16 only where supported)."""
    import subprocess

    tiny("lm", ctx)
    out = ctx.work / "example-dpo"
    cmd = [sys.executable, str(ROOT / "examples" / "train_dpo.py"), "--data", str(ctx.exports / "trl-dpo.jsonl"), "--model", str(ctx.work / "model-lm"), "--out", str(out), "--batch-size", "2", "--grad-accum", "1", "--max-steps", "2", "--max-length", "8192"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode}:\n{(r.stdout + r.stderr)[-2000:]}"
    assert "device: cpu, fp32" in r.stdout, r.stdout[-500:]
    assert (out / "model.safetensors").exists(), "no model saved"
    return r.stdout.strip().splitlines()[0]


TESTS = [
    ("tokenizer: byte-level BPE built locally with a real chat template", build_tokenizer),
    ("datasets reads back every row of every export", read_back),
    ("export shapes: no identical pairs, tools only with tool calls, PRM separator not inside a step", shapes),
    ("Llama-3.1 template: tool boilerplate only where there are tools", llama_tools),
    ("DPOTrainer on trl-dpo", dpo),
    ("KTOTrainer on trl-kto", kto),
    ("RewardTrainer on trl-reward", reward),
    ("SFTTrainer on trl-sft", lambda c: sft(c, False)),
    ("SFTTrainer(assistant_only_loss=True) on trl-sft", lambda c: sft(c, True)),
    ("PRMTrainer (trl.experimental.prm) on trl-prm", prm),
    ("examples/train_dpo.py on trl-dpo, on a CPU", example_dpo),
]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--exports", type=Path, required=True)
    p.add_argument("--work", type=Path, required=True)
    p.add_argument("--report", type=Path, required=True)
    p.add_argument("-k", default=None, help="run only tests whose name contains this")
    a = p.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    import datasets, torch, transformers, trl  # noqa: E401

    print(f"trl {trl.__version__}, transformers {transformers.__version__}, datasets {datasets.__version__}, torch {torch.__version__}")
    datasets.disable_progress_bars()
    transformers.logging.set_verbosity_error()
    ctx = Ctx(a.exports, a.work)
    results = []
    for name, fn in TESTS:
        if a.k and a.k not in name and not name.startswith("tokenizer"):
            continue
        t0 = time.time()
        try:
            detail = fn(ctx)
            results.append({"name": name, "status": "passed", "seconds": time.time() - t0, "detail": detail})
            print(f"ok   {name} ({time.time() - t0:.1f} s): {detail}", flush=True)
        except Exception as e:  # noqa: BLE001 - reported as the test's failure
            results.append({"name": name, "status": "failed", "seconds": time.time() - t0, "detail": f"{type(e).__name__}: {e}"})
            print(f"FAIL {name} ({time.time() - t0:.1f} s): {type(e).__name__}: {e}", flush=True)
            traceback.print_exc()
            if ctx.tokenizer is None:
                break
    a.report.write_text(json.dumps({"tests": results}))
    return 1 if any(r["status"] == "failed" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
