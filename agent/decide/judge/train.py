"""Train the judge's head, reproducibly:

    python -m agent.decide.judge.train            # writes resources/judge.json
    python -m agent.decide.judge.train --check    # trains and compares with the shipped head

Data: the *fit* half of every dev prompt set (agent/bench/split.py; the validation half is
never read for fitting). Rows are the entities the engine detects and leaves to relevance
and that no confident rule decides (agent/decide/judge/runtime.py: a rule at 0.8 or more,
"I live in", a trip to a known place, a listed company, a work's characters, is not
overruled, so the head learns where it decides). LOPSIDED says keep or swap; the other
prompt sets label every name private, public figures included (they measure recall, not
relevance), so their rows weigh less and their weight is chosen in cross-validation (0 is
one of the choices).

The regularisation, that weight and the threshold are chosen by 5-fold cross-validation
over the fit half, folded by prompt (never by entity: mentions of one prompt share their
context), minimising twice the LOPSIDED utility error (a swapped entity the answer needs is
the worst failure) + its privacy error + the share of the other sets' private entities
kept (what the PERSON and PUPA recall bars count). Trained and thresholded on LOPSIDED
alone, the head kept 35-55% of those (cross-validation on the fit half): PUPA recall fell
below its bar. The validation half is scored at the end, for the record only.

Tried and left out (validation did not favour it): templated prompts of our own with known
keep/swap labels (questions about public places, e-mails to colleagues...) as extra rows
lowered the validation AUC from 0.93 to 0.91: they teach the head the templates.
Also left out (2026-11-24, chosen by 5-fold CV by prompt on the fit half, three fold
assignments; validation read once): who a person is to a letter (addressed "Dear X" /
"X, could you", signing it) as features: CV cost 1.009 -> 0.987, validation utility error
0.168 -> 0.183 and others' private entities kept 0.258 -> 0.234 (paired over texts:
+0.015 (0.000 to +0.042) and -0.024 (-0.045 to -0.009)): a trade along the same curve, not
a gain. A separate PERSON threshold, person x prompt-type interactions, first-name-only
mentions, confident keep-rules left to the head, and dropping feature groups: CV costs
0.88-1.05 against validation costs 0.78-0.88 with no agreement in their order; at ~140
LOPSIDED prompts per half a CV difference under ~0.1 does not predict validation.
Also left out (2026-11-24, session 4; CV on the fit half averaged over six fold
assignments, validation read once): keep-rules made to hold back on pasted documents (a
known place inside a postal address swapped, the people cited as sources in a text with
three or more citations swapped, the author of "the <name> novel" / "<name> argued in their
book" no longer a character, a "Dear Mr. X" addressee not a character of a title found
elsewhere) with the settings chosen on the CV cost averaged over four fold assignments: fit
CV 1.004 -> 0.950 (at 92662e7), but validation PUPA recall 0.643 -> 0.612 (paired -0.031,
-0.057 to -0.009), utility and privacy unchanged: not shipped.
Session 5 (2026-11-24) tested that bundle rule by rule, each alone with this file's
selection and a retrained head, on the fit half's quick bench (paired over texts, 95%):
the maker of a work not its character shipped (PUPA +0.011, +0.002 to +0.025; utility and
privacy unchanged); a known place in a postal address swapped (PUPA -0.002, -0.006 to 0),
a letter's addressee not a one-word character (-0.002, -0.006 to 0) and the sources of a
pasted paper swapped (+0.010, -0.003 to +0.028) were left out. The names of a text the
prompt hands over to reword, swapped at 0.8 or left to the head at 0.75: with the shipped
head PUPA +0.013 (+0.002 to +0.029), but retrained the selection moved the threshold
(0.33 -> 0.3) and the gain was lost in it (-0.005 and +0.010, both intervals across 0).
What shipped instead turns only SURE verdicts (decided_by_rule): a sure keep inside a
handed-over text becomes a sure swap. Sure rows are not training rows, and their cost is
the same at every setting, so the head and its selection are unchanged and the rule's own
effect can be read: PUPA +0.019 (+0.003 to +0.041), utility and privacy unchanged. A rule
that moves rows between "sure" and "left to the head" moves the threshold by as much as a
rule of this size gains. Checked on the fit half: the people LOPSIDED needs kept and the
head swaps (a religious figure, a film character, a self-help author) have wordfreq
frequencies and first-name entries like the private first names of role-play prompts
(both 2-5 on the Zipf scale): frequency does not tell them apart.
How steady the selection is (session 5, fit rows only, 20 random fold assignments instead
of the row order's i % FOLDS): 14 different (l2, other weight, threshold) triples won; the
shipped one twice. At l2 30 / weight 0.1 the mean CV cost is 1.016 at threshold 0.3 and
1.017 at 0.325 (sd 0.06-0.08 over assignments): the flips between them after each detection
change are noise. Averaged over the 20 assignments, (30, 1.0, 0.05) costs least (0.956,
shipped settings 1.016). Next: choose on the cost averaged over ~10 assignments, retrain,
then read validation once.
Session 6 did that, and did not ship it. Averaged over 30 seeded fold assignments (10 were
not enough: two disjoint sets of 10 picked different settings; two sets of 30 agreed), the
least cost is l2 30, other weight 1.0, threshold 0.05 (the old grid's lower edge; a grid
reaching 0.01 does not move it). Fit CV there: utility 0.117, privacy 0.486, others kept
0.231, against 0.167 / 0.320 / 0.162 for the shipped settings. Validation, read once,
paired over texts against the shipped head: utility 0.199 -> 0.145 (-0.053, -0.102 to
-0.016), privacy 0.214 -> 0.290 (+0.076, +0.024 to +0.138), PERSON 0.918 -> 0.845, PUPA
0.645 -> 0.608. On fit, in sample, PERSON fell 0.945 -> 0.732. A bootstrap over the fit
prompts of the averaged cost shows why: its minimum lies anywhere along the head's trade
curve (winners over 100 resamples ranged from privacy 0.26 / utility 0.26 to privacy
0.49 / utility 0.09), because with utility weighed double the cost is flat along it. This
head cannot reach both bars at any setting (its CV utility + privacy is 0.5-0.6, the bars
need 0.22), so choosing a point on the curve more carefully only trades one bar for the
other. What would help is a head that separates keep from swap better (new signals), not a
different selection. The single assignment below (prompt i in fold i % 5) is kept, so the
shipped head stays reproducible; the study is in the session-6 closing note.
Session 12 (2026-11-28) tried a random forest over the same features in place of the
logistic head (scikit-learn, 100-300 trees, leaves of 2-5 rows, 30% of the features per
split), to let the head read interactions. On the fit half (CV by prompt, five fold
assignments) it looked better: keep/swap AUC on LOPSIDED 0.87-0.89 against 0.81, least
cost 0.73-0.76 against 0.88. Selected there (leaves of 2, other weight 0.3, threshold
0.15) and read once on validation: AUC 0.78 against 0.85 for this head; utility 0.183
(the same), privacy 0.228 (+0.021), other sets' private entities kept 0.204 (-0.037).
Cross-validated by prompt over all of dev (five assignments): AUC 0.79 against 0.81,
least cost 0.76-0.77 against 0.82, all of it from the other sets (kept 0.09-0.11 against
0.19) while the utility error rose (0.23 against 0.18); the mean of the two heads' AUC
0.81, cost 0.78. The trees learn the other sets' names and LOPSIDED's keep/swap worse:
one more point on the same trade curve, at ~0.9 ms per text (this head: 0.02 ms). Not
shipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agent import paths
from agent.bench.data import PROMPT_SETS, DataMissing, load_datasets
from agent.bench.split import SPLIT_VERSION
from agent.decide.judge.dataset import ExampleRows, collect, lopsided_errors
from agent.decide.judge.features import FEATURE_NAMES
from agent.decide.judge.head import LogisticHead, fit_logistic
from agent.decide.judge.runtime import decided_by_rule, protective, value_mean

FOLDS = 5
L2_GRID = (10.0, 30.0, 100.0, 300.0)
# Weight of the other prompt sets' rows (all labelled private); 0: LOPSIDED relevance only.
OTHER_WEIGHT_GRID = (0.0, 0.03, 0.1, 0.3, 1.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.05, 0.71, 0.025))
# The settings the head was trained with since session 5 (l2, other weight, threshold). The
# least CV cost of one fold assignment moves with every detection change (over 20
# assignments one setting's cost has an sd of 0.06-0.08, session 5): after session 8's
# detection commits it picked (30, 0.3, 0.2), which in sample, on the same fit texts, swapped
# more of what LOPSIDED needs (utility 0.104 -> 0.125) and kept more of what it does not
# (privacy 0.118 -> 0.157). So the pick replaces the settled settings only when it costs
# less on most of REASSIGNMENTS further fold assignments, paired (the same assignment
# scores both), not on one.
SETTLED = (30.0, 0.1, 0.3)
REASSIGNMENTS = 10


@dataclass
class Scores:
    utility_error: float
    privacy_error: float
    other_kept: float

    @property
    def cost(self) -> float:
        # A swapped entity the answer needs is the worst failure a user can meet (the model
        # answers about the stand-in): it weighs double.
        return 2 * self.utility_error + self.privacy_error + self.other_kept


def _matrix(rows: list[ExampleRows], other_weight: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, ws = [], [], []
    for r in rows:
        weight = 1.0 if r.dataset == "lopsided" else other_weight
        for x, label in zip(r.features, r.labels):
            if label is not None and weight > 0 and not decided_by_rule(x):
                xs.append(x)
                ys.append(label)
                ws.append(weight)
    return np.asarray(xs), np.asarray(ys), np.asarray(ws)


def _probabilities(model: tuple, rows: list[ExampleRows]) -> dict[int, np.ndarray]:
    mean, scale, weights, bias = model
    out = {}
    for r in rows:
        z = ((r.features - mean) / scale) @ weights + bias if len(r.features) else np.zeros(0)
        probabilities = value_mean(r.judged, list(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))))
        out[id(r)] = np.asarray(protective(r.features, probabilities))
    return out


def _other_kept(rows: list[ExampleRows], keep: dict[int, np.ndarray]) -> float:
    kept = total = 0
    for r in rows:
        if r.dataset == "lopsided" or r.dataset not in PROMPT_SETS:
            continue
        for k, label in zip(keep[id(r)], r.labels):
            if label is not None:
                total += 1
                kept += bool(k)
    return kept / total if total else 0.0


def score(rows: list[ExampleRows], probabilities: dict[int, np.ndarray], threshold: float) -> Scores:
    keep = {k: v >= threshold for k, v in probabilities.items()}
    errors = lopsided_errors(rows, keep)
    return Scores(errors["utility_error"] or 0.0, errors["privacy_error"] or 0.0, _other_kept(rows, keep))


def cross_validate(rows: list[ExampleRows], l2: float, other_weight: float, seed: int | None = None) -> dict[int, np.ndarray]:
    """Out-of-fold probabilities for every fit row (folds by prompt: prompt i in fold
    i % FOLDS, or in a seeded random fold)."""
    folds = np.arange(len(rows)) % FOLDS
    if seed is not None:
        folds = np.random.default_rng(seed).permutation(folds)
    out: dict[int, np.ndarray] = {}
    for fold in range(FOLDS):
        train = [r for r, f in zip(rows, folds) if f != fold]
        test = [r for r, f in zip(rows, folds) if f == fold]
        x, y, w = _matrix(train, other_weight)
        out.update(_probabilities(fit_logistic(x, y, w, l2), test))
    return out


def train(progress=print) -> tuple[LogisticHead, dict]:
    from agent.config import default_settings
    from agent.engine.core import Engine

    started = time.time()
    engine = Engine(default_settings())
    datasets = load_datasets(None, list(PROMPT_SETS))
    rows = list(collect(engine, datasets))
    fit_rows = [r for r in rows if r.half == "fit"]
    validation_rows = [r for r in rows if r.half == "validation"]
    progress(f"judge: {len(fit_rows)} fit texts, features in {time.time() - started:.0f} s")
    cv, l2, other_weight, threshold = _select(fit_rows, progress)
    x, y, w = _matrix(fit_rows, other_weight)
    model = fit_logistic(x, y, w, l2)
    validation = score(validation_rows, _probabilities(model, validation_rows), threshold)
    rules_only = score(validation_rows, _rules_keep(validation_rows), 0.5)
    fitted = score(fit_rows, _probabilities(model, fit_rows), threshold)
    about = {
        "what": "logistic head of the keep/swap judge (agent/decide/judge); keep when P(keep) >= threshold",
        "trained_on": f"fit half ({SPLIT_VERSION}) of {', '.join(PROMPT_SETS)}",
        "rows": len(y),
        "l2": l2, "other_weight": other_weight,
        "fit_cv": _rounded(cv), "fit_in_sample": _rounded(fitted), "validation": _rounded(validation),
        "validation_rules_alone": _rounded(rules_only),
        "command": "python -m agent.decide.judge.train",
    }
    head = LogisticHead(FEATURE_NAMES, *model, threshold, about)
    progress(f"judge: validation {validation}; the rules alone: {rules_only} ({time.time() - started:.0f} s in all)")
    return head, about


def _select(fit_rows: list[ExampleRows], progress) -> tuple[Scores, float, float, float]:
    """(fit CV scores, l2, other weight, threshold): the least CV cost of the fold
    assignment i % FOLDS if it also costs less than the settled settings on most of
    REASSIGNMENTS seeded assignments; else the settled settings."""
    best = settled = None
    for l2 in L2_GRID:
        for other_weight in OTHER_WEIGHT_GRID:
            probabilities = cross_validate(fit_rows, l2, other_weight)
            for threshold in THRESHOLDS:
                s = score(fit_rows, probabilities, threshold)
                if best is None or s.cost < best[0].cost - 1e-9:
                    best = (s, l2, other_weight, threshold)
                if (l2, other_weight, threshold) == SETTLED:
                    settled = (s, l2, other_weight, threshold)
    assert best is not None and settled is not None
    if best[1:] == settled[1:]:
        return settled
    wins = 0
    for seed in range(REASSIGNMENTS):
        costs = [score(fit_rows, cross_validate(fit_rows, l2, weight, seed), threshold).cost
                 for l2, weight, threshold in (best[1:], settled[1:])]
        wins += costs[0] < costs[1] - 1e-9
    chosen = best if wins > REASSIGNMENTS // 2 else settled
    progress(f"judge: least fit CV cost {best[0].cost:.3f} at l2={best[1]} other_weight={best[2]} threshold={best[3]}, "
             f"settled {settled[0].cost:.3f}; it costs less on {wins} of {REASSIGNMENTS} other fold assignments")
    progress(f"judge: chosen l2={chosen[1]} other_weight={chosen[2]} threshold={chosen[3]} (fit CV: {chosen[0]})")
    return chosen


def _rules_keep(rows: list[ExampleRows]) -> dict[int, np.ndarray]:
    """What the rules alone decide (their verdict, else the type's default: keep places and
    groups), as 1.0 keep / 0.0 swap, for comparison."""
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    out = {}
    for r in rows:
        f = r.features
        if not len(f):
            out[id(r)] = np.zeros(0)
            continue
        default = (f[:, index["label=LOCATION"]] + f[:, index["label=NORP"]]) > 0
        out[id(r)] = np.where(f[:, index["rule_no_opinion"]] > 0, default, f[:, index["rule_keep"]] > 0).astype(float)
    return out


def _rounded(s: Scores) -> dict:
    return {"utility_error": round(s.utility_error, 4), "privacy_error": round(s.privacy_error, 4),
            "other_kept": round(s.other_kept, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.decide.judge.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=paths.resource("judge.json"))
    parser.add_argument("--check", action="store_true", help="train, then compare with the head at --out instead of writing it")
    args = parser.parse_args(argv)
    try:
        head, about = train(lambda line: print(line, file=sys.stderr, flush=True))
    except DataMissing as exc:
        print(f"judge: cannot train: {exc}", file=sys.stderr)
        return 2
    if args.check:
        shipped = LogisticHead.load(args.out)
        before, after = shipped.about.get("validation", {}), about["validation"]
        worst = max(abs(before.get(k, 0) - after[k]) for k in after)
        print(json.dumps({"shipped": before, "retrained": after, "largest_difference": round(worst, 4)}, indent=2))
        return 0 if worst <= 0.01 else 1
    args.out.write_text(json.dumps(head.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"judge: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
