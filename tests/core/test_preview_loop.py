"""Preview Motion's last_frame (loop closure on the CPU): the clip returns to its first
frame, smoothly, and a mismatched last frame is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from comfy_nodes.core import greenscreen, preview
from tests.driver.conftest import draw_portrait


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> np.ndarray:
    path = tmp_path_factory.mktemp("loop") / "hero.png"
    draw_portrait(path, "hero")
    frame, _ = greenscreen.prepare_first_frame(greenscreen.load_portrait(path), 192, 160)
    return frame


@pytest.mark.parametrize("action, frames", [("walk", 56), ("attack", 22), ("idle", 5)])
def test_clip_ends_on_its_last_frame(first, action, frames):
    open_ = preview.animate(first, action, frames, seed=3)
    closed = preview.animate(first, action, frames, seed=3, last=first)
    assert np.array_equal(closed[0], first) and np.array_equal(closed[-1], first)
    # Without last_frame the clip ends elsewhere (for moving actions); the first three
    # quarters are the same motion either way.
    if action == "walk":
        assert np.abs(open_[-1].astype(int) - first).mean() > 0.5
    head = frames - max(2, frames // 4) - 1
    assert np.array_equal(open_[:head], closed[:head])
    # Smooth: no step in the blend is larger than the motion's own largest step.
    assert _steps(closed).max() <= _steps(open_).max() + 1.0


def _steps(clip: np.ndarray) -> np.ndarray:
    """Mean absolute change from each frame to the next."""
    return np.abs(np.diff(clip.astype(np.int16), axis=0)).mean(axis=(1, 2, 3))


def test_last_frame_of_another_size_is_refused(first):
    with pytest.raises(ValueError, match="last_frame is .* first_frame is"):
        preview.animate(first, "walk", 22, last=first[:-2])
