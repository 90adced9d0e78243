#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetDevice

/// One `struct input_event` as the kernel writes it to /dev/input/eventN.
public struct InputEventRecord: Sendable, Equatable {
    public var sec: Int64
    public var usec: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    public init(sec: Int64, usec: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.sec = sec; self.usec = usec; self.type = type; self.code = code; self.value = value
    }
    public var ns: UInt64 { EventTime.ns(sec: sec, nsec: usec &* 1000) }
}

/// Decodes evdev records from bytes and turns key events into button edges. Pure.
///
/// `struct input_event` is two `unsigned long`s of time (seconds, microseconds), then type (u16),
/// code (u16) and value (s32): 24 bytes on 64-bit systems, 16 on 32-bit ones, in the host's byte
/// order (little-endian on every board DeskPet runs on).
public struct EvdevDecoder: Sendable {
    public static let EV_SYN: UInt16 = 0, EV_KEY: UInt16 = 1
    public static let SYN_REPORT: UInt16 = 0, SYN_DROPPED: UInt16 = 3
    /// The size of one record on this system.
    public static let recordSize = 2 * MemoryLayout<UInt>.size + 8

    /// Key code (linux/input-event-codes.h: KEY_A 30, KEY_ENTER 28, BTN_0 0x100, ...) → button.
    public var keys: [UInt16: Button]
    /// After SYN_DROPPED the kernel's queue overflowed: everything up to the next SYN_REPORT is
    /// incomplete and must be dropped, and the key states read again (EVIOCGKEY).
    public private(set) var dropping = false

    public init(keys: [UInt16: Button]) { self.keys = keys }

    /// A key going down or up, with its code and the event's timestamp (as the kernel stamped it).
    public struct KeyEdge: Sendable, Equatable {
        public var code: UInt16
        public var button: Button
        public var pressed: Bool
        public var ns: UInt64
    }

    /// Records from raw bytes (a whole number of records; a trailing partial record is ignored).
    public static func records(_ bytes: some Collection<UInt8>, recordSize: Int = recordSize) -> [InputEventRecord] {
        let b = Array(bytes)
        let word = (recordSize - 8) / 2
        guard word == 4 || word == 8 else { return [] }
        func int(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v |= UInt64(b[at + i]) << (8 * UInt64(i)) }
            return v
        }
        func signed(_ v: UInt64, _ n: Int) -> Int64 { n == 8 ? Int64(bitPattern: v) : Int64(Int32(truncatingIfNeeded: v)) }
        var out: [InputEventRecord] = []
        var at = 0
        while at + recordSize <= b.count {
            out.append(InputEventRecord(sec: signed(int(at, word), word), usec: signed(int(at + word, word), word),
                                        type: UInt16(int(at + 2 * word, 2)), code: UInt16(int(at + 2 * word + 2, 2)),
                                        value: Int32(truncatingIfNeeded: int(at + 2 * word + 4, 4))))
            at += recordSize
        }
        return out
    }

    /// The edges in `records`: EV_KEY value 1 is a press, 0 a release; 2 (auto-repeat) and keys
    /// not in the map are ignored. Returns whether the key states must be read again (the queue
    /// overflowed and the drop ended at a SYN_REPORT).
    public mutating func edges(_ records: [InputEventRecord]) -> (edges: [KeyEdge], resync: Bool) {
        var out: [KeyEdge] = []
        var resync = false
        for r in records {
            if r.type == Self.EV_SYN {
                if r.code == Self.SYN_DROPPED { dropping = true; out.removeAll() }
                else if r.code == Self.SYN_REPORT && dropping { dropping = false; resync = true }
                continue
            }
            guard !dropping, r.type == Self.EV_KEY, let b = keys[r.code], r.value == 0 || r.value == 1 else { continue }
            out.append(KeyEdge(code: r.code, button: b, pressed: r.value == 1, ns: r.ns))
        }
        return (out, resync)
    }

    /// An ioctl request number (the kernel's _IOC, as on x86, ARM and RISC-V).
    public static func ioctlNumber(read: Bool, write: Bool, type: UInt8, nr: UInt8, size: Int) -> UInt {
        let dir: UInt = (read ? 2 : 0) | (write ? 1 : 0)
        return dir << 30 | (UInt(size) & 0x3fff) << 16 | UInt(type) << 8 | UInt(nr)
    }
    /// EVIOCGNAME(len): the device's name.
    public static func EVIOCGNAME(_ len: Int) -> UInt { ioctlNumber(read: true, write: false, type: 0x45, nr: 0x06, size: len) }
    /// EVIOCGKEY(len): the current state of every key, a bit per code.
    public static func EVIOCGKEY(_ len: Int) -> UInt { ioctlNumber(read: true, write: false, type: 0x45, nr: 0x18, size: len) }
    /// EVIOCSCLOCKID: the clock events are stamped with.
    public static let EVIOCSCLOCKID = ioctlNumber(read: false, write: true, type: 0x45, nr: 0xa0, size: MemoryLayout<Int32>.size)
}

/// Buttons from an evdev node (/dev/input/eventN): the kernel's gpio-keys driver (a Raspberry Pi's
/// `dtoverlay=gpio-key`), a USB keypad, a joystick HAT. EV_KEY codes map to buttons; events are
/// stamped with CLOCK_MONOTONIC (EVIOCSCLOCKID) so they share the gesture recognizer's time line.
public final class EvdevButtons: InputSource {
    public let path: String
    private var fd: Int32 = -1
    private var decoder: EvdevDecoder
    /// The keys believed down (for resynchronising after the kernel's queue overflowed).
    private var down: Set<UInt16> = []

    /// Opens `path`. `grab`: take the device for this program alone (EVIOCGRAB; keeps a keyboard's
    /// keys from reaching a console).
    public init(path: String, keys: [UInt16: Button], grab: Bool = false) throws(HardwareError) {
        self.path = path
        decoder = EvdevDecoder(keys: keys)
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LinuxError.make(path, "open", errno: errno, kind: .input) }
        var clock = Int32(CLOCK_MONOTONIC)
        if deskpet_ioctl_ptr(fd, EvdevDecoder.EVIOCSCLOCKID, &clock) != 0 {
            // Old kernels: timestamps stay REALTIME; EventTime converts them.
        }
        if grab && deskpet_ioctl_int(fd, EVIOCGRAB_VALUE, 1) != 0 {
            let e = errno
            close()
            throw LinuxError.make(path, "grab the device (EVIOCGRAB)", errno: e, kind: .input)
        }
        down = currentKeys() ?? []
    }

    /// Opens the first /dev/input/event* whose name (EVIOCGNAME) is `deviceName`, e.g. "gpio-keys"
    /// or "button@11" as device-tree overlays name them.
    public convenience init(deviceName: String, keys: [UInt16: Button], grab: Bool = false, directory: String = "/dev/input") throws(HardwareError) {
        guard let p = try Self.find(deviceName: deviceName, directory: directory) else {
            throw LinuxError.make("\(directory)/event* named \(deviceName)", "find the input device", errno: ENOENT, kind: .input)
        }
        try self.init(path: p, keys: keys, grab: grab)
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    public var fileDescriptor: Int32? { fd >= 0 ? fd : nil }

    /// The device's name (EVIOCGNAME).
    public var deviceName: String? { fd >= 0 ? Self.name(of: fd) : nil }

    /// The paths of /dev/input/event* named `deviceName` (sorted by number), first match.
    public static func find(deviceName: String, directory: String = "/dev/input") throws(HardwareError) -> String? {
        guard let dir = opendir(directory) else { throw LinuxError.make(directory, "list input devices", errno: errno, kind: .input) }
        defer { closedir(dir) }
        var nodes: [(Int, String)] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("event"), let n = Int(name.dropFirst(5)) else { continue }
            nodes.append((n, "\(directory)/\(name)"))
        }
        var denied = false
        for (_, p) in nodes.sorted(by: { $0.0 < $1.0 }) {
            let f = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if f < 0 { if errno == EACCES { denied = true }; continue }
            defer { Glibc.close(f) }
            if name(of: f) == deviceName { return p }
        }
        if denied {
            throw HardwareError(.permissionDenied, device: "\(directory)/event* named \(deviceName)", operation: "find the input device",
                                reason: "some devices could not be opened: " + LinuxError.reason(errno: EACCES, kind: .input), errno: EACCES)
        }
        return nil
    }

    static func name(of fd: Int32) -> String? {
        var buf = [UInt8](repeating: 0, count: 256)
        let r = buf.withUnsafeMutableBytes { deskpet_ioctl_ptr(fd, EvdevDecoder.EVIOCGNAME($0.count), $0.baseAddress) }
        guard r >= 0 else { return nil }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The mapped keys that are down now (EVIOCGKEY), nil if the kernel does not say.
    private func currentKeys() -> Set<UInt16>? {
        var bits = [UInt8](repeating: 0, count: 96)   // KEY_MAX 0x2ff: 768 bits
        let r = bits.withUnsafeMutableBytes { deskpet_ioctl_ptr(fd, EvdevDecoder.EVIOCGKEY($0.count), $0.baseAddress) }
        guard r >= 0 else { return nil }
        return Set(decoder.keys.keys.filter { Int($0) / 8 < bits.count && bits[Int($0) / 8] & (1 << ($0 % 8)) != 0 })
    }

    public func readEdges() throws(HardwareError) -> [InputEdge] {
        guard fd >= 0 else { return [] }
        var records: [InputEventRecord] = []
        var buf = [UInt8](repeating: 0, count: EvdevDecoder.recordSize * 64)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                if errno == ENODEV { close() }   // unplugged: stop polling a dead descriptor
                throw LinuxError.make(path, "read input events", errno: errno, kind: .input)
            }
            if n == 0 { break }
            records += EvdevDecoder.records(buf.prefix(n))
            if n < buf.count { break }
        }
        guard !records.isEmpty else { return [] }
        let (edges, resync) = decoder.edges(records)
        let clocks = EventTime.now()
        var out = edges.map { InputEdge($0.button, pressed: $0.pressed, ns: EventTime.monotonic(eventNs: $0.ns, realNowNs: clocks.realNs, monoNowNs: clocks.monoNs)) }
        for e in edges { if e.pressed { down.insert(e.code) } else { down.remove(e.code) } }
        if resync, let now = currentKeys() {
            // Edges lost in the overflow: report the changes now, stamped now.
            for code in now.symmetricDifference(down).sorted() {
                if let b = decoder.keys[code] { out.append(InputEdge(b, pressed: now.contains(code), ns: clocks.monoNs)) }
            }
            down = now
        }
        return out
    }
}

/// EVIOCGRAB = _IOW('E', 0x90, int).
let EVIOCGRAB_VALUE = EvdevDecoder.ioctlNumber(read: false, write: true, type: 0x45, nr: 0x90, size: MemoryLayout<Int32>.size)
