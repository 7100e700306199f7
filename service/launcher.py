"""Runs ComfyUI's main.py under the interpreter of ComfyUI's own venv.

Standard library only: this file is executed by ComfyUI's python, not ours.

Before handing over to main.py it
- turns off transparent huge pages for this process (Linux prctl PR_SET_THP_DISABLE):
  hangs before VAE decode were cured this way in the weight-placement measurements;
- registers faulthandler on SIGUSR1, so `comfy_service stacks` can dump every thread's
  stack into the server log without stopping it.

Usage: python -u launcher.py COMFYUI_ROOT [ComfyUI arguments...]
"""

import ctypes
import faulthandler
import os
import runpy
import signal
import sys

PR_SET_THP_DISABLE = 41


def disable_transparent_huge_pages() -> str:
    if not sys.platform.startswith("linux"):
        return "not linux"
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0:
            return f"prctl failed: errno {ctypes.get_errno()}"
    except OSError as e:  # no libc symbol: musl or a sandbox
        return f"prctl unavailable: {e}"
    return "off"


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: launcher.py COMFYUI_ROOT [ComfyUI arguments...]")
    root = os.path.abspath(sys.argv[1])
    main_py = os.path.join(root, "main.py")
    if not os.path.isfile(main_py):
        sys.exit(f"launcher: no main.py in {root}")
    thp = disable_transparent_huge_pages()
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
    print(f"[h3sprite launcher] pid {os.getpid()} THP {thp}; faulthandler on SIGUSR1", flush=True)
    os.chdir(root)
    sys.path.insert(0, root)
    sys.argv = [main_py, *sys.argv[2:]]
    runpy.run_path(main_py, run_name="__main__")


if __name__ == "__main__":
    main()
