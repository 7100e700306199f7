"""The image-processing core shared by the ComfyUI nodes and the driver.

numpy / OpenCV / PyAV / Pillow only: no torch, no ComfyUI import, so the driver can use it
anywhere and the nodes can wrap it thinly.
"""
