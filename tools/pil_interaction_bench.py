#!/usr/bin/env python3
"""One interaction the way Python hobbyist pet projects handle it: redraw the whole 240x240 screen with
PIL, convert it to RGB565 with numpy, and write the full frame to the panel (here /dev/null, as
spidev would get it). deskpet-bench runs this under valgrind next to its own interactions and
reports instructions per interaction for both (docs/performance.md: >= 50x fewer for DeskPet).

Usage: pil_interaction_bench.py N   (N interactions; N = 0 measures the start-up to subtract)
"""
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

W = H = 240
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
font = ImageFont.load_default()
sprite = Image.new("RGB", (24, 24), (247, 245, 238))
sd = ImageDraw.Draw(sprite)
sd.ellipse((2, 4, 21, 23), fill=(120, 210, 170), outline=(40, 60, 50))
sd.rectangle((8, 11, 9, 13), fill=(30, 30, 40))
sd.rectangle((14, 11, 15, 13), fill=(30, 30, 40))


def frame(k):
    img = Image.new("RGB", (W, H), (247, 245, 238))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 24), fill=(255, 255, 255))
    d.line((0, 24, W, 24), fill=(232, 222, 42), width=2)
    d.text((6, 6), "08:%02d" % (k % 60), fill=(43, 43, 58), font=font)
    d.ellipse((150, 6, 160, 16), fill=(224, 164, 0))
    d.text((164, 6), str(125 + k), fill=(43, 43, 58), font=font)
    d.rounded_rectangle((10, 32, 230, 52), radius=6, fill=(255, 255, 255), outline=(43, 43, 58))
    d.text((18, 38), "Good morning! Ready for today?", fill=(43, 43, 58), font=font)
    d.ellipse((64, 58, 176, 170), fill=(255, 251, 217), outline=(232, 222, 42), width=4)
    img.paste(sprite.resize((96, 96), Image.NEAREST), (72, 66))
    d.text((10, 176), "Mochi", fill=(43, 43, 58), font=font)
    d.rectangle((10, 192, 230, 198), fill=(226, 224, 214))
    d.rectangle((10, 192, 10 + (k * 7) % 220, 198), fill=(232, 222, 42))
    d.rectangle((0, 204, W, H), fill=(255, 255, 255))
    d.text((26, 210), "Task %d" % k, fill=(43, 43, 58), font=font)
    return img


with open("/dev/null", "wb") as panel:
    for k in range(N):
        a = np.asarray(frame(k), dtype=np.uint16)
        rgb565 = ((a[:, :, 0] >> 3) << 11) | ((a[:, :, 1] >> 2) << 5) | (a[:, :, 2] >> 3)
        panel.write(rgb565.astype(">u2").tobytes())
