"""`comfy_service` over every server it started: options on either side of the verb,
`status` / `stop` without --port, and `list`; two real embedded servers, one state folder."""

from __future__ import annotations

import pytest

from service import manager
from service.manager import Exit
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
