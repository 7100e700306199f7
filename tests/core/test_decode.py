"""Decoding clips as players show them (core/video.py): the display matrix's turn, the
sample aspect ratio, the main picture among several streams; and files that cannot be
read as they claim refused in one line before memory grows for them: a WebM's alpha, a
file cut short, a broken timestamp gap, a clip far longer than any sprite's."""

from __future__ import annotations

from fractions import Fraction

import av
import cv2
import numpy as np
import pytest

from comfy_nodes.core import video

N = 12


def _pattern(h: int = 64, w: int = 96) -> np.ndarray:
    """N frames with no symmetry (a red block top left, a blue one moving along the
    bottom), each side even and the two sides unequal, so a turn or a flip shows."""
    frames = np.full((N, h, w, 3), (40, 180, 60), np.uint8)
    frames[:, 4:20, 6:30] = (220, 30, 30)
    for i in range(N):
        frames[i, h - 16:h - 4, 8 + 4 * i:20 + 4 * i] = (30, 40, 220)
    return frames


def _write(path, frames: np.ndarray, *, rotation: int | None = None,
           x264: str | None = None, pts: list[int] | None = None,
           options: dict | None = None) -> None:
    """H.264 of frames at 24 fps; its display matrix turned `rotation` degrees counter-
    clockwise, extra x264 parameters, and each frame's time in ms where given."""
    with av.open(str(path), "w", options=options or {}) as out:
        s = out.add_stream("libx264", rate=24)
        s.height, s.width = frames.shape[1:3]
        s.pix_fmt = "yuv420p"
        s.options = {"crf": "10", "threads": "1", "bf": "0",
                     **({"x264-params": x264} if x264 else {})}
        if pts is not None:
            s.codec_context.time_base = Fraction(1, 1000)
        if rotation is not None:
            s.set_display_rotation(rotation)
        for i, rgb in enumerate(frames):
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(rgb), format="rgb24")
            if pts is not None:
                frame.pts, frame.time_base = pts[i], Fraction(1, 1000)
            out.mux(s.encode(frame))
        out.mux(s.encode())


needs_rotation_writer = pytest.mark.skipif(
    not hasattr(av.VideoStream, "set_display_rotation"),
    reason="this PyAV cannot write a display matrix (18+ can)")


@needs_rotation_writer
@pytest.mark.parametrize("degrees", [90, -90, 180])
def test_a_clip_is_turned_as_its_display_matrix_says(tmp_path, degrees):
    """The same frames stored the same way, once with a display matrix turning them
    `degrees` counter-clockwise: decoded, they are exactly the plain clip's frames turned
    so, the turn noted clockwise (as players and MediaInfo say it)."""
    frames = _pattern()
    _write(tmp_path / "plain.mp4", frames)
    _write(tmp_path / "turned.mp4", frames, rotation=degrees)
    plain, turned = video.decode(tmp_path / "plain.mp4"), video.decode(tmp_path / "turned.mp4")
    assert np.array_equal(turned.frames, np.rot90(plain.frames, degrees // 90, axes=(1, 2)))
    assert turned.small is not None and plain.small is not None
    assert turned.small.shape[1:3] == np.rot90(plain.small[0], degrees // 90).shape[:2]
    assert turned.display == {"rotated_degrees_clockwise": -degrees % 360}
    assert plain.display is None


def test_anamorphic_pixels_are_stretched_to_square(tmp_path):
    """A clip stored 48 wide whose pixels are twice as wide as high (SAR 2:1) is shown
    96 wide: decoded at 96, each stored column standing for two (within the resize's
    rounding), the aspect ratio noted."""
    frames = _pattern(64, 96)
    stored = frames[:, :, ::2]
    _write(tmp_path / "sar.mp4", stored, x264="sar=2/1")
    clip = video.decode(tmp_path / "sar.mp4")
    assert clip.frames.shape[1:3] == (64, 96)
    assert clip.display == {"sample_aspect_ratio": "2"}
    plain = video.decode(_written(tmp_path / "stored.mp4", stored))
    assert np.abs(clip.frames[:, :, 1::2].astype(int) - plain.frames).mean() < 4


@needs_rotation_writer
def test_a_turn_that_is_no_quarter_turn_is_refused(tmp_path):
    """A display matrix turning the picture 45 degrees: no whole-pixel turn shows it, and
    a sheet of it on its side would be graded as if upright. One line, naming the turn."""
    _write(tmp_path / "tilted.mp4", _pattern(), rotation=45)
    with pytest.raises(video.ClipError, match=r"tilted\.mp4 is tagged to be shown turned by "
                                              r"-?45 degrees, not a quarter turn"):
        video.decode(tmp_path / "tilted.mp4")


@pytest.mark.parametrize("sar", ["5/1", "1/5"])
def test_a_sample_aspect_ratio_past_four_is_refused(tmp_path, sar):
    """Pixels five times as wide as high (or as narrow): the stretch would be a guess at a
    mis-tagged file, and 5x the width in memory. One line naming the ratio."""
    _write(tmp_path / "squeezed.mp4", _pattern(32, 48), x264=f"sar={sar}")
    with pytest.raises(video.ClipError, match=f"sample aspect ratio of {sar.replace('/1', '')}"
                                              ": re-encode it with square pixels"):
        video.decode(tmp_path / "squeezed.mp4")


def _written(path, frames):
    _write(path, frames)
    return path


def test_the_main_picture_is_taken_not_the_first_stream(tmp_path):
    """An MKV whose first video stream is a small grey preview and whose second is the
    clip: the clip is decoded (the larger, as FFmpeg's command line picks)."""
    frames = _pattern()
    path = tmp_path / "two.mkv"
    with av.open(str(path), "w") as out:
        small = out.add_stream("libx264", rate=24)
        small.width, small.height, small.pix_fmt = 32, 24, "yuv420p"
        main = out.add_stream("libx264", rate=24)
        main.width, main.height, main.pix_fmt = 96, 64, "yuv420p"
        for rgb in frames:
            grey = np.full((24, 32, 3), 128, np.uint8)
            out.mux(small.encode(av.VideoFrame.from_ndarray(grey, format="rgb24")))
            out.mux(main.encode(av.VideoFrame.from_ndarray(rgb, format="rgb24")))
        out.mux(small.encode())
        out.mux(main.encode())
    clip = video.decode(path)
    assert clip.frames.shape[1:3] == (64, 96) and clip.frame_count == N


def test_cover_art_is_never_the_clip(tmp_path):
    """An mp4 whose first stream is a cover picture larger than the clip (an attached
    picture, as some editors and phones export): the clip is decoded, not the picture."""
    frames = _pattern()
    path = tmp_path / "cover.mp4"
    with av.open(str(path), "w") as out:
        cover = out.add_stream("png")
        cover.width, cover.height, cover.pix_fmt = 200, 200, "rgb24"
        cover.disposition = av.stream.Disposition.attached_pic
        main = out.add_stream("libx264", rate=24)
        main.width, main.height, main.pix_fmt = 96, 64, "yuv420p"
        grey = av.VideoFrame.from_ndarray(np.full((200, 200, 3), 200, np.uint8), "rgb24")
        for packet in [*cover.encode(grey), *cover.encode()]:
            packet.pts = packet.dts = 0
            out.mux(packet)
        for rgb in frames:
            out.mux(main.encode(av.VideoFrame.from_ndarray(rgb, format="rgb24")))
        out.mux(main.encode())
    with av.open(str(path)) as probe:  # the file keeps the picture as cover art
        assert any(s.disposition & av.stream.Disposition.attached_pic
                   for s in probe.streams.video)
    clip = video.decode(path)
    assert clip.frames.shape[1:3] == (64, 96) and clip.frame_count == N


def test_a_webm_with_alpha_is_refused(tmp_path):
    """VP9 with an alpha plane (a clip matted already): FFmpeg's own VP9 decoder drops the
    alpha, so the frames look opaque; the file's alpha_mode tag says what they are."""
    frames = _pattern()
    path = tmp_path / "matted.webm"
    with av.open(str(path), "w") as out:
        s = out.add_stream("libvpx-vp9", rate=24)
        s.width, s.height, s.pix_fmt = 96, 64, "yuva420p"
        for rgb in frames:
            rgba = np.dstack([rgb, np.where(rgb[..., 1] > 150, 0, 255).astype(np.uint8)])
            out.mux(s.encode(av.VideoFrame.from_ndarray(rgba, format="rgba")))
        out.mux(s.encode())
    with pytest.raises(video.ClipError, match="carries an alpha channel.*before any "
                                              "background removal"):
        video.decode(path)


def test_a_file_cut_short_is_refused_not_read_as_a_short_clip(tmp_path):
    """An mp4 whose header (moved first, as for streaming) lists 48 frames, cut at 55 % of
    its bytes as an interrupted download is: refused, naming how many frames it holds of
    how many; the whole file decodes."""
    frames = np.concatenate([_pattern()] * 4)
    path = tmp_path / "whole.mp4"
    _write(path, frames, options={"movflags": "+faststart"})
    assert video.decode(path).frame_count == 48
    data = path.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[:int(len(data) * 0.55)])
    with pytest.raises(video.ClipError, match=r"ends after \d+ of the 48 frames its header "
                                              "lists: the file is cut short"):
        video.decode(cut)


@pytest.mark.parametrize("container, codec", [("matroska", "libx264"), ("webm", "libvpx-vp9")])
def test_a_matroska_or_webm_cut_short_is_refused_by_its_listed_duration(tmp_path, container,
                                                                         codec):
    """Matroska and WebM list no frame count, so a file cut at 55 % of its bytes decoded as
    a shorter clip (a TRUNCATED sheet, exit 0). FFmpeg's muxer writes each track's
    duration in its header, which a cut file still lists whole: refused by that; the
    whole file decodes."""
    frames = np.concatenate([_pattern()] * 4)
    path = tmp_path / f"whole.{'mkv' if container == 'matroska' else 'webm'}"
    with av.open(str(path), "w", format=container) as out:
        s = out.add_stream(codec, rate=24)
        s.height, s.width = frames.shape[1:3]
        s.pix_fmt = "yuv420p"
        for f in frames:
            out.mux(s.encode(av.VideoFrame.from_ndarray(f, format="rgb24")))
        out.mux(s.encode())
    assert video.decode(path).frame_count == 48
    cut = path.with_name("cut" + path.suffix)
    cut.write_bytes(path.read_bytes()[:int(path.stat().st_size * 0.55)])
    with pytest.raises(video.ClipError, match=r"ends at [\d.]+ s of the 2.00 s its header "
                                              "lists: the file is cut short"):
        video.decode(cut)


@pytest.mark.parametrize("first_pts", [24, 3])
def test_a_whole_webm_that_starts_late_is_not_taken_for_cut(tmp_path, first_pts):
    """FFmpeg's per-track DURATION is when the track ends, not how long it is: a whole
    WebM whose frames start at 1 s (or 3 frames in) lists 3 s and was refused as "ends
    at 2.00 s of the 3.00 s". Measured on the frames' own clock, it is whole."""
    from fractions import Fraction

    frames = np.concatenate([_pattern()] * 4)
    path = tmp_path / "late.webm"
    with av.open(str(path), "w", format="webm") as out:
        s = out.add_stream("libvpx-vp9", rate=24)
        s.height, s.width = frames.shape[1:3]
        s.pix_fmt = "yuv420p"
        for i, f in enumerate(frames):
            vf = av.VideoFrame.from_ndarray(f, format="rgb24")
            vf.pts, vf.time_base = first_pts + i, Fraction(1, 24)
            out.mux(s.encode(vf))
        out.mux(s.encode())
    assert video.decode(path).frame_count == 48


def test_a_gif_with_bytes_after_its_trailer_is_whole(tmp_path):
    """Some writers leave NULs or a newline after a GIF's trailer; every reader ignores
    them, and so does the cut-short check."""
    from PIL import Image

    frames = [Image.fromarray(f) for f in np.concatenate([_pattern()] * 2)]
    path = tmp_path / "tail.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=42, loop=0)
    path.write_bytes(path.read_bytes() + b"\x00\x00\n")
    assert video.decode(path).frame_count > 1

def test_a_gif_cut_short_is_refused(tmp_path):
    """A GIF lists neither count nor duration; one cut short decoded as a shorter clip. It
    lacks the trailer byte every GIF ends with: refused; the whole file decodes."""
    from PIL import Image

    frames = [Image.fromarray(f) for f in np.concatenate([_pattern()] * 2)]
    path = tmp_path / "whole.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=42, loop=0)
    assert video.decode(path).frame_count > 1
    cut = tmp_path / "cut.gif"
    cut.write_bytes(path.read_bytes()[:int(path.stat().st_size * 0.6)])
    with pytest.raises(video.ClipError, match="is cut short .it lacks the GIF's closing byte"):
        video.decode(cut)


def test_a_file_that_is_no_video_says_so_without_ffmpegs_errno(tmp_path):
    """The first 2,000 bytes of an mp4 (no index, no frames): one line, FFmpeg's reason in
    words, none of its errno or its repeat of the path."""
    path = tmp_path / "whole.mp4"
    _write(path, _pattern())
    head = tmp_path / "head.mp4"
    head.write_bytes(path.read_bytes()[:2000])
    with pytest.raises(video.ClipError) as e:
        video.decode(head)
    message = str(e.value)
    assert "not a readable video" in message and "Errno" not in message
    assert message.count(str(head)) == 1 and "\n" not in message


@pytest.mark.parametrize("gap_s, refused", [(2.0, False), (video.MAX_GAP_SECONDS + 1, True)])
def test_a_timestamp_gap_past_max_gap_is_refused(tmp_path, gap_s, refused):
    """Frames 1/24 s apart but for one gap after frame 5: a 2 s gap is a held frame (the
    clip resampled to 24 fps, 2 s longer); past MAX_GAP_SECONDS, the timing is broken and
    the clip refused before its storage grows for the gap."""
    pts = [round(i * 1000 / 24) + (round(gap_s * 1000) if i > 5 else 0) for i in range(N)]
    path = tmp_path / "gap.mkv"
    _write(path, _pattern(), pts=pts)
    if refused:
        with pytest.raises(video.ClipError, match=r"gap in its timestamps after frame 5: "
                                                  "its timing is broken"):
            video.decode(path)
    else:
        clip = video.decode(path)
        assert clip.frame_count == N + round(gap_s * 24)
        assert clip.timing is not None and clip.timing["variable_frame_rate"]


def test_a_clip_longer_than_max_clip_frames_is_refused(tmp_path, monkeypatch):
    """A clip one frame longer than MAX_CLIP_FRAMES (lowered here to keep the file small):
    refused in one line; one of exactly MAX_CLIP_FRAMES is read."""
    monkeypatch.setattr(video, "MAX_CLIP_FRAMES", N)
    _write(tmp_path / "n.mp4", _pattern())
    assert video.decode(tmp_path / "n.mp4").frame_count == N
    _write(tmp_path / "longer.mp4", np.concatenate([_pattern(), _pattern()[:1]]))
    with pytest.raises(video.ClipError, match=f"runs past {N} frames at 24 fps"):
        video.decode(tmp_path / "longer.mp4")


def test_frames_over_max_work_pixels_are_kept_area_averaged(tmp_path, monkeypatch):
    """Frames larger than MAX_WORK_PIXELS (lowered here to a quarter of a 96x64 frame) are
    kept at that many pixels, the aspect kept: each the area average of the frame as
    decoded at its own size, the size it came at noted; the reduced copy made from them."""
    path = _written(tmp_path / "big.mp4", _pattern(64, 96))
    own = video.decode(path)
    monkeypatch.setattr(video, "MAX_WORK_PIXELS", 96 * 64 // 4)
    kept = video.decode(path)
    assert kept.frames.shape == (N, 32, 48, 3)
    assert kept.display == {"shrunk_from": {"w": 96, "h": 64}}
    want = np.stack([cv2.resize(f, (48, 32), interpolation=cv2.INTER_AREA)
                     for f in own.frames])
    assert np.array_equal(kept.frames, want)
    assert kept.small is not None and kept.small.shape[1] * kept.factor <= 32
