// PNG+Canvas.swift — the PNG encoder (its own target, PetPNG) on PetUI's canvases. PetUI re-exports
// PetPNG so every `import PetUI` sees `PNG`, `CRC32` and `Adler32` as before.
@_exported import PetPNG

extension PNG {
    /// Encodes a canvas as 8-bit RGB (colour type 2), expanding RGB565 to 8 bits/channel.
    /// Returns an empty array for an empty canvas (PNG has no zero-sized images).
    public static func encode(rgb565 canvas: Canvas) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
        var o = 0
        for p in canvas.pixels {
            let c = RGB565(raw: p)
            rgb[o] = c.r8; rgb[o + 1] = c.g8; rgb[o + 2] = c.b8
            o += 3
        }
        return encodeRGB(width: canvas.width, height: canvas.height, rgb: rgb)
    }
}
