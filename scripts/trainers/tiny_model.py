#!/usr/bin/env python3
"""A tiny random-initialised Qwen2 model and a byte-level BPE tokenizer, built locally (nothing downloaded).

    python scripts/trainers/tiny_model.py OUT_DIR [--corpus FILE ...]

saves a model folder transformers loads (`AutoModelForCausalLM.from_pretrained(OUT_DIR)`,
`AutoTokenizer.from_pretrained(OUT_DIR)`): config + weights (save_pretrained) and the tokenizer
with TRL's Qwen2.5 training chat template (trl/chat_templates/qwen2_5_training.jinja: tool calls,
tool messages, {% generation %} marks for the assistant-only loss). The tokenizer's merges are
learned from the corpus files given (e.g. Witness exports) and the template; byte-level, so any
text still encodes. It is what `npm run test:trainers` trains (scripts/trainers/test_trl.py),
what the end-to-end loop test and `npm run trainer` pass to `witness-trainer` as the base model:
a few optimizer steps of DPO take seconds on a CPU.

Needs `torch`, `transformers`, `tokenizers`, `trl` (for the template): the trainers' venv.
"""

import argparse
import sys
from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# a little text besides the template, so the merges cover ordinary words when no corpus is given
DEFAULT_CORPUS = [
    "You are a helpful assistant. Answer the task step by step, then give the result.",
    "Run the command, read its output, and check the result before you answer.",
    "The derivation starts from the equation of motion; the small-angle limit gives the frequency.",
    "Remove duplicate rows, keep the header, and write the output file.",
]


def training_template() -> str:
    """TRL's Qwen2.5 training chat template (tool calls, tool messages, generation marks)."""
    import trl

    return (Path(trl.__file__).parent / "chat_templates" / "qwen2_5_training.jinja").read_text()


def build_tokenizer(texts: list[str], vocab_size: int = 1024):
    """A byte-level BPE tokenizer trained on `texts` (+ the template), with the Qwen2.5 training template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    template = training_template()
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        list(texts) + [template],
        trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = template
    return fast


def save_tiny_model(folder: Path, tokenizer, kind: str = "lm", **extra) -> Path:
    """Saves a tiny random Qwen2 (kind lm | seq | tok: causal LM, sequence or token classification) with the tokenizer."""
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoModelForTokenClassification, Qwen2Config

    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=8192,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
        **extra,
    )
    auto = {"lm": AutoModelForCausalLM, "seq": AutoModelForSequenceClassification, "tok": AutoModelForTokenClassification}[kind]
    folder.mkdir(parents=True, exist_ok=True)
    auto.from_config(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, help="the model folder to write (created; an existing model there is overwritten)")
    p.add_argument("--corpus", type=Path, nargs="*", default=[], help="text/JSONL files the tokenizer's merges are learned from")
    a = p.parse_args()
    texts = list(DEFAULT_CORPUS)
    for f in a.corpus:
        if not f.is_file():
            print(f"--corpus {f}: no such file", file=sys.stderr)
            return 2
        texts += f.read_text().splitlines()
    tokenizer = build_tokenizer(texts)
    folder = save_tiny_model(a.out.resolve(), tokenizer)
    print(f"tiny Qwen2 (1 layer, hidden 32) + byte-level BPE ({len(tokenizer)} tokens) saved to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
