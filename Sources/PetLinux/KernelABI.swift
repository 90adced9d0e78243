#if canImport(Glibc)
import Glibc
#endif
import PetDevice

// KernelABI.swift — the few kernel structures and ioctl numbers the panel backends need, laid out
// in Swift as linux/spi/spidev.h, linux/i2c-dev.h and linux/fb.h lay them out in C (no C shim).
// The GPIO uAPI v2's structures are encoded byte by byte in GPIOUAPI.swift.
// Swift lays out a struct's stored properties in order at their natural alignment, as C does;
// PetLinuxTests checks every size and offset against the kernel's.

/// ioctl request numbers (asm-generic/ioctl.h: dir << 30 | size << 16 | type << 8 | nr; x86 and
/// ARM use the generic encoding).
public enum IOCTL {
    static let write: UInt = 1
    static let read: UInt = 2
    static func ioc(_ dir: UInt, _ type: UInt8, _ nr: UInt8, _ size: Int) -> UInt {
        dir << 30 | UInt(size) << 16 | UInt(type) << 8 | UInt(nr)
    }
    /// SPI_IOC_MESSAGE(n): n `spi_ioc_transfer`s.
    public static func spiMessage(_ n: Int) -> UInt { ioc(write, 0x6B, 0, n * MemoryLayout<SPIIocTransfer>.size) }
    public static let spiWriteMode = ioc(write, 0x6B, 1, 1)          // SPI_IOC_WR_MODE, u8
    public static let spiWriteBitsPerWord = ioc(write, 0x6B, 3, 1)   // SPI_IOC_WR_BITS_PER_WORD, u8
    public static let spiWriteMaxSpeedHz = ioc(write, 0x6B, 4, 4)    // SPI_IOC_WR_MAX_SPEED_HZ, u32
    public static let i2cSlave: UInt = 0x0703                        // I2C_SLAVE, the address as the argument
    public static let fbGetVScreenInfo: UInt = 0x4600                // FBIOGET_VSCREENINFO
    public static let fbGetFScreenInfo: UInt = 0x4602                // FBIOGET_FSCREENINFO
    public static let fbBlank: UInt = 0x4611                         // FBIOBLANK, FB_BLANK_* as the argument
    // The GPIO character device, uAPI v2 (linux/gpio.h, type 0xB4; sizes in `GPIOUAPI.Size`).
    public static let gpioGetChipInfo = ioc(read, 0xB4, 0x01, GPIOUAPI.Size.chipInfo)              // GPIO_GET_CHIPINFO_IOCTL
    public static let gpioV2GetLineInfo = ioc(read | write, 0xB4, 0x05, GPIOUAPI.Size.lineInfo)    // GPIO_V2_GET_LINEINFO_IOCTL
    public static let gpioV2GetLine = ioc(read | write, 0xB4, 0x07, GPIOUAPI.Size.lineRequest)     // GPIO_V2_GET_LINE_IOCTL
    public static let gpioV2SetConfig = ioc(read | write, 0xB4, 0x0D, GPIOUAPI.Size.lineConfig)    // GPIO_V2_LINE_SET_CONFIG_IOCTL
    public static let gpioV2GetValues = ioc(read | write, 0xB4, 0x0E, GPIOUAPI.Size.lineValues)    // GPIO_V2_LINE_GET_VALUES_IOCTL
    public static let gpioV2SetValues = ioc(read | write, 0xB4, 0x0F, GPIOUAPI.Size.lineValues)    // GPIO_V2_LINE_SET_VALUES_IOCTL
}

/// `struct spi_ioc_transfer` (linux/spi/spidev.h): 32 bytes on every architecture.
public struct SPIIocTransfer: Sendable {
    public var txBuf: UInt64 = 0
    public var rxBuf: UInt64 = 0
    public var len: UInt32 = 0
    public var speedHz: UInt32 = 0
    public var delayUsecs: UInt16 = 0
    public var bitsPerWord: UInt8 = 0
    public var csChange: UInt8 = 0
    public var txNbits: UInt8 = 0
    public var rxNbits: UInt8 = 0
    public var wordDelayUsecs: UInt8 = 0
    public var pad: UInt8 = 0
    public init() {}
}

/// `struct fb_bitfield`: where a colour channel sits in a pixel.
public struct FBBitfield: Sendable, Equatable {
    public var offset: UInt32 = 0
    public var length: UInt32 = 0
    public var msbRight: UInt32 = 0
    public init(offset: UInt32 = 0, length: UInt32 = 0) { self.offset = offset; self.length = length }
}

/// `struct fb_var_screeninfo` (160 bytes).
public struct FBVarScreenInfo: Sendable {
    public var xres: UInt32 = 0, yres: UInt32 = 0
    public var xresVirtual: UInt32 = 0, yresVirtual: UInt32 = 0
    public var xoffset: UInt32 = 0, yoffset: UInt32 = 0
    public var bitsPerPixel: UInt32 = 0
    public var grayscale: UInt32 = 0
    public var red = FBBitfield(), green = FBBitfield(), blue = FBBitfield(), transp = FBBitfield()
    public var nonstd: UInt32 = 0
    public var activate: UInt32 = 0
    public var height: UInt32 = 0, width: UInt32 = 0
    public var accelFlags: UInt32 = 0
    public var pixclock: UInt32 = 0
    public var leftMargin: UInt32 = 0, rightMargin: UInt32 = 0, upperMargin: UInt32 = 0, lowerMargin: UInt32 = 0
    public var hsyncLen: UInt32 = 0, vsyncLen: UInt32 = 0
    public var sync: UInt32 = 0
    public var vmode: UInt32 = 0
    public var rotate: UInt32 = 0
    public var colorspace: UInt32 = 0
    public var reserved: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    public init() {}
}

/// `struct fb_fix_screeninfo` (80 bytes on 64-bit, 68 on 32-bit: `unsigned long` fields).
public struct FBFixScreenInfo: Sendable {
    public var id: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    public var smemStart: UInt = 0
    public var smemLen: UInt32 = 0
    public var type: UInt32 = 0
    public var typeAux: UInt32 = 0
    public var visual: UInt32 = 0
    public var xpanstep: UInt16 = 0, ypanstep: UInt16 = 0, ywrapstep: UInt16 = 0
    public var lineLength: UInt32 = 0
    public var mmioStart: UInt = 0
    public var mmioLen: UInt32 = 0
    public var accel: UInt32 = 0
    public var capabilities: UInt16 = 0
    public var reserved: (UInt16, UInt16) = (0, 0)
    public init() {}

    /// The driver's name ("Virtual FB", "fb_st7789v", ...).
    public var name: String {
        withUnsafeBytes(of: id) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// The C `sizeof` of each structure the kernel copies (Swift's `size` leaves out trailing padding).
public enum KernelSizes {
    public static var fbFixScreenInfo: Int { MemoryLayout<UInt>.size == 8 ? 80 : 68 }
    public static let fbVarScreenInfo = 160
    public static let spiIocTransfer = 32
}

enum Sys {
    /// An ioctl that fills a structure: the kernel writes into a buffer as large as the C struct
    /// (at least), then the Swift value is loaded from it.
    static func read<T>(_ fd: Int32, _ request: UInt, as: T.Type, cSize: Int) -> (T?, Int32) {
        let n = max(cSize, MemoryLayout<T>.stride)
        let buf = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
        defer { buf.deallocate() }
        buf.initializeMemory(as: UInt8.self, repeating: 0, count: n)
        guard ioctl(fd, request, buf) == 0 else { return (nil, errno) }
        return (buf.loadUnaligned(as: T.self), 0)
    }

    /// The first line of a small text file as an integer (sysfs parameters).
    static func readInt(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 31) }
        guard n > 0 else { return nil }
        return Int(String(decoding: buf.prefix(n).prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self))
    }
}

/// A `Delay` on the system's monotonic clock (nanosleep; resumes after signals).
public final class SystemDelay: Delay {
    public init() {}
    public var monotonicNs: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(max(0, ts.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, ts.tv_nsec))
    }
    public func sleep(ns: UInt64) {
        var req = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var rem = timespec()
        while nanosleep(&req, &rem) != 0 && errno == EINTR { req = rem }
    }
}
