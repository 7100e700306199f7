"""Settings resolve flag > environment > file > default; placement presets map to flags."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil
import pytest

from service import placement
from service.config import ConfigError, resolve
from service.process import ProcessId, terminate_tree


def test_precedence_flag_env_file_default(tmp_path):
    """Each layer overrides the one below it, key by key."""
    f = tmp_path / "s.yaml"
    f.write_text("port: 1111\nhost: 127.0.0.2\nextra_args: --disable-mmap\n")
    env = {"H3SPRITE_PORT": "2222", "H3SPRITE_PLACEMENT": "streaming"}
    cfg = resolve({"port": 3333}, config_file=f, environ=env)
    assert cfg.port == 3333  # flag
    assert cfg.placement == "streaming"  # env over default
    assert cfg.host == "127.0.0.2"  # file over default
    assert cfg.extra_args == ["--disable-mmap"]  # a string in the file is split like a shell
    assert resolve({}, config_file=f, environ=env).port == 2222  # env over file
    assert resolve({}, environ={}).port == 8188  # default
    assert resolve({}, environ={}).host == "127.0.0.1"  # loopback unless told otherwise


def test_bad_env_value_names_the_variable():
    """A wrong value from the environment names the variable."""
    with pytest.raises(ConfigError, match="H3SPRITE_PORT"):
        resolve({}, environ={"H3SPRITE_PORT": "eighty"})


@pytest.mark.parametrize("mode, free, expect", [
    ("resident", None, ["--highvram"]),
    ("streaming", 80.0, ["--lowvram"]),
    ("phased", 80.0, ["--disable-smart-memory"]),
    ("auto", None, ["--cpu"]),
    ("auto", 31.0, ["--highvram"]),  # 31 >= 19.5 * 1.53
    ("auto", 24.0, ["--lowvram"]),
])
def test_placement_presets(mode, free, expect):
    """Presets map to ComfyUI's flags; auto compares free VRAM with the measured peak."""
    assert placement.choose(mode, 19.5, free)[1] == expect


def test_user_vram_flag_wins_over_preset():
    """A VRAM mode in the user's extra args is not contradicted by ours."""
    assert placement.flags_for("auto", 19.5, ["--novram"]) == ("from extra args", [])


def test_terminate_tree_kills_children_that_ignore_sigterm():
    """SIGTERM to the root, then SIGKILL for a grandchild that ignores SIGTERM."""
    code = ("import signal,subprocess,sys,time;"
            "subprocess.Popen([sys.executable,'-c',"
            "'import signal,time;signal.signal(signal.SIGTERM,signal.SIG_IGN);"
            "print(1,flush=True);time.sleep(60)']);time.sleep(60)")
    root = subprocess.Popen([sys.executable, "-c", code])
    proc = psutil.Process(root.pid)
    deadline = time.monotonic() + 10
    while not proc.children() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # let the child install its SIGTERM handler
    child = ProcessId.of(proc.children()[0])
    killed = terminate_tree(proc, timeout=1)
    root.wait()
    assert child.pid in killed
    assert child.process() is None


@pytest.mark.parametrize("key", ["state_dir", "comfyui", "python"])
def test_an_empty_path_in_the_settings_file_is_refused(tmp_path, key):
    """`state_dir: ""` was Path(""), the current folder: state and logs went wherever the
    verb ran. Refused, naming the file and the key, as the empty flags are."""
    f = tmp_path / "s.yaml"
    f.write_text(f'{key}: ""\n')
    with pytest.raises(ConfigError) as e:
        resolve({}, config_file=f, environ={})
    assert str(f) in str(e.value) and key in str(e.value) and "is empty" in str(e.value)


@pytest.mark.parametrize("args, env, needle", [
    # "host  is reachable from the network" before
    (["start", "--host", ""], {}, "bad setting 'host' from flags: is empty"),
    # "comfy_service: No such file or directory: /proc/x", exit 1, before
    (["start"], {"H3SPRITE_STATE_DIR": "/proc/x"},
     "state_dir /proc/x cannot be created (No such file or directory)"),
    # silently .embedded/run before, where --state-dir "" and a file's "" are refused
    (["list"], {"H3SPRITE_STATE_DIR": ""},
     "bad setting 'state_dir' from environment variable H3SPRITE_STATE_DIR: is empty"),
])
def test_an_empty_or_impossible_setting_is_named(tmp_path, args, env, needle):
    from service.manager import Exit
    from tests.conftest import free_port, run_cli

    res = run_cli("service", *args, "--port", str(free_port()), env=env, timeout=60)
    assert res.code == Exit.CONFIG, res.err
    assert needle in res.err and len(res.err.strip().splitlines()) == 1, res.err
