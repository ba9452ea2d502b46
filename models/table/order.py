#!/usr/bin/env python3
"""The embedding table's row order (issue #43, part 1): which piece sits in
which row of models/muse-v3/table.u8, so that the pieces one language uses
sit together and a text needs few of the table's blocks.

usage: .venv/bin/python models/table/order.py [OUT]
       (default OUT: models/table/order.u32.gz; needs target/ci/precis or
       $PRECIS, models/muse-v3/ and ../shared/data)

Order c of docs/results/table-blocks.md, chosen there by measurement on
held-out clusters and pages: each piece goes to the language where its
frequency (normalized by that language's corpus) is highest, languages in a
fixed order (Latin script, Cyrillic, Arabic, Thai, Hangul, Han and kana),
by that frequency within a language; pieces never seen in training last,
in id order. The counts are from training text only (Multi-News
validation, ml_crisis Egypt and Libya, the dev pages of
tests/fixtures/furniture/pages), as in that report.

The output is committed (CI has no data to count on): the piece ids in row
order, little-endian u32, gzipped. models/build.py reads it and writes the
table's blocks in this order.
"""
import gzip, os, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "experiments"))
import table_blocks  # noqa: E402  (the measurement this order was chosen by)

ORDER_NAME = "c. language, then frequency"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "order.u32.gz")
    counts, tokens, ntrain = table_blocks.training_counts(tempfile.mkdtemp(prefix="table-order-"))
    positions, seen = table_blocks.orders(counts)
    ids_in_row_order = np.argsort(positions[ORDER_NAME], kind="stable").astype("<u4")
    assert sorted(ids_in_row_order.tolist()) == list(range(table_blocks.ROWS))
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(ids_in_row_order.tobytes())
    print(f"{out}: {len(ids_in_row_order):,} rows, {int(seen.sum()):,} pieces seen in training "
          f"({ntrain['lines']:,} lines)", file=sys.stderr)


if __name__ == "__main__":
    main()
