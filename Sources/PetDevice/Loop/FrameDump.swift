import PetUI

/// What the daemon believes its panel shows, written to a file on request (SIGUSR1 to `deskpet
/// run`: `DATA/frame.dump`), so a test can compare it with what really reached the panel — the
/// framebuffer's memory, or the SPI/I2C bytes decoded by an emulator (tools/kernel-loop/guest-daemon.sh).
///
/// The format: one text line
/// `deskpet-frame 1 KIND WIDTH HEIGHT frames=N dump=D screen=S\n` (KIND `colour` or `mono`; N:
/// frames the panel took so far, `PanelPipeline.framesSent`; D: the dump's number, from 1; S: the
/// screen the navigator is on, `menu` while the menu is open, `-` if not known), then
/// WIDTH × HEIGHT pixels as RGB565, little-endian, rows top to bottom in the UI's orientation
/// (mono: white 0xFFFF, black 0x0000). A surface that was never flushed has `frames=0` and no pixels
/// (width and height 0).
public struct FrameDump: Equatable, Sendable {
    public enum Kind: String, Sendable { case colour, mono }
    public var kind: Kind
    public var width: Int
    public var height: Int
    /// Frames the panel had taken when the dump was made.
    public var frames: Int
    /// The dump's number (1, 2, ...), so a reader can wait for a new one.
    public var dump: Int
    /// The navigator's screen (`menu` while the menu is open; one word, `-` if not known).
    public var screen: String
    /// RGB565 pixels, rows top to bottom.
    public var pixels: [UInt16]

    public init(kind: Kind, width: Int, height: Int, frames: Int, dump: Int, screen: String = "-", pixels: [UInt16]) {
        self.kind = kind; self.width = width; self.height = height; self.frames = frames; self.dump = dump
        self.screen = screen.isEmpty || screen.contains(where: { $0 == " " || $0 == "\n" }) ? "-" : screen
        self.pixels = pixels
    }

    /// The dump of `surface` (nil: nothing shown yet).
    public init(surface: PanelSurface?, frames: Int, dump: Int, screen: String = "-") {
        switch surface {
        case .colour(let c)?:
            self.init(kind: .colour, width: c.width, height: c.height, frames: frames, dump: dump, screen: screen, pixels: c.pixels)
        case .mono(let m)?:
            self.init(kind: .mono, width: m.width, height: m.height, frames: frames, dump: dump, screen: screen, pixels: m.toCanvas().pixels)
        case nil:
            self.init(kind: .colour, width: 0, height: 0, frames: frames, dump: dump, screen: screen, pixels: [])
        }
    }

    public var canvas: Canvas {
        var c = Canvas(width: width, height: height)
        c.pixels = pixels
        return c
    }

    /// The 1-bit picture (mono dumps; colour ones are thresholded as the mono panels' pipeline does).
    public var mono: MonoCanvas { MonoCanvas(from: canvas) }

    public var bytes: [UInt8] {
        var out = Array("deskpet-frame 1 \(kind.rawValue) \(width) \(height) frames=\(frames) dump=\(dump) screen=\(screen)\n".utf8)
        out.reserveCapacity(out.count + pixels.count * 2)
        for p in pixels { out.append(UInt8(truncatingIfNeeded: p)); out.append(UInt8(truncatingIfNeeded: p >> 8)) }
        return out
    }

    /// Parses a dump; nil if it is not one (or is cut short).
    public static func parse(_ b: [UInt8]) -> FrameDump? {
        guard let nl = b.firstIndex(of: 10), nl < 200 else { return nil }
        let words = String(decoding: b[..<nl], as: UTF8.self).split(separator: " ").map(String.init)
        guard words.count == 8, words[0] == "deskpet-frame", words[1] == "1", let kind = Kind(rawValue: words[2]),
              let w = Int(words[3]), let h = Int(words[4]), w >= 0, h >= 0, w <= 4096, h <= 4096,
              words[5].hasPrefix("frames="), let frames = Int(words[5].dropFirst(7)),
              words[6].hasPrefix("dump="), let dump = Int(words[6].dropFirst(5)),
              words[7].hasPrefix("screen="), words[7].count > 7 else { return nil }
        let start = nl + 1
        guard b.count == start + w * h * 2 else { return nil }
        var px = [UInt16](repeating: 0, count: w * h)
        for i in 0..<(w * h) { px[i] = UInt16(b[start + 2 * i]) | UInt16(b[start + 2 * i + 1]) << 8 }
        return FrameDump(kind: kind, width: w, height: h, frames: frames, dump: dump, screen: String(words[7].dropFirst(7)), pixels: px)
    }
}
