"""The OOM ladder and failure classification, as pure functions."""

from driver.client import ExecutionFailed
from driver.ladder import next_rung


def test_ladder_order_shorter_then_smaller_then_steps():
    """From 2 s at 448x448: 39 then 22 frames, then the canvases smaller than 448x448
    (512x320, then 448x256), then 6 and 4 steps, then the bottom."""
    state = (2.0, (448, 448), None)
    seen = []
    while True:
        rung = next_rung(*state, has_steps=True)
        if rung is None:
            break
        state = rung[:3]
        seen.append(rung[3])
    assert seen == ["39 frames (1.62 s)", "22 frames (0.92 s)", "canvas 512x320",
                    "canvas 448x256", "6 steps", "4 steps"]


def test_ladder_keeps_orientation_and_skips_steps_without_a_sampler():
    assert next_rung(0.7, (320, 608), None, has_steps=False)[1] == (320, 512)
    assert next_rung(0.7, (256, 448), None, has_steps=False) is None


def test_out_of_memory_is_recognised():
    assert ExecutionFailed("x", "torch.OutOfMemoryError").out_of_memory
    assert ExecutionFailed("CUDA out of memory. Tried to allocate 2 GiB", "RuntimeError") \
        .out_of_memory
    assert not ExecutionFailed("found no character", "ValueError").out_of_memory
