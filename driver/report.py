"""What the user sees of a batch: the progress line (each server's job), the job lines,
the summary, the exit code, and the rows `driver status` prints."""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from comfy_nodes.core.sheet import grade_label
from driver.actions import read_sheet
from driver.exitcodes import Exit
from driver.joblist_load import Loaded
from driver.outputs import batch_running
from driver.store import Status, Store

log = logging.getLogger("driver.batch")


@dataclass
class Summary:
    done: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    gen_seconds: list[float] = field(default_factory=list)
    post_seconds: list[float] = field(default_factory=list)
    wall: float = 0.0
    restarts: int = 0
    unreachable: list[tuple[str, str]] = field(default_factory=list)  # (server, why)
    per_server: dict[str, int] = field(default_factory=dict)  # jobs generated on each
    stopped: str = ""  # why the batch stopped early (a full disk: one line), else ""
    # Selected jobs done (now or before) whose sheet or JSON is gone by the end: deleted
    # while the batch ran. Left out of actions.json; the next run makes them again.
    missing: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> Exit:
        return Exit.FAILED if self.failed or self.stopped or self.missing else Exit.OK


def summary_lines(s: Summary) -> list[str]:
    lines = [f"done {len(s.done)}, skipped {len(s.skipped)}, failed {len(s.failed)}"
             f"{f', server restarts {s.restarts}' if s.restarts else ''}"]
    if s.stopped:
        lines.append(f"  stopped early: {s.stopped}")
    for key, why in s.failed:
        lines.append(f"  failed {key}: {why}")
    for key in s.missing:
        lines.append(f"  missing {key}: its sheet or JSON was removed while the batch ran (left "
                     "out of actions.json): run the batch again to make it")
    reasons: dict[str, int] = {}
    for _, why in s.skipped:
        reasons[why] = reasons.get(why, 0) + 1
    for why, n in reasons.items():
        lines.append(f"  skipped {n}: {why}")
    for url, why in s.unreachable:
        lines.append(f"  server {url} not used: {why}")
    if len(s.per_server) > 1 or (s.unreachable and s.per_server):
        lines.append("  generated per server: " +
                     ", ".join(f"{url} {n}" for url, n in s.per_server.items()))
    if s.done and s.wall:
        per_set = s.wall / len(s.done)
        gen = sum(s.gen_seconds) / len(s.gen_seconds) if s.gen_seconds else 0.0
        lines.append(f"full chain {per_set:.1f} s per set against {gen:.1f} s of generation "
                     f"per set (wall {s.wall:.1f} s)")
    return lines


class Progress:
    """The progress bar and the job lines (stderr), thread-safe: the bar's postfix shows
    what each server is doing."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar: tqdm | None = None
        self.lock = threading.Lock()
        self.doing: dict[str, str] = {}  # server -> "job step 3/8"

    def say(self, line: str) -> None:
        log.info(line)
        if self.quiet:
            return
        with self.lock:
            try:
                if self.bar is not None:
                    self.bar.write(line, file=sys.stderr)
                else:
                    print(line, file=sys.stderr, flush=True)
            except OSError:
                self._terminal_gone()

    def _terminal_gone(self) -> None:
        """stderr cannot be written (its reader went away: `2>&1 | head`, a closed
        terminal): go quiet, the log keeps every line. A job line that could not be shown
        failed the job ("post-processing: [Errno 32] Broken pipe"), every job after it."""
        self.quiet = True
        if self.bar is not None:
            self.bar.disable = True
            self.bar = None

    def open(self, total: int) -> None:
        try:
            self.bar = tqdm(total=total, unit="job", file=sys.stderr, dynamic_ncols=True,
                            disable=self.quiet or None)
        except OSError:
            self._terminal_gone()

    def job_done(self) -> None:
        with self.lock:
            try:
                if self.bar is not None:
                    self.bar.update(1)
            except OSError:
                self._terminal_gone()

    def server_doing(self, server: str, what: str | None) -> None:
        with self.lock:
            if what is None:
                self.doing.pop(server, None)
            else:
                self.doing[server] = what
            if self.bar is not None:
                self.bar.set_postfix_str(" | ".join(
                    f"{_port(s)}: {w}" for s, w in sorted(self.doing.items())), refresh=False)

    def close(self) -> None:
        with self.lock:
            if self.bar is not None:
                try:
                    self.bar.close()
                except OSError:
                    self.bar.disable = True
                self.bar = None


def _port(url: str) -> str:
    return url.rsplit("/", 1)[-1]


# `driver status` words beyond the database's own statuses (Status).
INTERRUPTED = "interrupted"  # running in the database, but no batch holds the out folder
MISSING = "missing"  # done in the database, but its sheet or JSON is gone


def status_rows(loaded: Loaded, store: Store) -> list[dict[str, Any]]:
    """`driver status`: every job of the roster with its status, grade, flags, tries, error.
    A job the database calls running is "interrupted" where no batch holds the out folder
    (its batch was killed: the next run resumes it), and a done one whose sheet is gone is
    "missing" (the next run makes it again)."""
    live = batch_running(loaded.out)
    rows: list[dict[str, Any]] = []
    for cid in loaded.spec.characters:
        for action in loaded.actions_of(cid):
            row = store.get(f"{cid}/{action}")
            status = row.status if row else "never run"
            if status == Status.RUNNING.value and not live:
                status = INTERRUPTED
            entry: dict[str, Any] = {
                "job": f"{cid}/{action}", "status": status,
                "attempts": row.attempts if row else 0, "error": row.error if row else None}
            if row and row.meta.get("server"):
                entry["server"] = row.meta["server"]
            sheet = loaded.sheet_json(cid, action) if row and row.outputs.get("json") else None
            made = False
            # a damaged or edited JSON reads as a missing sheet (the next run makes it again)
            if sheet is not None and (info := read_sheet(sheet)) is not None:
                entry.update(grade=grade_label(info.loop, info.loop_grade), qc=info.qc)
                made = info.image.is_file()
            if status == Status.DONE.value and sheet is not None and not made:
                entry["status"] = MISSING
            rows.append(entry)
    return rows


def status_lines(rows: list[dict[str, Any]], servers: int) -> list[str]:
    """`driver status` as text, one aligned line per job. A batch on several servers (the
    joblist's `servers:`, or rows that name more than one) gets a server column, as
    `--json` has; on one server it would repeat the same address on every line."""
    named = {r["server"] for r in rows if "server" in r}
    width = max(map(len, named), default=1) if servers > 1 or len(named) > 1 else 0
    return [status_line(r, width) for r in rows]


def status_line(r: dict[str, Any], server_width: int = 0) -> str:
    """One job; `server_width` > 0 adds the server column that wide ("-": never sent)."""
    extra = f" {r.get('grade', '')} QC {' '.join(r.get('qc', [])) or '-'}" \
        if "grade" in r else ""
    err = f"  ({r['error']})" if r["error"] else ""
    server = f"{r.get('server', '-'):<{server_width}} " if server_width else ""
    return f"{r['job']:<24} {r['status']:<10} {server}tries {r['attempts']}{extra}{err}"


def any_failed(rows: list[dict[str, Any]]) -> bool:
    """Whether a job failed, or its sheet is missing: `driver status` then exits 1."""
    return any(r["status"] in (Status.FAILED.value, MISSING) for r in rows)
