import PetUI

// The ST7789's RAM layout (RAMWR in 65k-colour mode): 16-bit RGB565, most significant byte first,
// rows top to bottom, pixels left to right within the column/row window. Packing is what the
// driver sends; decoding is what the panel then shows (the simulator's headless panel).

extension PanelBytes {
    /// The RGB565 bytes (big-endian) of `rect` clipped to the canvas.
    public static func rgb565(_ c: Canvas, _ rect: Rect) -> PackedRect {
        guard let r = rect.intersection(c.bounds) else { return PackedRect(area: Rect(x: 0, y: 0, w: 0, h: 0), bytes: []) }
        let w = c.width
        // Written once, as big-endian 16-bit words, without per-byte bounds checks.
        // A row is one loop of byte swaps the compiler vectorizes.
        let out = [UInt8](unsafeUninitializedCapacity: r.w * r.h * 2) { buf, count in
            let dst = UnsafeMutableRawPointer(buf.baseAddress!)
            c.pixels.withUnsafeBufferPointer { px in
                let src = px.baseAddress!
                let n = r.w
                var o = 0
                for y in r.y..<r.maxY {
                    let row = src + (y * w + r.x)
                    let d = dst + o
                    for i in 0..<n {
                        d.storeBytes(of: row[i].bigEndian, toByteOffset: i &* 2, as: UInt16.self)
                    }
                    o += 2 * n
                }
            }
            count = r.w * r.h * 2
        }
        return PackedRect(area: r, bytes: out)
    }

    /// Decodes a packed rectangle into `canvas` (a colour panel's RAM). Bytes past the end of
    /// the area are ignored; missing ones leave pixels as they were. Returns false when the byte
    /// count does not match the area (the panel would show garbage there).
    @discardableResult
    public static func decodeRGB565(_ p: PackedRect, into canvas: inout Canvas) -> Bool {
        guard let r = p.area.intersection(canvas.bounds), r == p.area else { return false }
        guard p.bytes.count == r.w * r.h * 2 else { return false }
        let w = canvas.width
        p.bytes.withUnsafeBufferPointer { b in
            canvas.pixels.withUnsafeMutableBufferPointer { px in
                var i = 0
                for y in r.y..<r.maxY {
                    for x in r.x..<r.maxX {
                        px[y * w + x] = UInt16(b[i]) << 8 | UInt16(b[i + 1])
                        i += 2
                    }
                }
            }
        }
        canvas.markDirty(r)
        return true
    }
}
