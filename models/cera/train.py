#!/usr/bin/env python3
"""Train the CeRA and CeRAI centroid heads (Gonçalves et al. 2023, §3.1) on
the Multi-News embedding cache that `precis embed-dataset` writes, and export
them to the ONNX graphs (models/cera/lean.py) that src/centroid/cera.rs runs
with tract.

One command per step, CPU only (from the repo root, after the caches exist):

    target/release/precis embed-dataset --data ../shared/data/multinews/train.jsonl.gz --out models/cera/cache/train
    target/release/precis embed-dataset --data ../shared/data/multinews/train.jsonl.gz --out models/cera/cache/train --rouge-tokens
    target/release/precis embed-dataset --data ../shared/data/multinews/val.jsonl.gz --out models/cera/cache/val --limit-clusters 2000

The shipped heads (seventh round, docs/results/cera.md) are four steps.
1. The base CeRA from scratch (the defaults: all 44,972 train clusters,
   --target mix, epoch chosen by --select-by rouge):

    .venv/bin/python models/cera/train.py --heads cera --out /tmp/base

2. CeRA: the base fine-tuned with the ranking loss (--rank-weight, below)
   under the ROUGE teacher:

    .venv/bin/python models/cera/train.py --heads cera --init-from /tmp/base --rank-weight 2 \
        --rank-teacher rouge --lr 1e-4 --step-size 1 --gamma 0.3 --max-epochs 2 --select-clusters 2000 \
        --out /tmp/full

3. CeRAI: from that CeRA, the same loss on the extract target:

    .venv/bin/python models/cera/train.py --heads cerai --init-from /tmp/full --target extract \
        --rank-weight 2 --rank-teacher rouge --lr 1e-4 --step-size 1 --gamma 0.3 --max-epochs 2 --select-clusters 2000 \
        --out /tmp/full

4. Both distilled to a 64-unit score layer (--distill-from, below):

    .venv/bin/python models/cera/train.py --heads cera,cerai --distill-from /tmp/full --score-width 64 \
        --lr 1e-3 --step-size 1 --gamma 0.3 --max-epochs 3 --select-clusters 2000

Distillation (--distill-from DIR --score-width H, seventh round): the score
layer (the first layer of the attention MLP, d -> d in the paper) is the
one product that grows with the cluster, N x 512 x d multiply-adds; in the
browser's single-threaded wasm it made a 598-sentence DUC2004 cluster take
17 ms. The student copies the teacher head from DIR, keeps the H hidden
units with the largest output weights, freezes everything else and trains
only that layer to reproduce the teacher's attention (KL divergence per
cluster): the rest of the head turns the attention into the centroid, so
the same attention gives the same centroid. At H = 64 the students match
their teachers' BS+GS ROUGE-2 on the selection clusters (CeRA 17.88 vs
17.94, CeRAI 18.01 vs 17.97) and run 4x faster.

Ranking loss (--rank-weight λ, sixth round): BS+GS picks the summary whose
centroid has the highest cosine to the head's centroid, so what counts is
the order the centroid puts candidate summaries in, not its distance to
the reference mean. For each training cluster, 64 candidate sets of its
sentences (ranking_candidates: the greedy oracle extract, near misses that
swap 1-3 of its sentences, random sets) are scored by the head's centroid
and by a teacher, and λ times the KL divergence between the two softmax
distributions over the candidates (ranking_loss) is added to the cosine
loss. The teacher is either the cosine to the reference mean
(--rank-teacher embedding: no gain) or the candidate's ROUGE-2 F1 against
the reference summary (--rank-teacher rouge, BigramOverlap, from the token
ids of `precis embed-dataset --rouge-tokens`): +0.35-0.4 R2 recall on
Multi-News validation.

--interpolate normalized (fourth round, not shipped) rescales ĉ_attn to the
plain mean's length before CeRAI mixes them, so that α actually weighs the
two; --alpha-init sets α's starting value.

--hidden-layers 2 (a deeper attention MLP) and --context-layer (one
self-attention block over the cluster's sentences before the scoring, see
CentroidHead.context_block) were tried in the fifth round and not shipped
(docs/results/cera.md); both are off by default.

Every epoch's weights are saved under --epochs-dir; --average 2,3 exports
the mean of saved epochs (checkpoint averaging) instead of training.

Model (the paper's Multi-News configuration, as in its reference code):
- e_k L2-normalized, LayerNorm, plus a learnable positional embedding of the
  sentence's index in its document (35 positions; later sentences share the
  last one);
- each e_pos,k concatenated with the cluster mean-pool (mean over documents of
  each document's mean of e_pos), a 2-layer MLP (2d → d, tanh, → 1), softmax
  over the cluster's sentences → attention β;
- h = Σ β_k e_k (the layer-normed sentences), LayerNorm, Linear(d, d) → ĉ_attn;
- CeRAI: α = sigmoid(Linear(ReLU(Linear([ĉ_attn; ē_D])))), ĉ = α ⊙ ĉ_attn +
  (1 − α) ⊙ ē_D, with ē_D the plain mean of the cluster's sentences.
Loss (--target): the paper's is the cosine distance to the mean of the
reference summary's sentence embeddings ("reference"); the shipped heads use
"mix", the mean of that distance and the distance to the centroid of the
summary's greedy extract from the cluster (extract_centroid: the document
sentences whose sum comes closest to the reference mean, as many as the
summary has sentences), which won on validation. Batch 2, Adam lr 5e-4,
StepLR(step 3, γ 0.1), at most 6 epochs, seed 12.

Epoch selection (--select-by rouge, the paper's criterion): after each epoch
the head is exported exactly as it ships (float16) and `precis evaluate`
(--precis) runs BS+GS on its centroid over the first --select-clusters (500)
Multi-News validation clusters; the epoch with the best ROUGE-2 recall is
kept (patience 5). --select-by cosine uses the earlier proxy instead, the mean
cosine between the predicted and the reference centroid on the first
--val-clusters clusters of the validation cache (always logged).

ONNX contract: see models/cera/lean.py and src/centroid/cera.rs (inputs
`rows` f32 [N, 512], the embeddings normalized and standardized by the
caller, `positions` i64 [N], `weights` f32 [N], the mean-pool weight of each
sentence, and for CeRAI `mean` f32 [512]; outputs `centroid`, `attention`,
and for CeRAI `alpha`, `attention_centroid`). The graph is written op by op
from the weights (lean.py), not traced. The script checks the exported
graph against PyTorch with onnxruntime; the Rust test
`centroid::cera::tests::shipped_heads_match_pytorch` checks tract against the
reference outputs written beside the models (models/cera/<head>.reference.json,
on synthetic clusters the test rebuilds).
"""

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lean  # noqa: E402  (the inference graph: models/cera/lean.py)

DIM = 512
HERE = Path(__file__).resolve().parent


# --------------------------------------------------------------------------
# Data


class Split:
    """One cache written by `precis embed-dataset` (prefix.{clusters.jsonl,
    sentences.f16, summary.f16}). Clusters whose rows are not all in the
    files (an interrupted run) are dropped, as are clusters without a
    sentence or a summary."""

    def __init__(self, prefix, limit=None):
        prefix = str(prefix)
        sentences = np.fromfile(prefix + ".sentences.f16", dtype="<f2")
        summary = np.fromfile(prefix + ".summary.f16", dtype="<f2")
        self.sentences = sentences[: sentences.size // DIM * DIM].reshape(-1, DIM)
        self.summary = summary[: summary.size // DIM * DIM].reshape(-1, DIM)
        self.clusters = []  # (id, start, end, positions, documents, sum_start, sum_end)
        start = sum_start = 0
        truncated = 0
        with open(prefix + ".clusters.jsonl") as f:
            for line in f:
                try:
                    c = json.loads(line)
                except json.JSONDecodeError:
                    truncated += 1
                    break
                n, m = len(c["doc"]), c["summary_sentences"]
                end, sum_end = start + n, sum_start + m
                if end > len(self.sentences) or sum_end > len(self.summary):
                    truncated += 1
                    break
                if n > 0 and m > 0:
                    self.clusters.append(
                        (c["id"], start, end, np.array(c["pos"], dtype=np.int64),
                         np.array(c["doc"], dtype=np.int64), sum_start, sum_end)
                    )
                start, sum_start = end, sum_end
                if limit is not None and len(self.clusters) >= limit:
                    break
        self.truncated = truncated

    def __len__(self):
        return len(self.clusters)

    def sentence_count(self):
        return sum(c[2] - c[1] for c in self.clusters)

    def reference(self, i):
        """The mean of the reference summary's sentences and their count."""
        _, _, _, _, _, ss, se = self.clusters[i]
        return self.summary[ss:se].astype(np.float32).mean(0), se - ss

    def item(self, i, target="reference"):
        """Sentences, positions, documents and the training target: the mean
        of the reference summary's sentences ("reference", the paper's), the
        centroid of its greedy extract ("extract"), or both stacked ("mix")."""
        _, s, e, pos, doc, _, _ = self.clusters[i]
        x = self.sentences[s:e].astype(np.float32)
        gold, k = self.reference(i)
        if target == "extract":
            gold = extract_centroid(x, gold, k)
        elif target == "mix":
            gold = np.stack([gold, extract_centroid(x, gold, k)])
        return x, pos, doc, gold


def extract_centroid(x, gold, k):
    """Mean of the document sentences a greedy oracle extracts for `gold`
    (greedy_extract). The centroid of the best summary BS+GS could pick, in
    embedding space (--target extract|mix)."""
    x = unit(x)
    return x[greedy_extract(x, gold, k)].mean(0)


def unit(x):
    """x scaled to length 1 along its last axis (rows of a matrix, or a vector)."""
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-8)


def cosines(rows, g):
    """Cosine of each row to the unit vector g."""
    return rows @ g / np.maximum(np.linalg.norm(rows, axis=1), 1e-8)


def greedy_extract(x, gold, k):
    """Indices of up to k rows of x (unit vectors; k = the reference
    summary's sentence count), each step adding the one that brings the
    sum's cosine to `gold` highest, stopping when none raises it."""
    g = unit(gold)
    total = np.zeros(x.shape[1], np.float32)
    picked = np.zeros(len(x), bool)
    best = -math.inf
    for _ in range(min(k, len(x))):
        candidates = total + x
        scores = cosines(candidates, g)
        scores[picked] = -math.inf
        j = int(np.argmax(scores))
        if scores[j] <= best:
            break
        best, total, picked[j] = scores[j], candidates[j], True
    return np.flatnonzero(picked)


# BS+GS only considers each document's first sentences (Settings::first_sentences).
FIRST_SENTENCES = 9


def ranking_candidates(x, pos, gold, k, count, rng, overlap=None):
    """Candidate summaries of one cluster for the ranking loss (--rank-weight):
    `count` sets of sentences among each document's first FIRST_SENTENCES,
    as a row-normalized membership matrix [count, n], and each set's
    quality, the order the head's centroid should reproduce: its cosine to
    `gold` (the reference mean), or with `overlap` (a BigramOverlap of the
    cluster, --rank-teacher rouge) its ROUGE-2 F1 against the reference. The
    first set is the greedy oracle extract under that quality; half of the
    others swap one to three of its sentences (the near misses BS+GS must
    tell apart), the rest are random sets of about k sentences."""
    pool = np.flatnonzero(pos < FIRST_SENTENCES)
    if len(pool) == 0:
        pool = np.arange(len(x))
    xn = unit(x)
    if overlap is None:
        extract = pool[greedy_extract(xn[pool], gold, k)]
    else:
        extract = overlap.greedy_extract(pool, k)
    outside = np.setdiff1d(pool, extract)
    members = np.zeros((count, len(x)), np.float32)
    members[0, extract] = 1
    for j in range(1, count):
        if j % 2 and len(outside):
            swaps = int(rng.integers(1, min(3, len(extract), len(outside)) + 1))
            kept = rng.choice(extract, len(extract) - swaps, replace=False)
            chosen = np.concatenate([kept, rng.choice(outside, swaps, replace=False)])
        else:
            size = int(np.clip(k + rng.integers(-1, 2), 1, len(pool)))
            chosen = rng.choice(pool, size, replace=False)
        members[j, chosen] = 1
    # A set's cosine does not depend on the scale of its sum, so both
    # teachers score the 0/1 memberships.
    quality = cosines(members @ xn, unit(gold)) if overlap is None else overlap.f1(members)
    return members / members.sum(1, keepdims=True), quality.astype(np.float32)


class BigramOverlap:
    """ROUGE-2 of sets of a cluster's sentences against its reference, from
    the token ids `precis embed-dataset --rouge-tokens` writes (ROUGE-1.5.5's
    tokens, stemmed). Bigrams that cross two selected sentences are left
    out, a small undercount."""

    def __init__(self, sentences, reference):
        size = 1 + max([0, *reference, *(t for s in sentences for t in s)])
        ref = np.asarray(reference, np.int64)
        codes, self.ref_counts = np.unique(ref[:-1] * size + ref[1:], return_counts=True)
        self.ref_total = max(len(ref) - 1, 1)
        # hits[i, r]: how often sentence i has the reference's r-th distinct bigram.
        self.hits = np.zeros((len(sentences), len(codes)), np.float32)
        self.totals = np.zeros(len(sentences), np.float32)
        for i, s in enumerate(sentences):
            s = np.asarray(s, np.int64)
            grams = s[:-1] * size + s[1:]
            self.totals[i] = len(grams)
            at = np.searchsorted(codes, grams)
            found = (at < len(codes)) & (codes[np.minimum(at, len(codes) - 1)] == grams)
            np.add.at(self.hits[i], at[found], 1)

    def f1(self, members):
        """ROUGE-2 F1 of each row's set (members [K, n], nonzero = selected)."""
        chosen = (members > 0).astype(np.float32)
        matched = np.minimum(chosen @ self.hits, self.ref_counts).sum(1)
        recall = matched / self.ref_total
        precision = matched / np.maximum(chosen @ self.totals, 1)
        return 2 * recall * precision / np.maximum(recall + precision, 1e-12)

    def greedy_extract(self, pool, k):
        """Up to k sentences of `pool`, each step adding the one that raises
        the set's ROUGE-2 F1 most, stopping when none raises it."""
        picked, best = [], 0.0
        for _ in range(min(k, len(pool))):
            rest = [i for i in pool if i not in picked]
            trial = np.zeros((len(rest), len(self.totals)), np.float32)
            trial[:, picked] = 1
            trial[np.arange(len(rest)), rest] = 1
            scores = self.f1(trial)
            j = int(np.argmax(scores))
            if scores[j] <= best:
                break
            best = scores[j]
            picked.append(rest[j])
        return np.array(picked if picked else [pool[0]], np.int64)


def load_rouge_tokens(path, split):
    """Per cluster of `split`, its BigramOverlap (None if the file lacks it)."""
    by_id = {}
    with open(path) as f:
        for line in f:
            c = json.loads(line)
            by_id[c["id"]] = (c["sentences"], c["reference"])
    overlaps = []
    for cid, s, e, *_ in split.clusters:
        found = by_id.get(cid)
        assert found is None or len(found[0]) == e - s, (cid, len(found[0]), e - s)
        overlaps.append(BigramOverlap(*found) if found else None)
    return overlaps


def ranking_loss(centroid, x, members, quality, temperature):
    """Listwise loss (ListNet) between the order of the candidate summaries
    by cosine to the predicted centroid, which is what BS+GS maximizes, and
    their order by the teacher's `quality` (ranking_candidates). Both score lists are
    standardized per cluster (BS+GS's argmax ignores their offset and scale),
    then compared as softmax distributions at `temperature`: KL(teacher ‖
    head)."""
    xn = F.normalize(x, dim=-1, eps=1e-8)
    candidates = torch.bmm(members, xn)  # [B, K, d]
    head = cosine(candidates, centroid.unsqueeze(1))

    def standardized(s):
        return (s - s.mean(-1, keepdim=True)) / (s.std(-1, keepdim=True) + 1e-6)

    teacher = torch.softmax(standardized(quality) / temperature, dim=-1)
    log_head = torch.log_softmax(standardized(head) / temperature, dim=-1)
    return (teacher * (torch.log(teacher + 1e-12) - log_head)).sum(-1).mean()


def document_weights(doc):
    """Weight of each sentence in the mean of per-document means."""
    _, inverse, counts = np.unique(doc, return_inverse=True, return_counts=True)
    return (1.0 / counts[inverse]) / len(counts)


def collate(split, indices, target="reference", rank=None):
    """A padded batch. With `rank` (count, rng, overlaps or None), also each cluster's
    ranking candidates (ranking_candidates): members [B, count, S] and
    quality [B, count]."""
    items = [split.item(i, target) for i in indices]
    b, s = len(items), max(len(it[0]) for it in items)
    x = np.zeros((b, s, DIM), np.float32)
    pos = np.zeros((b, s), np.int64)
    w = np.zeros((b, s), np.float32)
    mask = np.zeros((b, s), bool)
    gold = np.stack([it[3] for it in items])
    for k, (xi, pi, di, _) in enumerate(items):
        n = len(xi)
        x[k, :n], pos[k, :n], w[k, :n], mask[k, :n] = xi, pi, document_weights(di), True
    batch = (torch.from_numpy(x), torch.from_numpy(pos), torch.from_numpy(w),
             torch.from_numpy(mask), torch.from_numpy(gold))
    if rank is None:
        return batch
    count, rng, overlaps = rank
    members = np.zeros((b, count, s), np.float32)
    quality = np.zeros((b, count), np.float32)
    for k, i in enumerate(indices):
        xi, pi = items[k][0], items[k][1]
        reference, summary_sentences = split.reference(i)
        overlap = overlaps[i] if overlaps is not None else None
        members[k, :, :len(xi)], quality[k] = ranking_candidates(xi, pi, reference, summary_sentences, count, rng,
                                                                 overlap)
    return batch + (torch.from_numpy(members), torch.from_numpy(quality))


# --------------------------------------------------------------------------
# Model


def new_head(name, args, score_width=None):
    """An untrained head `name` (cera or cerai) with the run's architecture
    (score_width: the attention MLP's hidden width, default --score-width)."""
    return CentroidHead(positions=args.positions, interpolation=(name == "cerai"),
                        score_width=score_width or args.score_width,
                        hidden_layers=args.hidden_layers, interpolate=args.interpolate,
                        context=args.context_layer, context_dim=args.context_dim,
                        context_heads=args.context_heads)


def epoch_folder(epochs_dir, name, epoch):
    """Where one epoch's weights and exported model are kept."""
    return Path(epochs_dir) / f"{name}-epoch{epoch}"


class CentroidHead(nn.Module):
    def __init__(self, dim=DIM, positions=35, interpolation=False, hidden_layers=1, interpolate="raw",
                 context=False, context_dim=256, context_heads=4, score_width=DIM):
        super().__init__()
        self.positions = positions
        self.context = context
        if context:
            # Context layer (--context-layer, fifth round): one pre-norm
            # self-attention block over the cluster's sentences before the
            # scoring, so each sentence's score can depend on the others
            # (e.g. redundancy). Q/K/V project d -> context_dim, context_heads
            # heads, the output is projected back to d and added residually.
            # The output projection starts at zero, so an untrained block is
            # the identity and the head starts as plain CeRA.
            assert context_dim % context_heads == 0
            self.context_heads = context_heads
            self.ctx_ln = nn.LayerNorm(dim)
            self.ctx_q = nn.Linear(dim, context_dim)
            self.ctx_k = nn.Linear(dim, context_dim)
            self.ctx_v = nn.Linear(dim, context_dim)
            self.ctx_o = nn.Linear(context_dim, dim)
            nn.init.zeros_(self.ctx_o.weight)
            nn.init.zeros_(self.ctx_o.bias)
        self.interpolation = interpolation
        self.interpolate = interpolate
        self.ln_in = nn.LayerNorm(dim)
        self.pos = nn.Embedding(positions, dim)
        # The first layer of the MLP over [e_pos,k; pooled], split in its two
        # halves so the pooled half is computed once per cluster (the same
        # function and initialization as one Linear(2d, d)).
        # Its width (--score-width) is the paper's d by default; the shipped
        # heads are distilled to a narrower one (seventh round), since this
        # layer is almost all of the head's time in the browser.
        self.score_sentence = nn.Linear(dim, score_width)
        self.score_pooled = nn.Linear(dim, score_width, bias=False)
        bound = 1 / math.sqrt(2 * dim)
        for layer in (self.score_sentence, self.score_pooled):
            nn.init.uniform_(layer.weight, -bound, bound)
        nn.init.uniform_(self.score_sentence.bias, -bound, bound)
        layers = [nn.Tanh()]
        for _ in range(hidden_layers - 1):
            layers += [nn.Linear(score_width, score_width), nn.Tanh()]
        self.score = nn.Sequential(*layers, nn.Linear(score_width, 1))
        self.ln_out = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, dim)
        if interpolation:
            self.alpha = nn.Sequential(
                nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, dim), nn.Sigmoid()
            )

    def forward(self, x, pos, w, mask=None):
        """x [B,S,d], pos [B,S] (i64), w [B,S] per-document mean weights
        (sum to 1 per cluster, 0 on padding), mask [B,S] (True = sentence)
        or None. Returns centroid [B,d], attention [B,S], alpha, c_attn."""
        x = F.normalize(x, dim=-1, eps=1e-8)
        if mask is None:
            mean = x.mean(1)
        else:
            m = mask.unsqueeze(-1).to(x.dtype)
            mean = (x * m).sum(1) / m.sum(1)
        xl = self.ln_in(x)
        p = torch.clamp(pos, max=self.positions - 1)
        xp = xl + self.pos(p)
        if self.context:
            xp = xp + self.context_block(xp, mask)
        pooled = (xp * w.unsqueeze(-1)).sum(1, keepdim=True)
        z = self.score(self.score_sentence(xp) + self.score_pooled(pooled)).squeeze(-1)
        if mask is not None:
            z = z.masked_fill(~mask, float("-inf"))
        attention = torch.softmax(z, dim=-1)
        h = (attention.unsqueeze(-1) * xl).sum(1)
        c_attn = self.out(self.ln_out(h))
        if not self.interpolation:
            return c_attn, attention, None, None
        alpha = self.alpha(torch.cat([c_attn, mean], dim=-1))
        if self.interpolate == "normalized":
            # Scale-aware mix (--interpolate normalized): ĉ_attn rescaled to
            # ē_D's length before mixing, i.e. ‖ē_D‖ · (α ⊙ n(ĉ_attn) +
            # (1 − α) ⊙ n(ē_D)), the same direction as mixing the two unit
            # vectors. The rescaled ĉ_attn is what `attention_centroid`
            # returns, so centroid = α ⊙ attention_centroid + (1 − α) ⊙ ē_D
            # still holds (src/centroid/cera.rs, attention_share).
            c_attn = c_attn * (mean.norm(dim=-1, keepdim=True)
                               / c_attn.norm(dim=-1, keepdim=True).clamp_min(1e-8))
        return alpha * c_attn + (1 - alpha) * mean, attention, alpha, c_attn

    def context_block(self, xp, mask):
        """Multi-head self-attention over the sentences of each cluster
        (padding masked out as keys); returns the residual update [B,S,d]."""
        b = xp.size(0)
        heads = self.context_heads
        width = self.ctx_q.out_features // heads
        h = self.ctx_ln(xp)

        def split(t):  # [B,S,c] -> [B,heads,S,c/heads]
            return t.reshape(b, -1, heads, width).transpose(1, 2)

        q, k, v = split(self.ctx_q(h)), split(self.ctx_k(h)), split(self.ctx_v(h))
        z = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(width))
        if mask is not None:
            z = z.masked_fill(~mask[:, None, None, :], float("-inf"))
        o = torch.matmul(torch.softmax(z, dim=-1), v).transpose(1, 2)
        return self.ctx_o(o.reshape(b, -1, heads * width))


class Exported(nn.Module):
    """One unbatched cluster, the document indices turned into mean-pool
    weights as src/centroid/cera.rs does: the PyTorch side of the parity
    checks of the exported graph."""

    def __init__(self, head):
        super().__init__()
        self.head = head

    def forward(self, embeddings, positions, documents):
        w = torch.from_numpy(lean.document_weights(documents.numpy()))
        c, a, alpha, c_attn = self.head(embeddings.unsqueeze(0), positions.unsqueeze(0), w.unsqueeze(0))
        if alpha is None:
            return c[0], a[0]
        return c[0], a[0], alpha[0], c_attn[0]


# --------------------------------------------------------------------------
# Training


def cosine(a, b):
    return F.cosine_similarity(a, b, dim=-1, eps=1e-8)


@torch.no_grad()
def validate(model, split, batch=16):
    model.eval()
    total = 0.0
    for i in range(0, len(split), batch):
        x, pos, w, mask, gold = collate(split, range(i, min(i + batch, len(split))))
        c = model(x, pos, w, mask)[0]
        total += cosine(c, gold).sum().item()
    model.train()
    return total / len(split)


@torch.no_grad()
def baseline_cosines(split):
    mean = oracle = 0.0
    for i in range(len(split)):
        x, _, _, gold = split.item(i)
        m = unit(x).mean(0)
        mean += float(m @ gold / (np.linalg.norm(m) * np.linalg.norm(gold) + 1e-12))
    return mean / len(split)


def train(name, args, train_split, val_split, log):
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    model = new_head(name, args)
    if model.interpolation and args.alpha_init is not None:
        with torch.no_grad():  # the last layer's bias: α starts near --alpha-init in every dimension
            model.alpha[2].bias.fill_(math.log(args.alpha_init / (1 - args.alpha_init)))
    teacher = None
    if args.distill_from:
        teacher = distillation_teacher(name, model, Path(args.distill_from) / f"{name}.onnx", args)
        log(f"{name}: score layer distilled from {args.distill_from}/{name}.onnx "
            f"({teacher.score_sentence.out_features} -> {args.score_width} units; the other weights copied, frozen)")
    elif args.init_from:
        kept = init_from_cera(model, Path(args.init_from) / "cera.onnx", args)
        log(f"{name}: attention and output map initialized from {args.init_from}/cera.onnx"
            f" (not in it, initialized here: {sorted({k.split('.')[0] for k in kept})})")
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.step_size, gamma=args.gamma)
    order_rng = np.random.default_rng(args.seed)
    overlaps = None
    if args.rank_weight > 0 and args.rank_teacher == "rouge":
        t = time.time()
        overlaps = load_rouge_tokens(args.train + ".rouge.jsonl", train_split)
        log(f"ROUGE tokens of {sum(o is not None for o in overlaps)} train clusters ({time.time() - t:.0f} s)")
    best, best_epoch, best_state, waited = -math.inf, -1, None, 0
    history = []
    started = time.time()
    rank = (args.rank_candidates, order_rng, overlaps) if args.rank_weight > 0 else None
    for epoch in range(args.max_epochs):
        t = time.time()
        order = order_rng.permutation(len(train_split))
        running, steps = 0.0, 0
        for i in range(0, len(order), args.batch):
            x, pos, w, mask, gold, *candidates = collate(train_split, order[i:i + args.batch], args.target, rank)
            c, attention = model(x, pos, w, mask)[:2]
            if teacher is not None:
                with torch.no_grad():
                    taught = teacher(x, pos, w, mask)[1]
                loss = attention_divergence(taught, attention)
            else:
                # With --target mix, gold is [B, 2, d]: the mean of both cosine distances.
                loss = (1 - cosine(c.unsqueeze(1) if args.target == "mix" else c, gold)).mean()
            if candidates:
                loss = loss + args.rank_weight * ranking_loss(c, x, *candidates, args.rank_temperature)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
            steps += 1
        scheduler.step()
        train_seconds = time.time() - t
        cos = validate(model, val_split)
        record = {"epoch": epoch + 1, "train_loss": running / steps, "val_cosine": cos,
                  "seconds": train_seconds}
        score = cos
        if args.select_by == "rouge":
            record["val_rouge"] = rouge_of_epoch(name, model, epoch + 1, args, log)
            score = record["val_rouge"]["R2_recall"]
        history.append(record)
        folder = epoch_folder(args.epochs_dir, name, epoch + 1)
        folder.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), folder / "state.pt")  # for --average
        log(f"{name} epoch {epoch + 1}: train loss {running / steps:.5f}, val cosine {cos:.5f}"
            + (f", val R2 recall {100 * score:.3f}" if args.select_by == "rouge" else "")
            + f" ({train_seconds:.0f} s training, {time.time() - t - train_seconds:.0f} s validation)")
        if score > best:
            best, best_epoch, waited = score, epoch + 1, 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= args.patience:
                break
    model.load_state_dict(best_state)
    model.eval()
    chosen = history[best_epoch - 1]
    return model, {"best_epoch": best_epoch, "selected_by": args.select_by, "val_cosine": chosen["val_cosine"],
                   **({"val_rouge": chosen["val_rouge"]} if "val_rouge" in chosen else {}),
                   "epochs": history, "train_seconds": time.time() - started}


def distillation_teacher(name, model, path, args):
    """--distill-from (seventh round): `model` becomes a copy of the trained
    head at `path` whose score layer keeps only --score-width of its
    hidden units, the ones with the largest output weights |v_j|; only
    that layer trains, to reproduce the teacher's attention (the rest of
    the head turns attention into the centroid, so the same attention
    gives the same centroid). Returns the teacher, frozen."""
    width = lean.read_params(path)["score_sentence.weight"].shape[0]
    teacher = new_head(name, args, score_width=width)
    load_onnx_weights(teacher, path)
    teacher.eval().requires_grad_(False)
    kept = torch.argsort(teacher.score[-1].weight[0].abs(), descending=True)[:args.score_width]
    narrowed = {}
    for key, value in teacher.state_dict().items():
        if key.startswith(("score_sentence.", "score_pooled.")):
            value = value[kept]
        elif key == "score.1.weight":
            value = value[:, kept]
        narrowed[key] = value
    model.load_state_dict(narrowed)
    for key, parameter in model.named_parameters():
        parameter.requires_grad_(key.startswith(("score_sentence.", "score_pooled.", "score.")))
    return teacher


def attention_divergence(taught, learnt):
    """KL(teacher's attention || student's), summed over each cluster's
    sentences (padding has weight 0 in both), mean over the batch."""
    tiny = 1e-30
    return (taught * (taught.clamp_min(tiny).log() - learnt.clamp_min(tiny).log())).sum(-1).mean()


def init_from_cera(model, path, args):
    """Starts a head (CeRAI) from a trained CeRA: every weight the two share
    (positional embeddings, LayerNorms, attention MLP, output map) is copied
    from `path`; CeRAI's interpolation network keeps its initialization
    (--init-from)."""
    cera = new_head("cera", args)
    loaded = load_onnx_weights(cera, path, partial=args.context_layer)
    missing, unexpected = model.load_state_dict({k: v for k, v in cera.state_dict().items() if k in loaded},
                                                strict=False)
    # A CeRA without a context layer can start a head with one (--context-layer):
    # the block keeps its initialization, an identity (its output projection is 0).
    assert not unexpected and all(k.startswith(("alpha.", "ctx_")) for k in missing), (missing, unexpected)
    return missing


def average_epochs(model, name, epochs, epochs_dir):
    """Mean of the weights saved after each of `epochs` (checkpoint
    averaging, --average)."""
    states = [torch.load(epoch_folder(epochs_dir, name, e) / "state.pt") for e in epochs]
    model.load_state_dict({k: sum(s[k] for s in states) / len(states) for k in states[0]})


def rouge_of_epoch(name, model, epoch, args, log):
    """The paper's selection criterion: ROUGE of BS+GS summaries on the
    estimated centroid, over the first --select-clusters validation clusters,
    computed by `precis evaluate` on this epoch's weights exported exactly as
    they would ship (float16). Returns recall and F1 of ROUGE-1/2/L."""
    import copy
    import subprocess

    folder = epoch_folder(args.epochs_dir, name, epoch)
    folder.mkdir(parents=True, exist_ok=True)
    shipped = copy.deepcopy(model).eval()
    round_to_half(shipped)
    export(shipped, folder / f"{name}.onnx")
    command = [args.precis, "evaluate", "--dataset", "multinews", "--data", args.select_data,
               "--limit-clusters", str(args.select_clusters), "--methods", name, "--heads", str(folder),
               "--threads", "1", "--out", str(folder / "eval")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = json.loads((folder / "eval" / "results.json").read_text())
    method = next(m for m in results["methods"] if m["method"] == name)
    assert method["clusters"] == args.select_clusters, method["clusters"]
    scores = {}
    for metric in method["rouge"]["metrics"]:
        short = metric["metric"].replace("ROUGE-", "R")
        if short not in ("R1", "R2", "RL"):
            continue
        scores[f"{short}_recall"] = metric["recall"]["mean"]
        scores[f"{short}_f"] = metric["f"]["mean"]
    model.train()
    return scores


# --------------------------------------------------------------------------
# Export


def round_to_half(model):
    """Rounds every weight to the nearest float16, the precision the ONNX
    file stores them in (keeps each file under 5 MB); the PyTorch model used
    for the reference outputs is then exactly the shipped one."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())


def cap_positions(model, cap):
    """Positions past `cap` share its embedding. Truncated Multi-News rarely
    has sentences that deep in a document (position 14: 1,170 of 377,301
    training sentences, position 20: 131), so their embeddings stay near
    their N(0, 1) initialization and scramble the attention on long
    articles (DUC2004, full text). Tying them to the last well-trained
    position was tried without retraining (--from-onnx --position-cap 14):
    it did not help on the full-text validation sample or DUC2004
    (docs/results/cera.md), so the shipped heads keep all 35 positions."""
    if cap is None or cap >= model.positions - 1:
        return
    with torch.no_grad():
        model.pos.weight[cap + 1:] = model.pos.weight[cap]


def load_onnx_weights(model, path, partial=False):
    """The weights of a head exported by this script, back into `model`
    (for re-exporting without retraining). Returns the names loaded; with
    `partial`, weights of `model` the graph lacks keep their values."""
    values = lean.read_params(path)
    state = model.state_dict()
    loaded = set()
    for key in state:
        if key in values:
            assert tuple(values[key].shape) == tuple(state[key].shape), (key, values[key].shape, state[key].shape)
            state[key] = torch.from_numpy(values[key].copy())
            loaded.add(key)
    assert partial or loaded == set(state), sorted(set(state) - loaded)
    model.load_state_dict(state)
    return loaded


def export(model, path):
    """Writes the head as the lean inference graph of lean.py (the weights
    as float16). Architectures it does not cover (--context-layer,
    --hidden-layers 2, --interpolate normalized: tried, not shipped) have
    no export."""
    import onnx

    assert not model.context and len(model.score) == 2 and model.interpolate == "raw", \
        "lean.py covers the shipped architecture only"
    params = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    onnx.save(lean.build(params, model.interpolation), str(path))
    return ["centroid", "attention"] + (["alpha", "attention_centroid"] if model.interpolation else [])


def synthetic_case(n):
    """A cluster the Rust test rebuilds exactly: n sentences, row i is
    sin(0.618 (512 i + j) + n) L2-normalized, positions i (some beyond the
    last positional embedding), documents 3i / n."""
    k = np.arange(n * DIM, dtype=np.float64).reshape(n, DIM)
    x = np.sin(0.618 * k + n).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    pos = np.arange(n, dtype=np.int64)
    doc = (3 * np.arange(n, dtype=np.int64)) // n
    return torch.from_numpy(x), torch.from_numpy(pos), torch.from_numpy(doc)


SYNTHETIC_SIZES = (1, 7, 40)


def check_onnxruntime(model, path, cases):
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    worst = 1.0
    for x, pos, doc in cases:
        with torch.no_grad():
            expected = [t.numpy() for t in Exported(model)(x, pos, doc)]
        got = session.run(None, lean.graph_inputs(x.numpy(), pos.numpy(), doc.numpy(), model.interpolation))
        for e, g in zip(expected, got):
            c = float(np.dot(e, g) / (np.linalg.norm(e) * np.linalg.norm(g)))
            worst = min(worst, c)
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", default=str(HERE / "cache/train"), help="train cache prefix")
    ap.add_argument("--val", default=str(HERE / "cache/val"), help="validation cache prefix")
    ap.add_argument("--train-clusters", type=int, default=None, help="use only the first K train clusters")
    ap.add_argument("--val-clusters", type=int, default=500, help="validation subset for epoch selection")
    ap.add_argument("--heads", default="cera,cerai")
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--step-size", type=int, default=3)
    ap.add_argument("--gamma", type=float, default=0.1)
    ap.add_argument("--patience", type=int, default=5)
    ap.add_argument("--max-epochs", type=int, default=6,
                    help="two StepLR steps (lr 5e-4, then 5e-5); early stopping may end sooner")
    ap.add_argument("--positions", type=int, default=35)
    ap.add_argument("--hidden-layers", type=int, default=1, help="tanh layers in the attention MLP")
    ap.add_argument("--score-width", type=int, default=DIM, help="hidden units of the attention MLP")
    ap.add_argument("--distill-from", default=None,
                    help="folder of trained heads: train only a --score-width score layer to reproduce "
                         "their attention (the rest copied)")
    ap.add_argument("--context-layer", action="store_true",
                    help="a self-attention block over the cluster's sentences before the attention scoring "
                         "(fifth round, docs/results/cera.md; off in the shipped heads)")
    ap.add_argument("--context-dim", type=int, default=256, help="--context-layer: width of Q, K and V")
    ap.add_argument("--context-heads", type=int, default=4, help="--context-layer: attention heads")
    ap.add_argument("--position-cap", type=int, default=None,
                    help="after training, positions past this one share its embedding (see cap_positions; "
                         "14 was tried and not kept)")
    ap.add_argument("--from-onnx", default=None,
                    help="re-export the heads in this folder (e.g. with another --position-cap) without training")
    ap.add_argument("--init-from", default=None,
                    help="folder with a trained cera.onnx: start the head from its weights (CeRAI: all but the "
                         "interpolation network)")
    ap.add_argument("--average", default=None,
                    help="comma-separated epochs: export the mean of their saved weights (from --epochs-dir, "
                         "written by an earlier run) instead of training")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--interpolate", choices=("raw", "normalized"), default="raw",
                    help="CeRAI's mix: raw, α ⊙ ĉ_attn + (1 − α) ⊙ ē_D as in the paper (inert here: ĉ_attn is "
                         "~87x longer than ē_D), or normalized, ĉ_attn rescaled to ē_D's length first "
                         "(fourth round, docs/results/cera.md)")
    ap.add_argument("--alpha-init", type=float, default=None,
                    help="CeRAI: start α near this value (bias of the interpolation network's last layer); "
                         "default: that layer's random initialization (α ≈ 0.5)")
    ap.add_argument("--target", choices=("reference", "extract", "mix"), default="mix",
                    help="training target: the mean of the reference summary's sentences (the paper's), the "
                         "centroid of its greedy extract from the documents, or the mean of both cosine losses "
                         "(validation cosine is always to the reference mean)")
    ap.add_argument("--rank-weight", type=float, default=0.0,
                    help="add this weight times a listwise ranking loss: candidate summaries ordered by cosine "
                         "to the predicted centroid as by the teacher, --rank-teacher (ranking_loss; off by default)")
    ap.add_argument("--rank-teacher", choices=("embedding", "rouge"), default="embedding",
                    help="--rank-weight: order the candidates by cosine to the reference mean, or by ROUGE-2 F1 "
                         "against the reference (needs TRAIN.rouge.jsonl from `precis embed-dataset --rouge-tokens`)")
    ap.add_argument("--rank-candidates", type=int, default=64, help="--rank-weight: candidate summaries per cluster")
    ap.add_argument("--rank-temperature", type=float, default=0.5,
                    help="--rank-weight: softmax temperature on the standardized scores")
    ap.add_argument("--select-by", choices=("rouge", "cosine"), default="rouge",
                    help="epoch selection and early stopping: BS+GS ROUGE-2 recall of `precis evaluate` on the "
                         "first --select-clusters validation clusters (the paper's criterion), or the mean cosine "
                         "to the oracle centroid on the first --val-clusters clusters of the validation cache")
    ap.add_argument("--precis", default=str(HERE.parent.parent / "target/release/precis"),
                    help="the precis binary for --select-by rouge")
    ap.add_argument("--select-data", default=str(HERE.parent.parent.parent / "shared/data/multinews/val.jsonl.gz"),
                    help="Multi-News validation split for --select-by rouge")
    ap.add_argument("--select-clusters", type=int, default=500)
    ap.add_argument("--epochs-dir", default=str(HERE / "cache/epochs"),
                    help="each epoch's exported head and its evaluation (--select-by rouge)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def log(msg):
        print(time.strftime("%H:%M:%S"), msg, flush=True)

    t = time.time()
    train_split = Split(args.train, args.train_clusters)
    val_split = Split(args.val, args.val_clusters)
    log(f"train: {len(train_split)} clusters, {train_split.sentence_count()} sentences"
        f"{' (cache truncated)' if train_split.truncated else ''}; "
        f"val subset: {len(val_split)} clusters ({time.time() - t:.0f} s to load)")
    mean_cos = baseline_cosines(val_split)
    log(f"val cosine of the plain mean to the oracle centroid: {mean_cos:.5f}")

    data = {
        "train_cache": args.train, "train_clusters": len(train_split),
        "train_sentences": train_split.sentence_count(),
        "val_cache": args.val, "val_clusters": len(val_split),
        "val_first_id": val_split.clusters[0][0], "val_last_id": val_split.clusters[-1][0],
        "val_cosine_mean_centroid": mean_cos,
    }
    settings = {k: v for k, v in vars(args).items()
                if k not in ("out", "train", "val", "heads", "precis", "select_data", "epochs_dir", "average")}
    cases = [synthetic_case(n) for n in SYNTHETIC_SIZES]
    for name in args.heads.split(","):
        if args.average:
            epochs = [int(e) for e in args.average.split(",")]
            record = Path(args.epochs_dir) / f"{name}.training.json"
            previous = json.loads(record.read_text()) if record.exists() else {"settings": settings}
            summary = {k: v for k, v in previous.items() if k not in ("head", "data", "settings", "torch")}
            summary["averaged_epochs"] = epochs
            settings = {**previous["settings"], "average": epochs}
            model = new_head(name, args)
            average_epochs(model, name, epochs, args.epochs_dir)
            model.eval()
            summary["val_cosine"] = validate(model, val_split)
            summary["best_epoch"] = f"mean of epochs {args.average}"
            log(f"{name}: mean of the weights of epochs {args.average} (no training)")
        elif args.from_onnx:
            previous = json.loads((out / f"{name}.training.json").read_text())
            summary = {k: v for k, v in previous.items() if k not in ("head", "data", "settings", "torch")}
            if args.position_cap is not None:
                summary.setdefault("val_cosine_before_cap", previous["val_cosine"])
            settings = {**previous["settings"], "position_cap": args.position_cap}
            model = new_head(name, args)
            load_onnx_weights(model, Path(args.from_onnx) / f"{name}.onnx")
            model.eval()
            log(f"{name}: weights from {args.from_onnx}/{name}.onnx (no training)")
        else:
            model, summary = train(name, args, train_split, val_split, log)
            if args.position_cap is not None:
                summary["val_cosine_before_cap"] = summary["val_cosine"]
        cap_positions(model, args.position_cap)
        round_to_half(model)
        summary["val_cosine_float16_weights"] = validate(model, val_split)
        path = out / f"{name}.onnx"
        outputs = export(model, path)
        summary["onnxruntime_min_cosine"] = check_onnxruntime(model, path, cases)
        summary["bytes"] = path.stat().st_size
        log(f"{name}: best epoch {summary['best_epoch']} (by {summary.get('selected_by', 'cosine')}), "
            f"val cosine {summary['val_cosine']:.5f}, "
            f"{summary['bytes']} bytes, onnxruntime vs torch cosine ≥ {summary['onnxruntime_min_cosine']}")
        report = {"head": name, "data": data, "settings": settings, "torch": torch.__version__, **summary}
        (out / f"{name}.training.json").write_text(json.dumps(report, indent=2) + "\n")
        if not args.average and not args.from_onnx:
            Path(args.epochs_dir).mkdir(parents=True, exist_ok=True)
            (Path(args.epochs_dir) / f"{name}.training.json").write_text(json.dumps(report, indent=2) + "\n")
        # Reference outputs for the Rust parity test (tract vs PyTorch).
        refs = []
        for x, pos, doc in cases:
            with torch.no_grad():
                got = Exported(model)(x, pos, doc)
            refs.append({"sentences": len(x), **{o: [float(f"{t:.7g}") for t in v.tolist()]
                                                    for o, v in zip(outputs, got)}})
        (out / f"{name}.reference.json").write_text(json.dumps(refs) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
