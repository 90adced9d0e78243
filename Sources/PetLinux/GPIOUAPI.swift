// GPIOUAPI.swift — the kernel's GPIO character device, uAPI v2 (linux/gpio.h, Linux 5.10 and later),
// encoded and decoded byte by byte. DeskPet talks to /dev/gpiochipN directly instead of through
// libgpiod: Debian 12 ships libgpiod 1.6 (the v1 C API) and Debian 13 / Raspberry Pi OS Trixie
// libgpiod 2.2 (an incompatible v2 C API), while the kernel's uAPI is the same on both, on every
// architecture (fixed-width fields, 64-bit values 8-byte aligned, host byte order). One backend for
// Debian 12 and 13, amd64 and arm64 (docs/architecture.md, "GPIO: the kernel's uAPI v2").
//
// The layout below is checked twice: `_Static_assert`s in Sources/CLinux/shim.h stop the build if
// the system's linux/gpio.h disagrees, and PetLinuxTests compares every offset with the header's
// structures as Swift imports them.

#if canImport(Glibc)
import Glibc
#endif

/// Sizes, offsets, flags and ids of the GPIO uAPI v2.
public enum GPIOUAPI {
    /// `sizeof` of each structure.
    public enum Size {
        public static let chipInfo = 68           // struct gpiochip_info
        public static let lineAttribute = 16      // struct gpio_v2_line_attribute
        public static let configAttribute = 24    // struct gpio_v2_line_config_attribute
        public static let lineConfig = 272        // struct gpio_v2_line_config
        public static let lineRequest = 592       // struct gpio_v2_line_request
        public static let lineValues = 16         // struct gpio_v2_line_values
        public static let lineInfo = 256          // struct gpio_v2_line_info
        public static let lineEvent = 48          // struct gpio_v2_line_event
    }

    /// Field offsets used here.
    public enum Offset {
        // struct gpio_v2_line_request
        public static let requestOffsets = 0      // __u32 offsets[64]
        public static let requestConsumer = 256   // char consumer[32]
        public static let requestConfig = 288     // struct gpio_v2_line_config
        public static let requestNumLines = 560
        public static let requestEventBufferSize = 564
        public static let requestFD = 588
        // struct gpio_v2_line_config (from its start)
        public static let configFlags = 0
        public static let configNumAttrs = 8
        public static let configAttrs = 32
        // struct gpio_v2_line_config_attribute (from its start): attr.id, attr.{flags,values,debounce_period_us}, mask
        public static let attrID = 0
        public static let attrValue = 8
        public static let attrMask = 16
        // struct gpio_v2_line_values
        public static let valuesBits = 0
        public static let valuesMask = 8
        // struct gpiochip_info
        public static let chipName = 0
        public static let chipLabel = 32
        public static let chipLines = 64
        // struct gpio_v2_line_info
        public static let infoName = 0
        public static let infoConsumer = 32
        public static let infoOffset = 64
        public static let infoNumAttrs = 68
        public static let infoFlags = 72
        public static let infoAttrs = 80
        // struct gpio_v2_line_event
        public static let eventTimestamp = 0
        public static let eventID = 8
        public static let eventOffset = 12
        public static let eventSeqno = 16
        public static let eventLineSeqno = 20
    }

    /// GPIO_V2_LINES_MAX: lines in one request.
    public static let linesMax = 64
    /// GPIO_V2_LINE_NUM_ATTRS_MAX.
    public static let attributesMax = 10
    /// GPIO_MAX_NAME_SIZE: names, labels and consumers, NUL included.
    public static let nameSize = 32

    /// enum gpio_v2_line_attr_id.
    public enum AttributeID: UInt32, Sendable {
        case flags = 1
        case outputValues = 2
        case debounce = 3
    }

    /// enum gpio_v2_line_event_id.
    public enum EventID: UInt32, Sendable {
        case risingEdge = 1
        case fallingEdge = 2
    }
}

/// enum gpio_v2_line_flag.
public struct GPIOLineFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let used = GPIOLineFlags(rawValue: 1 << 0)
    public static let activeLow = GPIOLineFlags(rawValue: 1 << 1)
    public static let input = GPIOLineFlags(rawValue: 1 << 2)
    public static let output = GPIOLineFlags(rawValue: 1 << 3)
    public static let edgeRising = GPIOLineFlags(rawValue: 1 << 4)
    public static let edgeFalling = GPIOLineFlags(rawValue: 1 << 5)
    public static let openDrain = GPIOLineFlags(rawValue: 1 << 6)
    public static let openSource = GPIOLineFlags(rawValue: 1 << 7)
    public static let biasPullUp = GPIOLineFlags(rawValue: 1 << 8)
    public static let biasPullDown = GPIOLineFlags(rawValue: 1 << 9)
    public static let biasDisabled = GPIOLineFlags(rawValue: 1 << 10)
    public static let eventClockRealtime = GPIOLineFlags(rawValue: 1 << 11)
    public static let eventClockHTE = GPIOLineFlags(rawValue: 1 << 12)
}

/// Host-order loads and stores in a byte buffer (the uAPI's structures are in the host's order).
enum UAPIBytes {
    static func put<T: FixedWidthInteger>(_ v: T, _ bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: v) { raw in for i in 0..<raw.count { bytes[offset + i] = raw[i] } }
    }
    static func get<T: FixedWidthInteger>(_ type: T.Type, _ bytes: some RandomAccessCollection<UInt8>, at offset: Int) -> T {
        var v: T = 0
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        withUnsafeMutableBytes(of: &v) { raw in
            var i = start
            for k in 0..<raw.count { raw[k] = bytes[i]; i = bytes.index(after: i) }
        }
        return v
    }
    /// A NUL-terminated char[size] field as a string (invalid UTF-8 repaired).
    static func string(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int, size: Int) -> String {
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        let field = bytes[start..<bytes.index(start, offsetBy: size)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// What to ask the kernel for one set of lines on one chip (`struct gpio_v2_line_request`).
public struct GPIOLineRequest: Sendable, Equatable {
    /// The lines' offsets on the chip (1 to 64, no repeats).
    public var offsets: [UInt32]
    /// Shown by gpioinfo as the lines' user; cut to 31 bytes.
    public var consumer: String
    /// Direction, edges, bias, active-low: the same for every line of the request.
    public var flags: GPIOLineFlags
    /// Outputs: the initial (logical) values, bit i for `offsets[i]`; nil for inputs.
    public var outputValues: UInt64?
    /// Edge detection: the kernel's debounce period in microseconds (0: none).
    public var debounceUs: UInt32
    /// Events the kernel keeps per request before dropping (0: its default, 16 per line).
    public var eventBufferSize: UInt32

    public init(offsets: [UInt32], consumer: String, flags: GPIOLineFlags, outputValues: UInt64? = nil,
                debounceUs: UInt32 = 0, eventBufferSize: UInt32 = 0) {
        self.offsets = offsets; self.consumer = consumer; self.flags = flags
        self.outputValues = outputValues; self.debounceUs = debounceUs; self.eventBufferSize = eventBufferSize
    }

    /// Bits 0..<n set: every line of the request.
    public var allLines: UInt64 { offsets.count >= 64 ? .max : (1 << UInt64(offsets.count)) - 1 }

    /// The same request without the debounce attribute (the software fallback).
    public var withoutDebounce: GPIOLineRequest { var r = self; r.debounceUs = 0; return r }

    /// What is wrong with the request, or nil (the kernel would answer EINVAL).
    public var problem: String? {
        if offsets.isEmpty { return "no lines" }
        if offsets.count > GPIOUAPI.linesMax { return "\(offsets.count) lines; one request holds at most \(GPIOUAPI.linesMax)" }
        if Set(offsets).count != offsets.count { return "a line is named twice" }
        if flags.contains(.input) && flags.contains(.output) { return "a line cannot be input and output" }
        if outputValues != nil && !flags.contains(.output) { return "output values on lines that are not outputs" }
        if debounceUs > 0 && !flags.contains(.input) { return "debounce on lines that are not inputs" }
        return nil
    }

    /// The 592 bytes of `struct gpio_v2_line_request` (fd 0, filled in by the kernel).
    public func encoded() -> [UInt8] {
        typealias O = GPIOUAPI.Offset
        var b = [UInt8](repeating: 0, count: GPIOUAPI.Size.lineRequest)
        for (i, o) in offsets.prefix(GPIOUAPI.linesMax).enumerated() { UAPIBytes.put(o, &b, at: O.requestOffsets + 4 * i) }
        for (i, c) in consumer.utf8.prefix(GPIOUAPI.nameSize - 1).enumerated() { b[O.requestConsumer + i] = c }
        let config = O.requestConfig
        UAPIBytes.put(flags.rawValue, &b, at: config + O.configFlags)
        var attrs: [(GPIOUAPI.AttributeID, UInt64)] = []
        if let outputValues { attrs.append((.outputValues, outputValues & allLines)) }
        if debounceUs > 0 { attrs.append((.debounce, UInt64(debounceUs))) }
        UAPIBytes.put(UInt32(attrs.count), &b, at: config + O.configNumAttrs)
        for (i, (id, value)) in attrs.enumerated() {
            let at = config + O.configAttrs + i * GPIOUAPI.Size.configAttribute
            UAPIBytes.put(id.rawValue, &b, at: at + O.attrID)
            if id == .debounce {
                UAPIBytes.put(UInt32(truncatingIfNeeded: value), &b, at: at + O.attrValue)   // __u32 debounce_period_us
            } else {
                UAPIBytes.put(value, &b, at: at + O.attrValue)                              // __aligned_u64 values
            }
            UAPIBytes.put(allLines, &b, at: at + O.attrMask)
        }
        UAPIBytes.put(UInt32(min(offsets.count, GPIOUAPI.linesMax)), &b, at: O.requestNumLines)
        UAPIBytes.put(eventBufferSize, &b, at: O.requestEventBufferSize)
        return b
    }

    /// The descriptor the kernel wrote into an encoded request.
    public static func fd(in encoded: [UInt8]) -> Int32 {
        UAPIBytes.get(Int32.self, encoded, at: GPIOUAPI.Offset.requestFD)
    }

    /// Asks with the kernel's debounce first; if the kernel refuses the request for another reason
    /// than the line (busy, missing, not permitted), asks again without debounce and reports that the
    /// software debounce (the gesture recognizer's) has to do. `ask` returns the descriptor or errno.
    public static func request(_ r: GPIOLineRequest, ask: (GPIOLineRequest) -> Result<Int32, GPIOErrno>)
        -> (result: Result<Int32, GPIOErrno>, kernelDebounce: Bool) {
        let first = ask(r)
        guard r.debounceUs > 0, case .failure(let e) = first,
              ![EBUSY, ENOENT, ENODEV, EACCES, EPERM, EFAULT].contains(e.code) else {
            return (first, r.debounceUs > 0)
        }
        let second = ask(r.withoutDebounce)
        if case .failure = second { return (first, true) }
        return (second, false)
    }
}

/// An errno as an `Error` (for `Result`).
public struct GPIOErrno: Error, Equatable, Sendable {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }
}

/// `struct gpio_v2_line_values`: bits (logical values) and the mask of lines they apply to, bit i
/// being the request's i-th line.
public struct GPIOLineValues: Sendable, Equatable {
    public var bits: UInt64
    public var mask: UInt64
    public init(bits: UInt64, mask: UInt64) { self.bits = bits; self.mask = mask }

    public func encoded() -> [UInt8] {
        var b = [UInt8](repeating: 0, count: GPIOUAPI.Size.lineValues)
        UAPIBytes.put(bits, &b, at: GPIOUAPI.Offset.valuesBits)
        UAPIBytes.put(mask, &b, at: GPIOUAPI.Offset.valuesMask)
        return b
    }

    public init(_ bytes: [UInt8]) {
        bits = UAPIBytes.get(UInt64.self, bytes, at: GPIOUAPI.Offset.valuesBits)
        mask = UAPIBytes.get(UInt64.self, bytes, at: GPIOUAPI.Offset.valuesMask)
    }
}

/// `struct gpiochip_info`.
public struct GPIOChipInfo: Sendable, Equatable {
    /// The kernel's name, "gpiochip0".
    public var name: String
    /// What board files name: "pinctrl-bcm2711", "pet-buttons".
    public var label: String
    public var lines: UInt32

    public init(name: String, label: String, lines: UInt32) { self.name = name; self.label = label; self.lines = lines }

    public init(_ bytes: [UInt8]) {
        typealias O = GPIOUAPI.Offset
        name = UAPIBytes.string(bytes, at: O.chipName, size: GPIOUAPI.nameSize)
        label = UAPIBytes.string(bytes, at: O.chipLabel, size: GPIOUAPI.nameSize)
        lines = UAPIBytes.get(UInt32.self, bytes, at: O.chipLines)
    }
}

/// `struct gpio_v2_line_info`: a line's name, user and configuration.
public struct GPIOLineInfo: Sendable, Equatable {
    public var name: String
    /// Who holds the line ("deskpet", "gpio-keys", "spi0 CS0"), empty when free or unnamed.
    public var consumer: String
    public var offset: UInt32
    public var flags: GPIOLineFlags
    /// The debounce period the line has now (µs), 0 if none.
    public var debounceUs: UInt32

    /// For the request (offset written into `bytes`).
    public static func query(offset: UInt32) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: GPIOUAPI.Size.lineInfo)
        UAPIBytes.put(offset, &b, at: GPIOUAPI.Offset.infoOffset)
        return b
    }

    public init(_ bytes: [UInt8]) {
        typealias O = GPIOUAPI.Offset
        name = UAPIBytes.string(bytes, at: O.infoName, size: GPIOUAPI.nameSize)
        consumer = UAPIBytes.string(bytes, at: O.infoConsumer, size: GPIOUAPI.nameSize)
        offset = UAPIBytes.get(UInt32.self, bytes, at: O.infoOffset)
        flags = GPIOLineFlags(rawValue: UAPIBytes.get(UInt64.self, bytes, at: O.infoFlags))
        let n = min(Int(UAPIBytes.get(UInt32.self, bytes, at: O.infoNumAttrs)), GPIOUAPI.attributesMax)
        var debounce: UInt32 = 0
        for i in 0..<n {
            let at = O.infoAttrs + i * GPIOUAPI.Size.lineAttribute
            if UAPIBytes.get(UInt32.self, bytes, at: at) == GPIOUAPI.AttributeID.debounce.rawValue {
                debounce = UAPIBytes.get(UInt32.self, bytes, at: at + 8)
            }
        }
        debounceUs = debounce
    }
}

/// One `struct gpio_v2_line_event`: a logical edge (active-low already applied by the kernel) on
/// the line at `offset`, stamped by the kernel (CLOCK_MONOTONIC unless the request asked for another
/// clock).
public struct GPIOLineEvent: Sendable, Equatable {
    public var timestampNs: UInt64
    /// True for a rising edge of the logical value, false for a falling one.
    public var rising: Bool
    public var offset: UInt32
    /// The event's number within the request (from 1).
    public var seqno: UInt32
    /// The event's number on its line (from 1): a gap means the kernel dropped events.
    public var lineSeqno: UInt32

    public init(timestampNs: UInt64, rising: Bool, offset: UInt32, seqno: UInt32, lineSeqno: UInt32) {
        self.timestampNs = timestampNs; self.rising = rising; self.offset = offset; self.seqno = seqno; self.lineSeqno = lineSeqno
    }

    /// The 48 bytes the kernel writes (for simulated lines and tests).
    public func encoded() -> [UInt8] {
        typealias O = GPIOUAPI.Offset
        var b = [UInt8](repeating: 0, count: GPIOUAPI.Size.lineEvent)
        UAPIBytes.put(timestampNs, &b, at: O.eventTimestamp)
        UAPIBytes.put((rising ? GPIOUAPI.EventID.risingEdge : .fallingEdge).rawValue, &b, at: O.eventID)
        UAPIBytes.put(offset, &b, at: O.eventOffset)
        UAPIBytes.put(seqno, &b, at: O.eventSeqno)
        UAPIBytes.put(lineSeqno, &b, at: O.eventLineSeqno)
        return b
    }
}

/// Decodes what a read of a line request's descriptor returned: whole 48-byte events. The kernel
/// only ever returns whole events; bytes past the last whole one (a torn read) are counted and
/// dropped, never carried into the next read. Events with an unknown id are skipped and counted.
/// `lineSeqno` gaps say how many events the kernel dropped on a line (its buffer was full).
public struct GPIOEventDecoder: Sendable {
    public struct Decoded: Sendable, Equatable {
        public var event: GPIOLineEvent
        /// Events of this line the kernel dropped just before this one.
        public var missedBefore: UInt32
    }
    public struct Batch: Sendable, Equatable {
        public var events: [Decoded] = []
        /// Bytes after the last whole event (0 from a kernel descriptor).
        public var tornBytes = 0
        /// Records whose id was neither rising nor falling.
        public var unknown = 0
        /// Events the kernel dropped, over all lines.
        public var missed: Int { events.reduce(0) { $0 + Int($1.missedBefore) } }
    }

    /// The last line sequence number seen per offset.
    private var lastLineSeqno: [UInt32: UInt32] = [:]

    public init() {}

    public mutating func decode(_ bytes: some RandomAccessCollection<UInt8>) -> Batch {
        typealias O = GPIOUAPI.Offset
        let size = GPIOUAPI.Size.lineEvent
        var batch = Batch()
        let whole = bytes.count / size
        batch.tornBytes = bytes.count - whole * size
        for k in 0..<whole {
            let rec = bytes[bytes.index(bytes.startIndex, offsetBy: k * size)..<bytes.index(bytes.startIndex, offsetBy: (k + 1) * size)]
            let id = UAPIBytes.get(UInt32.self, rec, at: O.eventID)
            let offset = UAPIBytes.get(UInt32.self, rec, at: O.eventOffset)
            let lineSeqno = UAPIBytes.get(UInt32.self, rec, at: O.eventLineSeqno)
            // The sequence counts every event of the line, whatever its id.
            let last = lastLineSeqno[offset] ?? 0
            let missed = lineSeqno > last &+ 1 ? lineSeqno &- last &- 1 : 0
            lastLineSeqno[offset] = lineSeqno
            guard let kind = GPIOUAPI.EventID(rawValue: id) else { batch.unknown += 1; continue }
            let event = GPIOLineEvent(timestampNs: UAPIBytes.get(UInt64.self, rec, at: O.eventTimestamp), rising: kind == .risingEdge,
                                      offset: offset, seqno: UAPIBytes.get(UInt32.self, rec, at: O.eventSeqno), lineSeqno: lineSeqno)
            batch.events.append(Decoded(event: event, missedBefore: missed))
        }
        return batch
    }
}
