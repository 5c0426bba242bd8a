#!/usr/bin/env python3
"""OpenRLHF's and slime's own data loaders, run on Witness' `openrlhf` and `slime` exports.

Neither trainer is on pip, and their code is never committed here: this script copies the few
files that load data out of a local copy of each project's source into a temporary folder and
runs them unchanged, with `datasets` and the tokenizer test_trl.py built:

- OpenRLHF (openrlhf/datasets/reward_dataset.py, openrlhf/datasets/utils.py, openrlhf/utils/utils.py):
  `blending_datasets` reads the JSONL as `--data.dataset` does, `RewardDataset` maps it with
  `--data.prompt_key prompt --data.chosen_key chosen --data.rejected_key rejected
  --data.apply_chat_template` for the reward model (train_rm.py) and with is_dpo=True
  (train_dpo.py), then every row goes through `__getitem__` and `collate_fn`; the prompt must
  be in every chosen/rejected sequence and `margin` must reach the reward model's extras.
- slime (slime/utils/data.py, slime/utils/types.py, slime/utils/misc.py): `Dataset(path, ...,
  prompt_key="prompt", label_key="label", metadata_key="metadata", tool_key="tools",
  apply_chat_template=True)`, as `--input-key prompt --label-key label --apply-chat-template`
  builds it; then examples/slime_reward.py is loaded with slime's own `load_function` (as
  `--custom-rm-path` is) and scores every sample.

Where the source is: OPENRLHF_SRC and SLIME_SRC (a checkout, or a bare git dir read at HEAD),
else ~/.cache/witness-trainers/src/OpenRLHF and .../slime. Absent source: the check is skipped
with a message saying how to provide it (it is not counted as passed).
"""

import argparse
import asyncio
import importlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import traceback
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("WITNESS_TRAINERS_CACHE", Path.home() / ".cache" / "witness-trainers"))

OPENRLHF_FILES = ["openrlhf/datasets/reward_dataset.py", "openrlhf/datasets/utils.py", "openrlhf/utils/utils.py"]
SLIME_FILES = ["slime/utils/data.py", "slime/utils/types.py", "slime/utils/misc.py"]


class Source:
    """A project's source: a working tree, or a bare git dir read at HEAD."""

    def __init__(self, path: Path):
        self.path = path
        self.bare = (path / "HEAD").is_file() and (path / "objects").is_dir()

    def describe(self) -> str:
        if self.bare:
            rev = subprocess.run(["git", "--git-dir", str(self.path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
            return f"{self.path} @ {rev[:12]}"
        return str(self.path)

    def read(self, rel: str) -> str:
        if self.bare:
            r = subprocess.run(["git", "--git-dir", str(self.path), "show", f"HEAD:{rel}"], capture_output=True, text=True)
            if r.returncode != 0:
                raise FileNotFoundError(f"{rel} not in {self.path}: {r.stderr.strip()}")
            return r.stdout
        return (self.path / rel).read_text()


def find_source(env: str, name: str, probe: str) -> Source | None:
    candidates = [Path(os.environ[env])] if os.environ.get(env) else [CACHE / "src" / name]
    for c in candidates:
        if c.exists():
            s = Source(c)
            try:
                s.read(probe)
                return s
            except (FileNotFoundError, OSError):
                continue
    return None


def materialise(source: Source, files: list[str], stubs: dict[str, str], into: Path) -> None:
    """Their files as they are, plus empty package __init__s and the stubs we name (heavy deps only)."""
    for rel in files:
        dst = into / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(source.read(rel))
    for rel, text in stubs.items():
        dst = into / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text)
    for d in {p.parent for p in into.rglob("*.py")}:
        while d != into:
            (d / "__init__.py").touch(exist_ok=True)
            d = d.parent


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def fresh_import(workdir: Path, *modules: str):
    sys.path.insert(0, str(workdir))
    for m in list(sys.modules):
        if m.split(".")[0] in {"openrlhf", "slime", "ray"}:
            del sys.modules[m]
    return [importlib.import_module(m) for m in modules]


class Strategy:
    """What RewardDataset and blending_datasets read from OpenRLHF's strategy (args.data.*, print, is_rank_0)."""

    def __init__(self, **data):
        self.args = types.SimpleNamespace(data=types.SimpleNamespace(**data), use_ms=False)

    def print(self, *a):
        pass

    def is_rank_0(self):
        return False


def check_openrlhf(src: Source, exports: Path, tokenizer_dir: Path) -> str:
    from transformers import AutoTokenizer

    rows = jsonl(exports / "openrlhf.jsonl")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        materialise(src, OPENRLHF_FILES, {}, work)
        reward_dataset, utils, ou = fresh_import(work, "openrlhf.datasets.reward_dataset", "openrlhf.datasets.utils", "openrlhf.utils.utils")
        strategy = Strategy(
            prompt_key="prompt", chosen_key="chosen", rejected_key="rejected", apply_chat_template=True, tokenizer_chat_template=None
        )
        # as train_rm.py / train_dpo.py: get_tokenizer, blending_datasets(--data.dataset), RewardDataset
        tokenizer = ou.get_tokenizer(str(tokenizer_dir), None, "left", strategy)
        data = utils.blending_datasets(str(exports / "openrlhf.jsonl"), None, strategy, 42, max_count=1000000, dataset_split="train")
        assert len(data) == len(rows), f"blending_datasets read {len(data)} rows of {len(rows)}"
        notes = []
        for is_dpo in (False, True):
            ds = reward_dataset.RewardDataset(data, tokenizer, 100000, strategy, is_dpo=is_dpo, num_processors=1)
            assert len(ds) == len(rows), f"RewardDataset(is_dpo={is_dpo}) kept {len(ds)} of {len(rows)} rows"
            items = [ds[i] for i in range(len(ds))]
            batch = ds.collate_fn(items)
            assert batch[0].shape[0] == len(rows), "collate_fn lost rows"
            for i, row in enumerate(rows):
                prompt_text = tokenizer.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
                chosen_text = tokenizer.decode(items[i][0][0])
                user = next(m["content"] for m in row["prompt"] if m["role"] == "user")
                assert user[:40] in chosen_text, f"row {i}: the user prompt is not in the chosen sequence"
                assert ds.prompts[i] == prompt_text, f"row {i}: the prompt differs from the chat template's"
                if not is_dpo:
                    assert math.isclose(items[i][4], row["margin"]), f"row {i}: margin {items[i][4]} != {row['margin']}"
            notes.append(f"{'DPO' if is_dpo else 'RM'} {len(ds)} rows, batch {tuple(batch[0].shape)}")
        return f"{src.describe()}: " + "; ".join(notes)


SLIME_STUBS = {
    # heavy runtime deps of the copied modules, not used by data loading
    "ray/__init__.py": "def get(x):\n    raise RuntimeError('ray is not available in this check')\n",
    "slime/observability/timer.py": "class Timer:\n    pass\n",
    "slime/utils/http_utils.py": "def is_port_available(port):\n    return True\n",
}


def check_slime(src: Source, exports: Path, tokenizer_dir: Path) -> str:
    from transformers import AutoTokenizer

    rows = jsonl(exports / "slime.jsonl")
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        materialise(src, SLIME_FILES, SLIME_STUBS, work)
        data, misc = fresh_import(work, "slime.utils.data", "slime.utils.misc")
        ds = data.Dataset(
            str(exports / "slime.jsonl"),
            tokenizer,
            None,
            None,
            prompt_key="prompt",
            label_key="label",
            tool_key="tools",
            metadata_key="metadata",
            apply_chat_template=True,
        )
        assert len(ds) == len(rows), f"slime Dataset read {len(ds)} of {len(rows)} rows"
        labelled = 0
        for i, (sample, row) in enumerate(zip(ds.samples, rows)):
            assert isinstance(sample.prompt, str) and sample.prompt.endswith("<|im_start|>assistant\n"), f"row {i}: prompt not templated"
            user = next(m["content"] for m in row["prompt"] if m["role"] == "user")
            assert user[:40] in sample.prompt, f"row {i}: the user prompt is not in the sample's prompt"
            assert sample.label is None or isinstance(sample.label, str), f"row {i}: label must be a reference answer (str) or null"
            labelled += sample.label is not None
            assert "score" in sample.metadata and "witness" in sample.metadata, f"row {i}: metadata lacks score / witness"
            has_tools = "tools" in row
            assert ("tools" in sample.metadata) == has_tools
            assert ("# Tools" in sample.prompt) == has_tools, f"row {i}: tool boilerplate {'missing' if has_tools else 'without tools'}"
        # --custom-rm-path examples/slime_reward.py:witness_reward, loaded by slime's load_function
        sys.path.insert(0, str(ROOT / "examples"))
        rm = misc.load_function("slime_reward.witness_reward")
        args = types.SimpleNamespace()
        rewards = []
        for sample, row in zip(ds.samples, rows):
            completion = row["metadata"]["completion"]
            # the reviewed trajectory's own answer stands in for the policy's new response
            sample.response = "\n".join(m["content"] for m in completion if m["role"] == "assistant" and m["content"])
            rewards.append(asyncio.run(rm(args, sample)))
        batch = asyncio.run(rm(args, list(ds.samples)))
        assert batch == rewards, "batch mode (--group-rm / list of samples) differs from one by one"
        assert all(isinstance(r, float) and 0.0 <= r <= 1.0 for r in rewards), f"rewards out of 0..1: {rewards}"
        assert len(set(rewards)) > 1, f"every sample got the same reward {rewards[0]}"
        return f"{src.describe()}: {len(ds)} samples ({labelled} with a reference answer), rewards {min(rewards):.2f}..{max(rewards):.2f}"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--exports", type=Path, required=True)
    p.add_argument("--tokenizer", type=Path, required=True)
    p.add_argument("--report", type=Path, required=True)
    a = p.parse_args()
    tests = []
    checks = [
        ("OpenRLHF RewardDataset (RM and DPO) on the openrlhf export", "OPENRLHF_SRC", "OpenRLHF", OPENRLHF_FILES[0], check_openrlhf),
        ("slime Dataset + examples/slime_reward.py on the slime export", "SLIME_SRC", "slime", SLIME_FILES[0], check_slime),
    ]
    for name, env, dirname, probe, fn in checks:
        t0 = time.time()
        src = find_source(env, dirname, probe)
        if src is None:
            detail = (
                f"no {dirname} source found ({env} or {CACHE / 'src' / dirname}); to run it: "
                f"git clone https://github.com/{'OpenRLHF/OpenRLHF' if dirname == 'OpenRLHF' else 'THUDM/slime'} {CACHE / 'src' / dirname}"
            )
            tests.append({"name": name, "status": "skipped", "seconds": 0, "detail": detail})
            print(f"skip {name}: {detail}")
            continue
        if not a.tokenizer.exists():
            tests.append({"name": name, "status": "failed", "seconds": 0, "detail": f"no tokenizer at {a.tokenizer} (test_trl.py builds it)"})
            continue
        try:
            detail = fn(src, a.exports, a.tokenizer)
            tests.append({"name": name, "status": "passed", "seconds": time.time() - t0, "detail": detail})
            print(f"ok   {name}: {detail}")
        except Exception as e:  # noqa: BLE001 - reported as the test's failure
            tests.append({"name": name, "status": "failed", "seconds": time.time() - t0, "detail": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"})
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            traceback.print_exc()
    a.report.write_text(json.dumps({"tests": tests}))
    return 1 if any(t["status"] == "failed" for t in tests) else 0


if __name__ == "__main__":
    sys.exit(main())
