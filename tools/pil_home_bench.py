#!/usr/bin/env python3
"""The DeskPet home screen drawn the way Pwnagotchi-style projects draw: Python + PIL.

deskpet-bench runs this in the same benchmark run as its own renderer and reports the ratio. It
draws the equivalent of the 240x240 home screen (status bar with clock, coins and streak, the pet
sprite scaled x4 inside an accent ring, a speech bubble, name and level bar, the next task) into a
fresh RGB image every frame, then converts it to RGB565 bytes as a panel driver would need.
Prints one JSON line: {"frames": N, "draw_fps": F1, "draw_and_rgb565_fps": F2} - drawing alone (the
fair, conservative comparison: DeskPet's canvas is already RGB565), and drawing plus the conversion.
"""
import json
import sys
import time

from PIL import Image, ImageDraw, ImageFont

W = H = 240
FRAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 300

font = ImageFont.load_default()
sprite = Image.new("RGB", (24, 24), (247, 245, 238))
sd = ImageDraw.Draw(sprite)
sd.ellipse((2, 4, 21, 23), fill=(120, 210, 170), outline=(40, 60, 50))
sd.rectangle((8, 11, 9, 13), fill=(30, 30, 40))
sd.rectangle((14, 11, 15, 13), fill=(30, 30, 40))
sd.line((9, 17, 14, 17), fill=(200, 60, 80))


def frame(convert=True):
    img = Image.new("RGB", (W, H), (247, 245, 238))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 24), fill=(255, 255, 255))
    d.line((0, 24, W, 24), fill=(232, 222, 42), width=2)
    d.text((6, 6), "08:30", fill=(43, 43, 58), font=font)
    d.ellipse((150, 6, 160, 16), fill=(224, 164, 0))
    d.text((164, 6), "125", fill=(43, 43, 58), font=font)
    d.text((200, 6), "7", fill=(240, 100, 42), font=font)
    d.rounded_rectangle((10, 32, 230, 52), radius=6, fill=(255, 255, 255), outline=(43, 43, 58))
    d.text((18, 38), "Good morning! Ready for today?", fill=(43, 43, 58), font=font)
    d.ellipse((64, 58, 176, 170), fill=(255, 251, 217), outline=(232, 222, 42), width=4)
    img.paste(sprite.resize((96, 96), Image.NEAREST), (72, 66))
    d.text((10, 176), "Mochi", fill=(43, 43, 58), font=font)
    d.text((196, 176), "Lv 3", fill=(43, 43, 58), font=font)
    d.rectangle((10, 192, 230, 198), fill=(226, 224, 214))
    d.rectangle((10, 192, 140, 198), fill=(232, 222, 42))
    d.rectangle((0, 204, W, H), fill=(255, 255, 255))
    d.text((26, 210), "Water the plants", fill=(43, 43, 58), font=font)
    d.text((26, 224), "Due 09:00 - in 30 min", fill=(119, 119, 138), font=font)
    raw = img.tobytes()
    if not convert:
        return raw
    # RGB888 -> RGB565 bytes, what a panel driver sends.
    out = bytearray(W * H * 2)
    for i in range(W * H):
        r, g, b = raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]
        v = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)
        out[2 * i] = v >> 8
        out[2 * i + 1] = v & 0xFF
    return out


def rate(convert):
    frame(convert)  # warm up
    t0 = time.perf_counter()
    for _ in range(FRAMES):
        frame(convert)
    return FRAMES / (time.perf_counter() - t0)


def main():
    draw = rate(False)
    full = rate(True)
    print(json.dumps({"frames": FRAMES, "draw_fps": round(draw, 1), "draw_and_rgb565_fps": round(full, 1)}))


if __name__ == "__main__":
    main()
