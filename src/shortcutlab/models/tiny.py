"""Tiny randomly initialised Hugging Face models for tests and for machines without a network.

Each builder trains a tokenizer on the given texts and saves it next to a small random model, so
``transformer`` (or ``AutoModelForSequenceClassification``) can load the folder like any checkpoint.
Same texts and seed => byte-identical files.

Examples:
    >>> import tempfile
    >>> from shortcutlab.corpus import generate_reviews
    >>> texts = generate_reviews(100, seed=0)["text"].tolist()
    >>> folder = build_tiny_bert(tempfile.mkdtemp() + "/bert", texts, vocab_size=300)
    >>> sorted(p.name for p in folder.iterdir())
    ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shortcutlab.data.writing import atomic_output_dir
from shortcutlab.errors import ConfigError
from shortcutlab.params import check_positive_int

BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
LLAMA_SPECIALS = ("<pad>", "<unk>", "<s>", "</s>")


def build_tiny_bert(
    out_dir: str | Path,
    texts: Iterable[str],
    *,
    vocab_size: int = 800,
    hidden_size: int = 64,
    num_layers: int = 2,
    num_heads: int = 2,
    intermediate_size: int = 128,
    max_position: int = 256,
    seed: int = 0,
    overwrite: bool = False,
) -> Path:
    """Save a WordPiece tokenizer trained on ``texts`` and a random ``BertModel`` (no head) to ``out_dir``."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    from transformers import BertConfig, BertModel, BertTokenizerFast

    _check_sizes("build_tiny_bert", vocab_size, hidden_size, num_layers, num_heads)
    wordpiece = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    wordpiece.normalizer = normalizers.BertNormalizer(lowercase=True)
    wordpiece.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    texts = list(texts)
    # The trainer numbers "##c" pieces in hash-map order, and merge ties follow those ids, so the
    # vocabulary changed from run to run; pinning the pieces as leading tokens makes it stable.
    characters = sorted(
        {
            character
            for text in texts
            for word, _ in wordpiece.pre_tokenizer.pre_tokenize_str(
                wordpiece.normalizer.normalize_str(text)
            )
            for character in word
        }
    )
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size,
        special_tokens=[*BERT_SPECIALS, *(f"##{c}" for c in characters)],
        show_progress=False,
    )
    wordpiece.train_from_iterator(texts, trainer)
    # BertTokenizerFast rebuilds BERT's own pipeline (normaliser, [CLS]/[SEP] template) from the vocab.
    tokenizer = BertTokenizerFast(vocab=wordpiece.get_vocab(), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        num_hidden_layers=num_layers,
        num_attention_heads=num_heads,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position,
        pad_token_id=tokenizer.pad_token_id,
    )
    return _save(out_dir, tokenizer, lambda: BertModel(config), seed=seed, overwrite=overwrite)


def build_tiny_llama(
    out_dir: str | Path,
    texts: Iterable[str],
    *,
    vocab_size: int = 800,
    hidden_size: int = 64,
    num_layers: int = 2,
    num_heads: int = 2,
    intermediate_size: int = 128,
    max_position: int = 256,
    seed: int = 0,
    overwrite: bool = False,
) -> Path:
    """Save a byte-level BPE tokenizer (with a pad token) and a random ``LlamaForCausalLM``.

    ``config.pad_token_id`` is set, so ``AutoModelForSequenceClassification`` can find each row's
    last real token; the folder is meant for LoRA / decoder-classifier tests.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    _check_sizes("build_tiny_llama", vocab_size, hidden_size, num_layers, num_heads)
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(LLAMA_SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(list(texts), trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe,
        pad_token="<pad>",
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
    )
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        num_hidden_layers=num_layers,
        num_attention_heads=num_heads,
        num_key_value_heads=num_heads,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return _save(
        out_dir, tokenizer, lambda: LlamaForCausalLM(config), seed=seed, overwrite=overwrite
    )


def _check_sizes(builder: str, vocab_size: int, hidden: int, layers: int, heads: int) -> None:
    for parameter, value in [
        ("vocab_size", vocab_size),
        ("hidden_size", hidden),
        ("num_layers", layers),
        ("num_heads", heads),
    ]:
        check_positive_int(builder, parameter, value)
    if hidden % heads:
        raise ConfigError(
            f"The 'hidden_size' parameter of {builder} must be a multiple of num_heads ({heads}). "
            f"Got {hidden} instead."
        )


def _save(
    out_dir: str | Path, tokenizer: Any, make_model: Any, *, seed: int, overwrite: bool
) -> Path:
    """Initialise the model under ``seed`` without touching the caller's RNG, then save atomically."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = make_model()
    with atomic_output_dir(out_dir, overwrite=overwrite) as tmp:
        tokenizer.save_pretrained(tmp)
        model.save_pretrained(tmp)
    return Path(out_dir)
