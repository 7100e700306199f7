"""Run by ComfyUI-Manager and comfy-cli after requirements.txt (with ComfyUI's python):
install OpenCV only where none is there, so an existing opencv-python (or -contrib) is
never shadowed by a second wheel that writes the same `cv2` package."""

import importlib.util
import subprocess
import sys

if importlib.util.find_spec("cv2") is not None:
    print("h3sprite: OpenCV already installed; nothing to do")
else:
    sys.exit(subprocess.call([sys.executable, "-m", "pip", "install",
                              "opencv-python-headless>=4.8"]))
