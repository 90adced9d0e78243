#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetDevice

// GPIO lines through the kernel's character device, uAPI v2 (GPIOUAPI.swift): chips found by
// label, lines by name or offset, requested as outputs (buzzer, LED, a panel's DC/RST/BL), inputs
// (an e-paper BUSY) or edge-detecting inputs (buttons, GPIOButtons.swift). No libgpiod.

/// Which GPIO line: by its name (`gpioinfo` shows them; Raspberry Pi boards name lines "GPIO17",
/// gpio-sim banks get names from configfs) or by its offset on a chip found by label. Never by
/// chip number: those change between boards and boots.
public enum GPIOLineID: Sendable, Equatable, Hashable, CustomStringConvertible {
    case name(String)
    case offset(UInt32)

    public var description: String {
        switch self {
        case .name(let n): "line \(n)"
        case .offset(let o): "line \(o)"
        }
    }

    var short: String {
        switch self {
        case .name(let n): n
        case .offset(let o): "\(o)"
        }
    }
}

/// A bias (pull resistor) for input lines (the kernel's bias flags, Linux 5.5 and later).
public enum GPIOBias: String, Sendable, CaseIterable {
    /// Leave the line's bias as the board configured it.
    case asIs = "as-is"
    case disabled
    case pullUp = "pull-up"
    case pullDown = "pull-down"

    var flags: GPIOLineFlags {
        switch self {
        case .asIs: []
        case .disabled: .biasDisabled
        case .pullUp: .biasPullUp
        case .pullDown: .biasPullDown
        }
    }
}

/// One open /dev/gpiochipN with its `gpiochip_info`. Closed when released; requested lines keep
/// their own descriptors and outlive it.
final class GPIOChip {
    let fd: Int32
    let path: String
    let info: GPIOChipInfo

    /// The chip devices, in number order (/dev/gpiochip0, /dev/gpiochip1, ...).
    static func paths(in dir: String = "/dev") -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var numbers: [Int] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("gpiochip"), let n = Int(name.dropFirst(8)), n >= 0 else { continue }
            numbers.append(n)
        }
        return numbers.sorted().map { "\(dir)/gpiochip\($0)" }
    }

    init(path: String) throws(HardwareError) {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw LinuxError.make(path, "open the GPIO chip", errno: errno, kind: .gpio) }
        var buf = [UInt8](repeating: 0, count: GPIOUAPI.Size.chipInfo)
        guard buf.withUnsafeMutableBytes({ deskpet_ioctl_ptr(fd, IOCTL.gpioGetChipInfo, $0.baseAddress) }) == 0 else {
            let e = errno
            close(fd)
            throw HardwareError(HardwareError.Kind(errno: e), device: path, operation: "read the chip's information (GPIO_GET_CHIPINFO_IOCTL)",
                                reason: LinuxError.reason(errno: e, kind: .gpio), errno: e)
        }
        self.fd = fd; self.path = path; info = GPIOChipInfo(buf)
    }

    deinit { close(fd) }

    /// The chip labelled `label`. Errors: no chip has it (ENOENT, naming the labels there are), or
    /// a chip could not be opened to read its label (EACCES: the gpio group).
    static func open(label: String) throws(HardwareError) -> GPIOChip {
        var labels: [String] = []
        var refused: HardwareError?
        for p in paths() {
            do throws(HardwareError) {
                let c = try GPIOChip(path: p)
                if c.info.label == label { return c }
                labels.append(c.info.label)
            } catch {
                if refused == nil { refused = error }
            }
        }
        let what = "gpiochip \(label)"
        if let refused, refused.errno == EACCES || refused.errno == EPERM {
            throw HardwareError(.permissionDenied, device: what, operation: "open the chip by label",
                                reason: "\(refused.device) could not be opened to read its label: " + refused.reason, errno: refused.errno)
        }
        let found = labels.isEmpty ? "this machine has no GPIO chips" : "the chips here are labelled " + labels.map { "'\($0)'" }.joined(separator: ", ")
        throw HardwareError(.notFound, device: what, operation: "open the chip by label",
                            reason: "no chip has that label (\(found)); " + LinuxError.reason(errno: ENOENT, kind: .gpio), errno: ENOENT)
    }

    /// Whether a chip labelled `label` is here; a chip this user may not open counts (opening it then
    /// reports the permission problem).
    static func present(label: String) -> Bool {
        do throws(HardwareError) { _ = try open(label: label); return true } catch { return error.kind == .permissionDenied }
    }

    func lineInfo(_ offset: UInt32) throws(HardwareError) -> GPIOLineInfo {
        var buf = GPIOLineInfo.query(offset: offset)
        guard buf.withUnsafeMutableBytes({ deskpet_ioctl_ptr(fd, IOCTL.gpioV2GetLineInfo, $0.baseAddress) }) == 0 else {
            let e = errno
            throw HardwareError(HardwareError.Kind(errno: e), device: "gpiochip \(info.label) line \(offset)",
                                operation: "read the line's information (GPIO_V2_GET_LINEINFO_IOCTL)",
                                reason: LinuxError.reason(errno: e, kind: .gpio) + (e == ENOTTY ? "; the kernel is older than 5.10 (no GPIO uAPI v2)" : ""), errno: e)
        }
        return GPIOLineInfo(buf)
    }

    /// The offset of the line named `name`, or nil.
    func offset(named name: String) throws(HardwareError) -> UInt32? {
        for o in 0..<info.lines where try lineInfo(o).name == name { return o }
        return nil
    }

    /// The offset of `id` on this chip; errors name the chip and the line.
    func offset(_ id: GPIOLineID) throws(HardwareError) -> UInt32 {
        let what = GPIOLines.describe(chip: info.label, id)
        switch id {
        case .name(let n):
            guard let o = try offset(named: n) else {
                throw HardwareError(.notFound, device: what, operation: "find the line by name",
                                    reason: "the chip's \(info.lines) lines have no line named '\(n)' (gpioinfo \(info.label) lists them); "
                                        + LinuxError.reason(errno: ENOENT, kind: .gpio), errno: ENOENT)
            }
            return o
        case .offset(let o):
            guard o < info.lines else {
                throw HardwareError(.invalidArgument, device: what, operation: "get the line",
                                    reason: "the chip has \(info.lines) lines (offsets 0 to \(Int(info.lines) - 1)); check the board file")
            }
            return o
        }
    }

    /// Requests lines (GPIO_V2_GET_LINE_IOCTL): the request's descriptor, and whether the kernel
    /// debounces (false when it refused the debounce attribute and the request was made without it).
    func request(_ r: GPIOLineRequest, what: String, operation: String) throws(HardwareError) -> (fd: Int32, kernelDebounce: Bool) {
        if let problem = r.problem { throw HardwareError(.invalidArgument, device: what, operation: operation, reason: problem) }
        let fd = self.fd
        let (result, debounced) = GPIOLineRequest.request(r) { req in
            var bytes = req.encoded()
            guard bytes.withUnsafeMutableBytes({ deskpet_ioctl_ptr(fd, IOCTL.gpioV2GetLine, $0.baseAddress) }) == 0 else { return .failure(GPIOErrno(errno)) }
            return .success(GPIOLineRequest.fd(in: bytes))
        }
        switch result {
        case .success(let lineFD): return (lineFD, debounced)
        case .failure(let e): throw requestError(r, what: what, operation: operation, errno: e.code)
        }
    }

    /// A refused request, saying who holds a busy line and what an old kernel lacks.
    func requestError(_ r: GPIOLineRequest, what: String, operation: String, errno e: Int32) -> HardwareError {
        var reason = LinuxError.reason(errno: e, kind: .gpio)
        switch e {
        case EBUSY:
            let holders = r.offsets.compactMap { o -> String? in
                guard let info = try? lineInfo(o), info.flags.contains(.used) else { return nil }
                return "line \(info.name.isEmpty ? "\(o)" : info.name) is held by \(info.consumer.isEmpty ? "a kernel driver" : "'\(info.consumer)'")"
            }
            if !holders.isEmpty { reason = holders.joined(separator: ", ") + "; " + reason }
        case ENOTTY:
            reason += "; the kernel is older than 5.10 (no GPIO uAPI v2): DeskPet needs 5.10 or later"
        case EINVAL where !r.flags.isDisjoint(with: [.biasPullUp, .biasPullDown, .biasDisabled]):
            reason += "; if the kernel cannot set the bias, set the pull in config.txt (gpio=N=ip,pu) and use bias as-is"
        default: break
        }
        return HardwareError(HardwareError.Kind(errno: e), device: what, operation: operation, reason: reason, errno: e)
    }
}

/// Lines found on their chips. A line is looked up on the chip with its label, or without a label
/// by name on every chip (the first chip that has it, in number order).
enum GPIOLines {
    /// "gpiochip pet-buttons line BTN_A": how errors name a line.
    static func describe(chip: String?, _ id: GPIOLineID) -> String {
        "gpiochip \(chip ?? "(any)") \(id)"
    }

    /// "gpiochip pet-buttons lines BTN_A, BTN_B": how errors name a request.
    static func describe(chip: String?, _ ids: [GPIOLineID]) -> String {
        ids.count == 1 ? describe(chip: chip, ids[0]) : "gpiochip \(chip ?? "(any)") lines " + ids.map(\.short).joined(separator: ", ")
    }

    /// Each chip with the lines of `ids` on it: their index in `ids` and their offset, in `ids`' order.
    static func resolve(chip label: String?, _ ids: [GPIOLineID]) throws(HardwareError) -> [(chip: GPIOChip, lines: [(index: Int, offset: UInt32)])] {
        if let label {
            let chip = try GPIOChip.open(label: label)
            var lines: [(index: Int, offset: UInt32)] = []
            for (i, id) in ids.enumerated() { lines.append((i, try chip.offset(id))) }
            return [(chip, lines)]
        }
        var names: [String: Int] = [:]
        for (i, id) in ids.enumerated() {
            guard case .name(let n) = id else {
                throw HardwareError(.invalidArgument, device: describe(chip: nil, id), operation: "find the line",
                                    reason: "a line given by offset needs the chip's label")
            }
            names[n] = i
        }
        var out: [(chip: GPIOChip, lines: [(index: Int, offset: UInt32)])] = []
        var refused: HardwareError?
        for p in GPIOChip.paths() where !names.isEmpty {
            let chip: GPIOChip
            do throws(HardwareError) { chip = try GPIOChip(path: p) } catch { refused = refused ?? error; continue }
            var lines: [(index: Int, offset: UInt32)] = []
            for o in 0..<chip.info.lines where !names.isEmpty {
                let info = try chip.lineInfo(o)
                if let i = names.removeValue(forKey: info.name) { lines.append((i, o)) }
            }
            if !lines.isEmpty { out.append((chip, lines.sorted { $0.index < $1.index })) }
        }
        if let missing = names.sorted(by: { $0.value < $1.value }).first {
            let what = describe(chip: nil, ids[missing.value])
            if let refused, refused.errno == EACCES || refused.errno == EPERM {
                throw HardwareError(.permissionDenied, device: what, operation: "find the line by name on every chip",
                                    reason: "\(refused.device) could not be opened: " + refused.reason, errno: refused.errno)
            }
            throw HardwareError(.notFound, device: what, operation: "find the line by name on every chip",
                                reason: "no chip has a line named '\(missing.key)'; " + LinuxError.reason(errno: ENOENT, kind: .gpio), errno: ENOENT)
        }
        return out
    }

    /// One line on its chip.
    static func resolve(chip label: String?, _ id: GPIOLineID) throws(HardwareError) -> (chip: GPIOChip, offset: UInt32) {
        guard let first = try resolve(chip: label, [id]).first, let line = first.lines.first else {
            throw HardwareError(.notFound, device: describe(chip: label, id), operation: "find the line", reason: "not found", errno: ENOENT)
        }
        return (first.chip, line.offset)
    }
}

/// What the kernel says about this machine's GPIO chips and lines (gpiodetect and gpioinfo's view).
public enum GPIOChips {
    /// The labels of the chips, in chip number order (chips this user may not open are left out).
    public static func labels() -> [String] {
        GPIOChip.paths().compactMap { p in try? GPIOChip(path: p).info.label }
    }

    /// Every line of the chip labelled `label`: names, users, flags and debounce as the kernel has them.
    public static func lines(label: String) throws(HardwareError) -> [GPIOLineInfo] {
        let chip = try GPIOChip.open(label: label)
        var out: [GPIOLineInfo] = []
        for o in 0..<chip.info.lines { out.append(try chip.lineInfo(o)) }
        return out
    }
}

/// A line request's descriptor (`struct gpio_v2_line_request`'s fd): read and set its lines'
/// logical values; closing it releases the lines.
final class GPIOLineHandle {
    private(set) var fd: Int32
    let name: String
    let count: Int

    init(fd: Int32, name: String, count: Int) { self.fd = fd; self.name = name; self.count = count }
    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    /// The logical values of the lines in `mask` (bit i: the request's i-th line).
    func values(mask: UInt64) throws(HardwareError) -> UInt64 {
        guard fd >= 0 else { throw HardwareError(.closed, device: name, operation: "read", reason: "the line was closed") }
        var bytes = GPIOLineValues(bits: 0, mask: mask).encoded()
        guard bytes.withUnsafeMutableBytes({ deskpet_ioctl_ptr(fd, IOCTL.gpioV2GetValues, $0.baseAddress) }) == 0 else {
            throw LinuxError.make(name, "read (GPIO_V2_LINE_GET_VALUES_IOCTL)", errno: errno, kind: .gpio)
        }
        return GPIOLineValues(bytes).bits & mask
    }

    /// Sets the logical values of the lines in `mask`.
    func set(_ bits: UInt64, mask: UInt64) throws(HardwareError) {
        guard fd >= 0 else { throw HardwareError(.closed, device: name, operation: "set", reason: "the line was closed") }
        // struct gpio_v2_line_values { bits; mask; } as a tuple on the stack: a passive buzzer sets its
        // line thousands of times a second, with no allocation per call.
        var v: (bits: UInt64, mask: UInt64) = (bits, mask)
        guard withUnsafeMutableBytes(of: &v, { deskpet_ioctl_ptr(fd, IOCTL.gpioV2SetValues, $0.baseAddress) }) == 0 else {
            throw LinuxError.make(name, "set \(bits & mask) (GPIO_V2_LINE_SET_VALUES_IOCTL)", errno: errno, kind: .gpio)
        }
    }
}

/// One GPIO output line (a buzzer, an LED), requested from the kernel until closed. Used by one
/// thread at a time (the pattern player's, once playing).
public final class GPIOOutputLine: @unchecked Sendable {
    public let name: String
    private let handle: GPIOLineHandle
    public let activeLow: Bool

    /// Requests the line as an output, initially inactive (off). `activeLow`: the line is driven
    /// low for "on" (an LED wired to 3V3, a low-side transistor with inverted logic).
    public init(chip: String?, line id: GPIOLineID, activeLow: Bool = false, consumer: String = "deskpet") throws(HardwareError) {
        name = GPIOLines.describe(chip: chip, id)
        self.activeLow = activeLow
        let (c, offset) = try GPIOLines.resolve(chip: chip, id)
        let r = GPIOLineRequest(offsets: [offset], consumer: consumer, flags: activeLow ? [.output, .activeLow] : .output, outputValues: 0)
        handle = GPIOLineHandle(fd: try c.request(r, what: name, operation: "request as output").fd, name: name, count: 1)
    }

    deinit { close() }

    /// Sets the line: true = on (active).
    public func set(_ on: Bool) throws(HardwareError) {
        guard handle.fd >= 0 else { throw HardwareError(.closed, device: name, operation: "set \(on ? 1 : 0)", reason: "the line was closed") }
        try handle.set(on ? 1 : 0, mask: 1)
    }

    /// Releases the line (it returns to the board's default).
    public func close() { handle.close() }
}

/// One GPIO input read by level (an e-paper controller's BUSY), requested until closed.
public final class GPIOInputLine: InputLine, @unchecked Sendable {
    public let name: String
    private let handle: GPIOLineHandle

    public init(chip: String?, line id: GPIOLineID, consumer: String = "deskpet") throws(HardwareError) {
        name = GPIOLines.describe(chip: chip, id)
        let (c, offset) = try GPIOLines.resolve(chip: chip, id)
        let r = GPIOLineRequest(offsets: [offset], consumer: consumer, flags: .input)
        handle = GPIOLineHandle(fd: try c.request(r, what: name, operation: "request as input").fd, name: name, count: 1)
    }

    deinit { close() }

    public func read() throws(HardwareError) -> Bool {
        guard handle.fd >= 0 else { throw HardwareError(.closed, device: name, operation: "read", reason: "the line was closed") }
        return try handle.values(mask: 1) & 1 == 1
    }

    public func close() { handle.close() }
}
