#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetUI

/// How a framebuffer lays out pixels: size, bytes per line (`line_length`, which may exceed
/// width × bytes per pixel), 16 or 32 bits a pixel, and where each colour channel sits (vfb's
/// 16-bit layout is red at bit 0, green 5, blue 11: the reverse of a panel's RGB565).
public struct FramebufferLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var lineLength: Int
    public var bitsPerPixel: Int
    public var red: FBBitfield, green: FBBitfield, blue: FBBitfield
    /// Byte offset of the visible screen (yoffset lines, xoffset pixels into the memory).
    public var start: Int

    public init(width: Int, height: Int, lineLength: Int, bitsPerPixel: Int,
                red: FBBitfield, green: FBBitfield, blue: FBBitfield, start: Int = 0) {
        self.width = width; self.height = height; self.lineLength = lineLength; self.bitsPerPixel = bitsPerPixel
        self.red = red; self.green = green; self.blue = blue; self.start = start
    }

    public init(_ v: FBVarScreenInfo, _ f: FBFixScreenInfo) {
        self.init(width: Int(v.xres), height: Int(v.yres), lineLength: Int(f.lineLength), bitsPerPixel: Int(v.bitsPerPixel),
                  red: v.red, green: v.green, blue: v.blue,
                  start: Int(v.yoffset) * Int(f.lineLength) + Int(v.xoffset) * Int(v.bitsPerPixel) / 8)
    }

    public var bytesPerPixel: Int { bitsPerPixel / 8 }
    /// Bytes the visible screen spans from the start of the memory.
    public var span: Int { start + max(0, height - 1) * lineLength + width * bytesPerPixel }

    /// A problem that stops a panel using this layout, or nil.
    public var problem: String? {
        guard bitsPerPixel == 16 || bitsPerPixel == 32 else { return "\(bitsPerPixel) bits a pixel: 16 or 32 only" }
        guard width > 0, height > 0 else { return "size \(width)x\(height)" }
        guard lineLength >= width * bytesPerPixel else { return "line_length \(lineLength) shorter than a line of \(width) pixels" }
        for (n, b) in [("red", red), ("green", green), ("blue", blue)] where b.length == 0 || b.length > 16 || b.offset + b.length > UInt32(bitsPerPixel) {
            return "\(n) bitfield \(b.offset)/\(b.length) does not fit \(bitsPerPixel) bits"
        }
        return nil
    }

    /// The framebuffer's pixel value for an RGB565 colour: each channel widened to 8 bits, then
    /// cut to the field's length and placed at its offset.
    public func value(_ c: RGB565) -> UInt32 {
        func field(_ v8: UInt8, _ b: FBBitfield) -> UInt32 {
            let l = Int(b.length)
            let v = l <= 8 ? UInt32(v8) >> UInt32(8 - l) : UInt32(v8) << UInt32(l - 8)
            return v << b.offset
        }
        return field(c.r8, red) | field(c.g8, green) | field(c.b8, blue)
    }

    /// The RGB565 colour of a framebuffer pixel value (the inverse of `value` for 5/6/5 or wider fields).
    public func colour(_ v: UInt32) -> RGB565 {
        func field(_ b: FBBitfield) -> UInt8 {
            let l = Int(b.length)
            let x = (v >> b.offset) & ((1 << UInt32(l)) - 1)
            return l <= 8 ? UInt8(x << UInt32(8 - l)) : UInt8(x >> UInt32(l - 8))
        }
        return RGB565(r: field(red), g: field(green), b: field(blue))
    }

    /// Where the UI's pixel (x, y) goes: the UI of `uiWidth` × `uiHeight` is drawn `rotation`
    /// degrees counter-clockwise (the panel is mounted that far clockwise).
    static func place(_ x: Int, _ y: Int, rotation: Int, uiWidth: Int, uiHeight: Int) -> (Int, Int) {
        switch rotation {
        case 90: (y, uiWidth - 1 - x)
        case 180: (uiWidth - 1 - x, uiHeight - 1 - y)
        case 270: (uiHeight - 1 - y, x)
        default: (x, y)
        }
    }

    /// Copies `rect` of `canvas` into the framebuffer memory `mem`, through `lut` (the pixel value
    /// of every RGB565 colour). Only the rect's pixels are written; line padding is never touched.
    public func blit(_ canvas: Canvas, _ rect: Rect, rotation: Int, lut: [UInt32], into mem: UnsafeMutableRawBufferPointer) {
        guard let r = rect.intersection(canvas.bounds), mem.count >= span, lut.count == 65536 else { return }
        let bpp = bytesPerPixel
        canvas.pixels.withUnsafeBufferPointer { px in
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    let (fx, fy) = Self.place(x, y, rotation: rotation, uiWidth: canvas.width, uiHeight: canvas.height)
                    guard fx >= 0, fy >= 0, fx < width, fy < height else { continue }
                    let o = start + fy * lineLength + fx * bpp
                    let v = lut[Int(px[y * canvas.width + x])]
                    if bpp == 2 { mem.storeBytes(of: UInt16(truncatingIfNeeded: v), toByteOffset: o, as: UInt16.self) }
                    else { mem.storeBytes(of: v, toByteOffset: o, as: UInt32.self) }
                }
            }
        }
    }

    /// The pixel value of every RGB565 colour (256 KiB, built once per panel).
    public func lookupTable() -> [UInt32] { (0..<65536).map { value(RGB565(raw: UInt16($0))) } }
}

/// A Linux framebuffer (`/dev/fbN`: vfb, fbtft, a DRM device's fbdev emulation) as a panel: the
/// memory is mapped once; a frame copies only its dirty rectangles from the rendered surface,
/// converting to the framebuffer's own colour layout and honouring `line_length`.
public final class FramebufferPanel: Panel {
    public let path: String
    public let layout: FramebufferLayout
    public let driverName: String
    public var format: PixelFormat { .rgb565 }
    public let width: Int
    public let height: Int
    public let rotation: Int
    public var isEPaper: Bool { false }
    private var fd: Int32
    private var memory: UnsafeMutableRawBufferPointer?
    private let lut: [UInt32]
    private var canBlank = true
    private var blanked = false

    /// Opens and maps `path`. The UI's size is the framebuffer's turned by `rotation`.
    public init(path: String = "/dev/fb0", rotation: Int = 0) throws(HardwareError) {
        self.path = path
        guard [0, 90, 180, 270].contains(rotation) else {
            throw HardwareError(.unsupported, device: path, operation: "configure", reason: "rotation \(rotation) is not 0, 90, 180 or 270")
        }
        self.rotation = rotation
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            let advice: String?
            switch e {
            case ENOENT: advice = "no framebuffer (enable the panel's overlay, e.g. dtoverlay=… for fbtft, or modprobe vfb to test)"
            case EACCES, EPERM: advice = "add the user to the video group (usermod -aG video USER, then log in again)"
            default: advice = nil
            }
            throw HardwareError(device: path, operation: "open", errno: e, advice: advice)
        }
        let (v, ve) = Sys.read(fd, IOCTL.fbGetVScreenInfo, as: FBVarScreenInfo.self, cSize: KernelSizes.fbVarScreenInfo)
        let (f, fe) = Sys.read(fd, IOCTL.fbGetFScreenInfo, as: FBFixScreenInfo.self, cSize: KernelSizes.fbFixScreenInfo)
        guard let v, let f else {
            let e = ve != 0 ? ve : fe
            Glibc.close(fd); fd = -1
            throw HardwareError(device: path, operation: "read the screen info", errno: e,
                                advice: e == ENOTTY || e == EINVAL ? "not a framebuffer" : nil)
        }
        layout = FramebufferLayout(v, f)
        driverName = f.name
        if let p = layout.problem {
            Glibc.close(fd); fd = -1
            throw HardwareError(.unsupported, device: path, operation: "check the pixel layout", reason: p)
        }
        let length = Int(f.smemLen)
        guard length >= layout.span else {
            Glibc.close(fd); fd = -1
            throw HardwareError(.invalidArgument, device: path, operation: "check the memory size",
                                reason: "smem_len \(length) is smaller than the screen (\(layout.span) bytes)")
        }
        let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != UnsafeMutableRawPointer(bitPattern: -1) else {
            let e = errno
            Glibc.close(fd); fd = -1
            throw HardwareError(device: path, operation: "map \(length) bytes", errno: e)
        }
        memory = UnsafeMutableRawBufferPointer(start: p, count: length)
        width = rotation % 180 == 0 ? layout.width : layout.height
        height = rotation % 180 == 0 ? layout.height : layout.width
        lut = layout.lookupTable()
    }

    public func flush(_ frame: PanelFrame) throws(HardwareError) {
        guard let memory else { throw HardwareError(.closed, device: path, operation: "flush", reason: "closed") }
        let canvas: Canvas
        switch frame.surface {
        case .colour(let c): canvas = c
        case .mono(let m): canvas = m.toCanvas()
        }
        guard canvas.width == width, canvas.height == height else {
            throw HardwareError(.invalidArgument, device: path, operation: "flush a \(canvas.width)x\(canvas.height) frame",
                                reason: "the framebuffer shows \(width)x\(height) at rotation \(rotation)")
        }
        for r in frame.rects { layout.blit(canvas, r.area, rotation: rotation, lut: lut, into: memory) }
    }

    /// 0 blanks the screen (FBIOBLANK), anything else unblanks it; drivers without blanking
    /// (vfb) are left lit.
    public func setBrightness(_ percent: Int) throws(HardwareError) {
        let blank = percent <= 0
        guard canBlank, blank != blanked, fd >= 0 else { return }
        if ioctl(fd, IOCTL.fbBlank, CInt(blank ? 4 : 0)) != 0 {   // FB_BLANK_POWERDOWN / FB_BLANK_UNBLANK
            let e = errno
            if e == EINVAL || e == ENOTTY || e == ENOSYS { canBlank = false; return }
            throw HardwareError(device: path, operation: blank ? "blank" : "unblank", errno: e)
        }
        blanked = blank
    }

    public func close() {
        if let m = memory { munmap(m.baseAddress, m.count); memory = nil }
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
