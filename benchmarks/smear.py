"""How well SMEAR parts ghosting from motion blur: clips made like model output
(tests/footage.py), ghosted and clean, each with its `meta.qc.smear` score.

    python -m benchmarks.smear [--set calibration|held-out|wide-blur|all]

`calibration` is the set the first threshold was chosen on; `held-out` was made after it
was set. (The rule of issue 9's fourteenth session, the count behind less the count
ahead, had its threshold qc.SMEAR_ABOVE chosen on both and on trial 10's clips of another
generator; `wide-blur` was made after it: runs and an attack blurred over 1-1.5 frames,
clean and ghosted.)
Ghosting blends a share of the previous frame into each frame, either the previous output
(recursive, as a temporal filter does) or the clean previous frame. Prints each clip's
score sorted, then per set: ghosted clips flagged, clean clips flagged, the lowest ghosted
and the highest clean score and their ratio. Takes ~10 min on 2 cores (the clips are made
and encoded first).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from comfy_nodes.core import qc
from tests import footage
from tests.footage import Spec

_BLUE = (20, 60, 200)

CALIBRATION: dict[str, Spec] = {
    **{f"fixture_{n}": s for n, s in footage.CASES.items() if not s.ghost},
    "ghost_real_girl_25": Spec(sprite="female_person", ghost=0.25, seed=71),
    "ghost_real_girl_35": Spec(sprite="female_person", ghost=0.35, seed=72, wrap_px=6, wrap=0.35),
    "ghost_real_girl_45": Spec(sprite="female_person", ghost=0.45, seed=73),
    "ghost_real_zombie_30": Spec(sprite="zombie", ghost=0.30, seed=74, crf=24),
    "ghost_real_zombie_45": Spec(sprite="zombie", ghost=0.45, seed=75),
    "ghost_walk_25": Spec(ghost=0.25, seed=76),
    "ghost_walk_35_shaded": Spec(ghost=0.35, palette="knight", style="shaded", seed=77),
    "ghost_run_30": Spec(action="run", ghost=0.30, seed=78),
    "ghost_attack_35": Spec(action="attack", period=0.8, ghost=0.35, seed=79),
    "ghost_idle_40": Spec(action="idle", ghost=0.40, seed=80),
    "ghost_walk_20": Spec(ghost=0.20, seed=90, palette="knight"),
    "ghost_walk_20_clean": Spec(ghost=0.20, ghost_clean=True, seed=91, style="shaded"),
    "ghost_walk_30_clean": Spec(ghost=0.30, ghost_clean=True, seed=92, palette="ranger", crf=24),
    "ghost_run_20_outlined": Spec(action="run", ghost=0.20, seed=93, style="outlined"),
    "ghost_skill_30_clean": Spec(action="skill", ghost=0.30, ghost_clean=True, seed=94,
                                 palette="zombie"),
    "ghost_hurt_35": Spec(action="hurt", period=0.6, ghost=0.35, seed=95),
    "ghost_walk_45_blue": Spec(ghost=0.45, seed=96, key=_BLUE, style="strands"),
    "clean_attack_06": Spec(action="attack", period=0.6, style="shaded", seed=81),
    "clean_attack_05": Spec(action="attack", period=0.5, palette="knight", seed=82),
    "clean_hurt_05": Spec(action="hurt", period=0.5, style="outlined", seed=83),
    "clean_run_05": Spec(action="run", period=0.5, seed=84),
    "clean_skill_07": Spec(action="skill", period=0.7, palette="ranger", style="shaded", seed=85),
    "clean_real_girl": Spec(sprite="female_person", seed=86, crf=24),
    "clean_real_zombie": Spec(sprite="zombie", seed=87, period=0.7),
    "clean_run_04": Spec(action="run", period=0.4, style="shaded", seed=97),
    "clean_attack_045": Spec(action="attack", period=0.45, palette="knight", style="shaded",
                             seed=98),
    "clean_walk_drift": Spec(drift=(1.5, 0.0), seed=99, palette="ranger"),
    "clean_hurt_04": Spec(action="hurt", period=0.4, palette="zombie", seed=100),
    "clean_skill_zoom": Spec(action="skill", zoom=0.004, seed=101, style="strands"),
    "clean_attack_crf24": Spec(action="attack", period=0.5, crf=24, seed=102, wrap_px=6, wrap=0.35),
}

# Made after the fourteenth session's rule: motion blur over a whole frame and more (a thin
# limb's trail at one share, as trial 10's ninja run; the count behind alone flagged the
# strands run at 0.0115).
WIDE_BLUR: dict[str, Spec] = {
    "clean_run_wide_1": Spec(action="run", period=0.4, shutter=1.0, seed=301),
    "clean_run_wide_15_strands": Spec(action="run", period=0.35, shutter=1.5, style="strands",
                                      seed=302),
    "clean_attack_wide": Spec(action="attack", period=0.45, shutter=1.0, style="shaded",
                              seed=303),
    "ghost_run_wide_25": Spec(action="run", period=0.4, shutter=1.0, ghost=0.25, seed=304),
    "ghost_run_wide_20_strands": Spec(action="run", period=0.35, shutter=1.5, style="strands",
                                      ghost=0.20, seed=305),
}

HELD_OUT: dict[str, Spec] = {
    "ghost_walk_22": Spec(ghost=0.22, seed=201, palette="ranger", style="shaded"),
    "ghost_walk_28_clean": Spec(ghost=0.28, ghost_clean=True, seed=202, palette="zombie",
                                style="outlined"),
    "ghost_run_40": Spec(action="run", ghost=0.40, seed=203, palette="knight", crf=23),
    "ghost_attack_25_clean": Spec(action="attack", period=0.7, ghost=0.25, ghost_clean=True,
                                  seed=204, style="strands"),
    "ghost_walk_30_720p": Spec(ghost=0.30, seed=205, size=(1280, 720)),
    "ghost_real_girl_40": Spec(sprite="female_person", ghost=0.40, seed=206),
    "ghost_real_zombie_25_clean": Spec(sprite="zombie", ghost=0.25, ghost_clean=True, seed=207),
    "ghost_skill_20_blue": Spec(action="skill", ghost=0.20, seed=208, key=_BLUE),
    "clean_run_035": Spec(action="run", period=0.35, palette="ranger", seed=211, wrap_px=6,
                          wrap=0.35),
    "clean_attack_04": Spec(action="attack", period=0.4, style="outlined", seed=212),
    "clean_hurt_035": Spec(action="hurt", period=0.35, style="shaded", palette="knight",
                           seed=213),
    "clean_walk_drift_left": Spec(drift=(-2.0, 0.0), seed=214, style="strands"),
    "clean_skill_05": Spec(action="skill", period=0.5, palette="zombie", seed=215, crf=24),
    "clean_walk_720p": Spec(seed=216, size=(1280, 720), palette="knight", style="shaded"),
    "clean_real_girl_fast": Spec(sprite="female_person", period=0.6, seed=217),
    "clean_real_zombie_blue": Spec(sprite="zombie", key=_BLUE, seed=218),
    "clean_attack_blue": Spec(action="attack", period=0.5, key=_BLUE, seed=219, style="shaded"),
    "clean_run_letterbox": Spec(action="run", period=0.45, letterbox=40, seed=220),
}


def score(spec: Spec, folder: Path, name: str) -> tuple[qc.Ghosting, bool, bool]:
    """(what SMEAR reads, flagged, judged) of one clip: not judged where the clip is STATIC
    or NOISE."""
    path = folder / f"{name}.mp4"
    analysis = footage.analysed(spec, path)
    judged = not {"STATIC", "NOISE"} & set(analysis.qc)
    path.unlink()
    return analysis.ghosting, "SMEAR" in analysis.qc, judged


def report(title: str, cases: dict[str, Spec], folder: Path) -> None:
    rows = []
    for name, spec in cases.items():
        read, flagged, judged = score(spec, folder, name)
        if judged:
            rows.append((read.score, name, spec.ghost > 0, flagged, read))
    print(f"\n{title}: {len(rows)} moving clips (flagged above {qc.SMEAR_ABOVE}; a flagged "
          f"clip's ghost undone where its copies reach {qc.COPIES_SHARE} of the area)")
    for s, name, ghosted, flagged, read in sorted(rows):
        print(f"  {s:.4f}  copies {read.copies:.3f}  share {read.share:.2f}  "
              f"{'ghosted' if ghosted else 'clean  '}  {name}{'  SMEAR' if flagged else ''}")
    ghost = [(s, f) for s, _, g, f, _ in rows if g]
    clean = [(s, f) for s, _, g, f, _ in rows if not g]
    print(f"ghosted flagged {sum(f for _, f in ghost)} of {len(ghost)}; clean "
          f"flagged {sum(f for _, f in clean)} of {len(clean)}; lowest ghosted score "
          f"{min(ghost)[0]:.4f}, highest clean {max(clean)[0]:.4f} "
          f"(ratio {min(ghost)[0] / max(max(clean)[0], 1e-6):.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.smear")
    ap.add_argument("--set", choices=("calibration", "held-out", "wide-blur", "all"),
                    default="all")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="h3sprite-smear-") as tmp:
        if args.set in ("calibration", "all"):
            report("calibration", CALIBRATION, Path(tmp))
        if args.set in ("held-out", "all"):
            report("held-out", HELD_OUT, Path(tmp))
        if args.set in ("wide-blur", "all"):
            report("wide-blur", WIDE_BLUR, Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
