"""`comfy_service` over every server it started: options on either side of the verb,
`status` / `stop` without --port, and `list`; two real embedded servers, one state folder."""

from __future__ import annotations

import pytest

from service import manager
from service.manager import Exit
from tests.conftest import free_port as free_port_number
from tests.conftest import make_spot, run_cli


@pytest.fixture
def two_spots(tmp_path, embedded_ready):
    a, b = make_spot(tmp_path / "a"), make_spot(tmp_path / "b")
    b.state_dir = a.state_dir  # one state folder, as for a user: one file per port
    yield a, b
    for s in (a, b):
        manager.stop(s.config())


def test_stop_without_port_stops_every_server_we_started(two_spots):
    a, b = two_spots
    for s in (a, b):
        assert s.service("start").code == Exit.OK
    state = ["--state-dir", str(a.state_dir)]
    before = run_cli("service", "--port", str(b.port), *state, "status", "--json")
    assert before.code == Exit.OK and before.json()["port"] == b.port  # options first
    listed = run_cli("service", "list", *state)
    assert listed.code == Exit.OK
    assert f"port {a.port}: running" in listed.out and f"port {b.port}: running" in listed.out
    stopped = run_cli("service", "stop", *state, "--json")
    assert stopped.code == Exit.OK, stopped.err
    doc = stopped.json()
    assert doc["message"] == (f"stopped 2 server(s) on port(s) "
                              f"{', '.join(map(str, sorted((a.port, b.port))))}")
    assert {s["port"] for s in doc["servers"] if s["stopped"]} == {a.port, b.port}
    after = run_cli("service", "status", *state)
    assert after.code == Exit.NOT_RUNNING and "not running" in after.err  # none left


def test_recorded_ports_are_the_state_files_only(tmp_path):
    """One state file per port; temporary files, logs and other names are not servers."""
    from service.config import resolve
    from service.every import recorded_ports

    for name in ("comfyui-8313.json", "comfyui-8188.json", ".comfyui-8188.json.77.tmp",
                 "comfyui-x.json", "comfyui-8400.json.bak", "extra_model_paths.yaml"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "logs").mkdir()
    assert recorded_ports(resolve({"state_dir": tmp_path})) == [8188, 8313]
    assert recorded_ports(resolve({"state_dir": tmp_path / "none"})) == []


def test_a_chosen_port_means_that_server_only(tmp_path):
    """With H3SPRITE_PORT set, status answers for that port alone, not every recorded one."""
    (tmp_path / "comfyui-8313.json").write_text("{}")
    res = run_cli("service", "status", "--state-dir", str(tmp_path),
                  env={"H3SPRITE_PORT": str(free_port_number())})
    assert res.code == Exit.NOT_RUNNING and "8313" not in res.err + res.out


def test_without_a_port_and_nothing_recorded_the_folder_is_named(tmp_path):
    """status and stop without a port, nothing recorded: they name the state folder, as
    list does (they said "not running on port 8188")."""
    state = ["--state-dir", str(tmp_path)]
    status = run_cli("service", "status", *state, env={"H3SPRITE_PORT": ""})
    assert status.code == Exit.NOT_RUNNING
    assert status.err.strip() == f"comfy_service: not running: no servers recorded in {tmp_path}"
    stop = run_cli("service", "stop", *state, env={"H3SPRITE_PORT": ""})
    assert stop.code == Exit.OK
    assert stop.out.strip() == (f"no server of ours was running: no servers recorded in "
                                f"{tmp_path} (nothing to stop)")


def test_restart_with_nothing_recorded_says_it_started_one(spot):
    res = spot.service("restart")
    assert res.code == Exit.OK, res.err
    assert res.out.startswith(f"restart: no server of ours was recorded on port {spot.port}, "
                              "so a new one was started; started pid ")
