"""`comfy_service models`: fetch the H3 workflow's model files into ComfyUI's models folders.

The table (service/h3_models.json, or --table FILE) says for each file its Hugging Face
repository and path, its models/ folder and its size. Downloads go through huggingface_hub:
several files at once, a progress bar each, resumed from the partial download after a cut
(the field notes lost hours to a single stalled connection), the size checked against the
hub's metadata and our table, the sha256 where the table has one. A finished file is moved
into place in one step; a file already in place is never overwritten.
"""

from __future__ import annotations

import enum
import errno
import importlib.util
import json
import os
import queue
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from huggingface_hub import constants, get_hf_file_metadata, hf_hub_download, hf_hub_url
from huggingface_hub.file_download import http_get
from huggingface_hub.utils import build_hf_headers
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from comfy_nodes.core.names import safe_name
from comfy_nodes.core.safeyaml import YamlLimitError, read_limited
from comfy_nodes.core.util import sha256_file
from service.config import ServiceConfig
from service.manager import Exit, Result

TABLE = Path(__file__).with_name("h3_models.json")
DEFAULT_WORKFLOW = Path(__file__).resolve().parent.parent / "api_workflows" / "h3_sprite.json"
SIZE_TOLERANCE = 0.01  # the template rounds sizes to 3-4 digits
STAGING = ".h3sprite-downloads"  # under models/: the partial downloads, resumed next time
MAX_TABLE_BYTES = 1 << 20  # the official table is 2 KB


class ModelError(ValueError):
    """The table or the request is wrong; the message names the file and the fix."""


class ModelFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    folder: str
    repo: str = Field(pattern=r"^[\w.-]+/[\w.-]+$")
    path: str
    size: int = Field(gt=0)
    size_exact: bool = False
    sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    role: str = ""

    def target(self, models_dir: Path) -> Path:
        return models_dir / safe_name(self.folder, "model folder") / safe_name(self.file,
                                                                               "model file")

    def size_words(self) -> str:
        return f"{'' if self.size_exact else '~'}{human(self.size)}"


class FileState(enum.Enum):
    OK = "ok"
    MISSING = "missing"
    EMPTY = "empty"
    TRUNCATED = "truncated"
    LARGER = "larger"
    INVALID = "not a safetensors file"


MAX_HEADER = 100 * 2**20  # the safetensors format's own limit on its JSON header


def safetensors_size(path: Path) -> int | None:
    """The size a .safetensors file declares for itself (8-byte header length, the JSON
    header, then the tensors up to the largest data offset), or None when the file is not
    a safetensors file (an HTML error page saved under the name, a file of zeros). Only the
    header is read. This names a download cut anywhere, where sizes from the model table
    are only known to ~1%, and works for files of no table at all."""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                return None
            n = int.from_bytes(head, "little")
            if not 2 <= n <= MAX_HEADER:
                return None
            header = json.loads(f.read(n))
        ends = [v["data_offsets"][1] for k, v in header.items() if k != "__metadata__"]
        return 8 + n + max(ends, default=0)
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1000
    raise AssertionError


def load_table(path: Path | None = None) -> list[ModelFile]:
    path = path or TABLE
    try:  # a regular file of bounded size: /dev/zero would fill memory, a FIFO block
        data = json.loads(read_limited(Path(path), "model table", limit=MAX_TABLE_BYTES))
        return [ModelFile(**f) for f in data["files"]]
    except YamlLimitError as e:
        raise ModelError(str(e)) from None
    except (ValueError, KeyError, TypeError) as e:
        if isinstance(e, ValidationError):
            err = e.errors()[0]
            e = ValueError(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}")
        raise ModelError(f"model table {path} is not valid ({e}); it is "
                         "{\"files\": [{file, folder, repo, path, size}, ...]}") from None


def workflow_files(workflow: Path) -> set[tuple[str, str]]:
    """(folder, file) of every model file a workflow names."""
    from driver.workflow import Workflow, WorkflowError

    try:
        return {(folder, name) for folder, name, _ in Workflow.load(workflow).model_files()}
    except WorkflowError as e:
        raise ModelError(str(e)) from None


def select(table: list[ModelFile], workflow: Path, only: Iterable[str] | None) -> list[ModelFile]:
    """The table's files the workflow needs, or exactly those named by --only."""
    if only:
        names = list(only)
        unknown = [n for n in names if n not in {m.file for m in table}]
        if unknown:
            raise ModelError(f"--only {', '.join(unknown)}: not in the model table; known: "
                             f"{', '.join(m.file for m in table)}")
        return [m for m in table if m.file in names]
    wanted = workflow_files(workflow)
    return [m for m in table if (m.folder, m.file) in wanted]


def inspect(mf: ModelFile, models_dir: Path) -> tuple[FileState, int]:
    """Whether the file is in place with the size we expect (a truncated download is not)."""
    return inspect_path(mf.target(models_dir), mf)


def inspect_path(path: Path, mf: ModelFile | None = None) -> tuple[FileState, int]:
    """The state of a model file and its size: against the table's entry when there is
    one, against its own safetensors header always."""
    try:
        size = path.stat().st_size
    except OSError:
        return FileState.MISSING, 0
    if size == 0:
        return FileState.EMPTY, 0
    slack = 0 if mf is None or mf.size_exact else mf.size * SIZE_TOLERANCE
    if mf is not None and size < mf.size - slack:
        return FileState.TRUNCATED, size
    if path.suffix == ".safetensors":
        declared = safetensors_size(path)
        if declared is None:
            return FileState.INVALID, size
        if size < declared:
            return FileState.TRUNCATED, size
    if mf is not None and size > mf.size + slack:
        return FileState.LARGER, size
    return FileState.OK, size


@dataclass
class Outcome:
    file: ModelFile
    ok: bool
    text: str


def _download(mf: ModelFile, staging: Path) -> Path:
    """The complete file, under `staging`. Over plain HTTP the partial file is kept there
    between runs and resumed with a Range request (huggingface_hub >= 1 deletes its own
    partial files on failure, so a cut 20 GB download would start again from zero); Xet-backed
    files go through hf_hub_download, whose chunk cache makes a rerun cheap and which fetches
    chunks in parallel."""
    meta = get_hf_file_metadata(hf_hub_url(mf.repo, mf.path))
    if meta.xet_file_data is not None and importlib.util.find_spec("hf_xet") is not None:
        return Path(hf_hub_download(repo_id=mf.repo, filename=mf.path, local_dir=staging))
    tag = (meta.etag or "no-etag").strip('"')[:16]
    part = staging / f"{mf.path}.{tag}.part"
    part.parent.mkdir(parents=True, exist_ok=True)
    done = part.stat().st_size if part.exists() else 0
    if meta.size is not None and done > meta.size:  # our own partial, of another file
        part.unlink()
        done = 0
    if meta.size is None or done < meta.size:
        with open(part, "ab") as f:
            http_get(meta.location, f, resume_size=done, headers=build_hf_headers(),
                     expected_size=meta.size, displayed_filename=mf.file)
    return part


def download_failure(e: BaseException, mf: ModelFile) -> str:
    """Why a download from the hub failed, and what to do, in our words: the hub client's
    own text is httpx's ("Client error '404 Not Found' for url '...'", "ConnectError: [Errno
    111] Connection refused"), and a gated repository's 403 read "403 Forbidden: None."."""
    where = f"{mf.path} of {mf.repo} at {constants.ENDPOINT}"
    response = getattr(e, "response", None)
    status = getattr(response, "status_code", None)
    if isinstance(status, int):
        if status in (401, 403):
            # (the hub answers 401 for a repository that does not exist too)
            return (f"the hub refused {where} (HTTP {status}): the repository is gated, "
                    "private, or not there; check the table's repo, or accept its terms on "
                    "its page and log in (`hf auth login`, or set HF_TOKEN), then run models "
                    "again")
        if status == 404:
            return (f"the hub has no {where} (HTTP 404): check the repo and path in the model "
                    "table (--table)")
        if status == 429:
            return (f"the hub is limiting requests for {where} (HTTP 429): wait a few minutes, "
                    "then run models again to resume")
        return (f"the hub answered HTTP {status} for {where}: run models again later to "
                "resume")
    cause = _os_cause(e)
    if isinstance(cause, socket.gaierror):
        return (f"cannot resolve the hub's host for {where}: no network or DNS here; connect, "
                "or set HF_ENDPOINT to a mirror, then run models again")
    if isinstance(cause, ConnectionRefusedError):
        return (f"the hub refused the connection for {where}: check HF_ENDPOINT and the "
                "network, then run models again")
    if isinstance(cause, TimeoutError) or "timeout" in type(e).__name__.lower():
        return f"the connection to the hub timed out for {where}: run models again to resume"
    if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
        return (f"the disk is full ({cause.filename or 'under the models folder'}): free "
                f"{mf.size_words()} there, then run models again to resume")
    if any(w in type(e).__name__ for w in ("Protocol", "Read", "Network")):  # cut mid-file
        return f"the connection to the hub broke during {where}: run models again to resume"
    if isinstance(e, OSError) and e.strerror:
        return (f"download of {where} stopped: {e.strerror}"
                f"{f' ({e.filename})' if e.filename else ''}; run models again to resume")
    return (f"download of {where} stopped ({type(e).__name__}); run models again to resume")


def _os_cause(e: BaseException) -> BaseException:
    """The OSError behind an HTTP client's error (its __cause__ / __context__ chain), else e."""
    seen: set[int] = set()
    at: BaseException | None = e
    while at is not None and id(at) not in seen:
        if isinstance(at, (socket.gaierror, ConnectionRefusedError, TimeoutError)):
            return at
        if isinstance(at, OSError) and at.errno == errno.ENOSPC:
            return at
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return e


def fetch_one(mf: ModelFile, models_dir: Path) -> Outcome:
    target = mf.target(models_dir)
    state, size = inspect(mf, models_dir)
    if state is FileState.OK:
        return Outcome(mf, True, f"present: {mf.folder}/{mf.file} ({human(size)})")
    if state is not FileState.MISSING:
        return Outcome(mf, False, f"{mf.folder}/{mf.file} is {human(size)}, expected "
                                  f"{mf.size_words()} ({state.value}): move it away (it is "
                                  "not overwritten), then run models again")
    staging = models_dir / STAGING / mf.repo.replace("/", "--")
    try:
        got = _download(mf, staging)
    except Exception as e:  # the hub's and the HTTP client's errors, after their retries
        return Outcome(mf, False, f"{mf.file}: {download_failure(e, mf)}")
    actual = got.stat().st_size
    slack = 0 if mf.size_exact else mf.size * SIZE_TOLERANCE
    if abs(actual - mf.size) > slack:
        return Outcome(mf, False, f"{mf.file}: the hub's file is {human(actual)} but the table "
                                  f"says {mf.size_words()}: check the table (left in {got})")
    if mf.sha256 and sha256_file(got) != mf.sha256:
        return Outcome(mf, False, f"{mf.file}: sha256 differs from the table's (left in {got})")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():  # appeared meanwhile: never overwrite
        return Outcome(mf, False, f"{target} appeared during the download; left as it is")
    os.replace(got, target)
    return Outcome(mf, True, f"fetched: {mf.folder}/{mf.file} ({human(actual)})")


def fetch(files: list[ModelFile], models_dir: Path, workers: int = 4) -> list[Outcome]:
    """Fetch several files at once (one connection each, each resumable). The downloads run
    in daemon threads: on Ctrl-C the process ends at once, leaving each partial file for the
    next run to resume (a thread pool's workers are joined at exit: Ctrl-C went on to finish
    every download, hours for H3's weights, and then printed nothing)."""
    results: list[Outcome | BaseException | None] = [None] * len(files)
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in range(len(files)):
        todo.put(i)

    def work() -> None:
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results[i] = fetch_one(files[i], models_dir)
            except BaseException as e:  # noqa: BLE001 (raised again below, in the main thread)
                results[i] = e

    threads = [threading.Thread(target=work, daemon=True, name=f"models-{n}")
               for n in range(max(1, min(workers, len(files))))]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():  # a timed join: Ctrl-C reaches it on Windows too
                t.join(0.5)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"interrupted; partial downloads stay in {models_dir / STAGING}: "
                                "run models again to resume") from None
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return [r for r in results if isinstance(r, Outcome)]


def models_dir_of(cfg: ServiceConfig, models_dir: Path | None = None) -> Path:
    """The models folder ComfyUI reads: given, else <base-directory>/models when the server
    runs with --base-directory, else <comfyui>/models."""
    if models_dir is not None:
        return models_dir
    if "--base-directory" in cfg.extra_args:
        i = cfg.extra_args.index("--base-directory")
        if i + 1 < len(cfg.extra_args):
            return Path(cfg.extra_args[i + 1]) / "models"
    return cfg.comfyui / "models"


def run(cfg: ServiceConfig, *, models_dir: Path | None, table: Path | None,
        workflow: Path | None, only: list[str] | None, workers: int) -> Result:
    folder = models_dir_of(cfg, models_dir)
    if models_dir is None and not (cfg.comfyui / "main.py").is_file():
        return Result(Exit.CONFIG, f"no ComfyUI at {cfg.comfyui} (no main.py): give --comfyui "
                                   "DIR or --models-dir DIR")
    files = select(load_table(table), workflow or DEFAULT_WORKFLOW, only)
    if not files:
        return Result(Exit.CONFIG, f"the model table has none of the files of "
                                   f"{workflow or DEFAULT_WORKFLOW}: give --table or --only")
    outcomes = fetch(files, folder, workers=workers)
    lines = [("ok    " if o.ok else "FAIL  ") + o.text for o in outcomes]
    failed = [o for o in outcomes if not o.ok]
    data = {"models_dir": str(folder),
            "files": [{"file": o.file.file, "folder": o.file.folder, "ok": o.ok,
                       "message": o.text} for o in outcomes]}
    if failed:
        return Result(Exit.ERROR, f"{len(failed)} of {len(outcomes)} model file(s) not ready "
                                  f"in {folder}", data, detail="\n".join(lines))
    return Result(Exit.OK, f"{len(outcomes)} model file(s) ready in {folder}", data,
                  detail="\n".join(lines))
