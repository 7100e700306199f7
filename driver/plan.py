"""What a batch will do with each job, and why: pure decisions from the jobs, the store's
rows and the options (the only file it reads is a kept clip, to see whether it is reusable).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from driver.jobs import READABLE, Job, clip_ok, outputs_ok
from driver.select import Selector
from driver.store import JobRow, Status, Store


@dataclass
class Options:
    only: list[Selector] | None = None  # driver/select.py: char/action, action, char/, @file
    chars: list[str] | None = None
    reroll: bool = False  # driver/reroll.py: a new seed for the selected jobs
    force: bool = False
    reuse_video: bool = False
    dry_run: bool = False
    quiet: bool = False


class Reason(str, Enum):
    FORCED = "forced"
    NEW = "new"
    CURRENT = "current"
    OUTPUTS_BAD = "outputs missing or damaged"
    FAILED_BEFORE = "failed before"
    INTERRUPTED = "interrupted before"
    CHANGED = "inputs changed"
    NO_CLIP = "no reusable clip (--reuse-video)"
    REROLL = "re-roll"  # --reroll drew a new seed (detail: ": seed 1234 -> 98765")


@dataclass
class Planned:
    job: Job
    reason: Reason
    generate: bool
    process: bool
    detail: str = ""  # which inputs changed, the earlier error, "clip reused"

    @property
    def why(self) -> str:
        """The reason as the plan and the summary print it."""
        return f"{self.reason.value}{self.detail}"


def changed_parts(job: Job, row: JobRow) -> list[str]:
    """The inputs that differ from the stored ones, with old -> new values where they are
    readable ("canvas 448x448 -> 608x352"); empty when the row predates stored parts, or
    when only something unnamed changed. A part the row lacks (added since) is not named."""
    out = []
    for name, value in job.parts.items():
        old = row.parts.get(name)
        if old is None or old == value:
            continue
        out.append(f"{name} {old} -> {value}" if name in READABLE else name)
    return out


def decide(j: Job, row: JobRow | None, opts: Options,
           forced_before: bool | None = None) -> Planned:
    """forced_before: None, or the job is one an interrupted --force had not yet redone
    (Store.forced: True where its clip was to be made again): it runs again whatever its
    row says, under its own reason where it has one to run (interrupted before, failed
    before, ...), else as forced."""
    detail = ""
    if opts.force:
        reason, run = Reason.FORCED, True
    elif row is None:
        reason, run = Reason.NEW, True
    elif row.fingerprint == j.fingerprint and row.status == Status.DONE and outputs_ok(j):
        reason, run = Reason.CURRENT, False
    elif row.fingerprint == j.fingerprint and row.status == Status.DONE:
        reason, run = Reason.OUTPUTS_BAD, True
    elif row.fingerprint == j.fingerprint and row.status == Status.FAILED:
        reason, run = Reason.FAILED_BEFORE, True
        detail = f" ({row.error or 'unknown'})"
    elif row.fingerprint == j.fingerprint:
        reason, run = Reason.INTERRUPTED, True
    else:
        reason, run = Reason.CHANGED, True
        parts = changed_parts(j, row)
        detail = f": {', '.join(parts)}" if parts else ""
    if forced_before is not None and not opts.force:
        if run:
            detail += " (of an interrupted --force)"
        else:
            reason, run, detail = Reason.FORCED, True, " (resumed: an interrupted --force)"
    # A clip made from exactly these generation inputs is reused (pitfall 8), unless forced;
    # forced with --reuse-video, every selected job is processed again from its clip (it
    # skipped them all, "no reusable clip", with their clips in place).
    again = opts.force or bool(forced_before)  # the clip is to be made again
    reusable = (run and (opts.reuse_video or not again) and row is not None
                and row.gen_fingerprint == j.gen_fingerprint
                and clip_ok(j.clip_path, j.frames))
    generate = run and not reusable
    if run and opts.reuse_video and generate:
        reason, detail, run, generate = Reason.NO_CLIP, "", False, False
    elif run and not generate:
        detail += ", clip reused"
    return Planned(j, reason, generate, run, detail)


def plan(jobs: list[Job], store: Store, opts: Options) -> list[Planned]:
    forced = store.forced()
    return [decide(j, store.get(j.key), opts, forced.get(j.key)) for j in jobs]
