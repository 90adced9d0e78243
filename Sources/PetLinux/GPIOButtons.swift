#if canImport(Glibc)
import Glibc
#endif
import CGPIOD
import CLinux
import PetDevice

/// Buttons on GPIO lines through libgpiod v1: each line is requested for both-edge events with a
/// bias (pull-up by default: buttons wired to ground) and active-low, so the kernel reports a press
/// as a rising edge of the line's logical value. libgpiod v1 gives one event descriptor per line;
/// they are gathered in one epoll descriptor, which is what the device loop polls.
///
/// Edges carry the kernel's timestamp, put on the CLOCK_MONOTONIC time line (`EventTime`), and are
/// returned oldest first across all lines. Bounces are the gesture recognizer's business (it ignores
/// edges within the board's debounce time); this source reports every edge the kernel saw.
///
/// The lines come from a `GPIOEdgeLines`: libgpiod on a device (`LibgpiodEdgeLines`), or
/// `SimulatedEdgeLines`, whose descriptors carry the same kernel records, so everything above the
/// line request (epoll, non-blocking reads, libgpiod's decoding, ordering, the clocks) runs in
/// `swift test` too.
public final class GPIOButtons: InputSource {
    struct Line {
        var button: Button
        var fd: Int32
        var name: String
    }
    private let source: GPIOEdgeLines
    private var lines: [Line] = []
    private var epollFD: Int32 = -1
    /// For errors: "gpiochip pet-buttons".
    public let name: String

    /// Requests `buttons`' lines. `chip`: the chip's label (nil: find each line by name on every
    /// chip). `activeLow`: pressed = line low (buttons to ground, the usual wiring with pull-ups).
    /// `lines`: where the line requests go (libgpiod unless a test simulates the lines).
    public init(chip: String?, buttons: [Button: GPIOLineID], bias: GPIOBias = .pullUp, activeLow: Bool = true,
                consumer: String = "deskpet", lines source: GPIOEdgeLines = LibgpiodEdgeLines()) throws(HardwareError) {
        self.source = source
        name = "gpiochip \(chip ?? "(any)")"
        guard !buttons.isEmpty else { throw HardwareError(.invalidArgument, device: name, operation: "request button lines", reason: "no buttons given") }
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw LinuxError.make(name, "create an epoll descriptor", errno: errno, kind: .other) }
        do throws(HardwareError) {
            // A stable order, so errors and fds do not depend on dictionary order.
            for (button, id) in buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let (fd, what) = try source.requestEdges(chip: chip, id, bias: bias, activeLow: activeLow, consumer: consumer)
                // Reads must never block the loop.
                let fl = fcntl(fd, F_GETFL)
                guard fl >= 0, fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 else { throw LinuxError.make(what, "make the event descriptor non-blocking", errno: errno, kind: .other) }
                var ev = epoll_event()
                ev.events = EPOLLIN.rawValue
                ev.data.u32 = UInt32(lines.count)
                guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev) == 0 else { throw LinuxError.make(what, "watch the event descriptor", errno: errno, kind: .other) }
                lines.append(Line(button: button, fd: fd, name: what))
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Releases the lines and closes the descriptors.
    public func close() {
        if epollFD >= 0 { Glibc.close(epollFD); epollFD = -1 }
        lines.removeAll()
        source.closeAll()
    }

    public var fileDescriptor: Int32? { epollFD >= 0 ? epollFD : nil }

    /// The descriptors of the lines (for callers that poll them directly).
    public var lineDescriptors: [Int32] { lines.map(\.fd) }

    public func readEdges() throws(HardwareError) -> [InputEdge] {
        guard epollFD >= 0 else { return [] }
        var ready = [epoll_event](repeating: epoll_event(), count: max(1, lines.count))
        let n = ready.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), 0) }
        if n < 0 {
            if errno == EINTR { return [] }
            throw LinuxError.make(name, "check the button lines", errno: errno, kind: .other)
        }
        var raw: [(edge: RawEdge, seq: Int)] = []
        for i in 0..<Int(n) {
            let index = Int(ready[i].data.u32)
            guard index < lines.count else { continue }
            for e in try readLine(lines[index]) { raw.append((e, raw.count)) }
        }
        guard !raw.isEmpty else { return [] }
        let clocks = EventTime.now()
        return raw.sorted { ($0.edge.ns, $0.seq) < ($1.edge.ns, $1.seq) }.map {
            InputEdge($0.edge.button, pressed: $0.edge.pressed,
                      ns: EventTime.monotonic(eventNs: $0.edge.ns, realNowNs: clocks.realNs, monoNowNs: clocks.monoNs))
        }
    }

    struct RawEdge { var button: Button; var pressed: Bool; var ns: UInt64 }

    /// Every event waiting on one line (until the descriptor would block).
    private func readLine(_ line: Line) throws(HardwareError) -> [RawEdge] {
        var out: [RawEdge] = []
        var buf = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
        while true {
            let got = buf.withUnsafeMutableBufferPointer { gpiod_line_event_read_fd_multiple(line.fd, $0.baseAddress, UInt32($0.count)) }
            if got < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                throw LinuxError.make(line.name, "read edge events", errno: errno, kind: .gpio)
            }
            for e in buf.prefix(Int(got)) {
                // Logical edges (active-low applied by the kernel): rising = pressed.
                guard let pressed = Self.pressed(eventType: e.event_type) else { continue }
                out.append(RawEdge(button: line.button, pressed: pressed, ns: EventTime.ns(sec: Int64(e.ts.tv_sec), nsec: Int64(e.ts.tv_nsec))))
            }
            if got < Int32(buf.count) { break }
        }
        return out
    }

    /// libgpiod's event type as a press (rising logical edge) or release; nil for anything else.
    static func pressed(eventType: Int32) -> Bool? {
        switch eventType {
        case Int32(GPIOD_LINE_EVENT_RISING_EDGE): true
        case Int32(GPIOD_LINE_EVENT_FALLING_EDGE): false
        default: nil
        }
    }
}

/// Where `GPIOButtons` requests its lines: each line asked for both-edge events gives a descriptor
/// that reads the kernel's line event records (`struct gpioevent_data`, as libgpiod v1 decodes
/// them) and a name for errors.
public protocol GPIOEdgeLines: AnyObject {
    /// Requests line `id` (on the chip labelled `chip`; nil: found by name on every chip) for
    /// both-edge events with `bias`, active-low when `activeLow` (pressed reads as a rising edge).
    func requestEdges(chip: String?, _ id: GPIOLineID, bias: GPIOBias, activeLow: Bool,
                      consumer: String) throws(HardwareError) -> (fd: Int32, name: String)
    /// Releases every line requested (their descriptors close).
    func closeAll()
}

/// The kernel's lines through libgpiod v1.
public final class LibgpiodEdgeLines: GPIOEdgeLines {
    private let chips = GPIOChipSet()
    public init() {}

    public func requestEdges(chip: String?, _ id: GPIOLineID, bias: GPIOBias, activeLow: Bool,
                             consumer: String) throws(HardwareError) -> (fd: Int32, name: String) {
        var flags = bias.flag
        if activeLow { flags |= Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        let what = GPIOChipSet.describe(chip: chip, id)
        let line = try chips.line(chip: chip, id)
        guard gpiod_line_request_both_edges_events_flags(line, consumer, flags) == 0 else {
            let e = errno
            if e == EINVAL && bias != .asIs {
                throw HardwareError(.unsupported, device: what, operation: "request both-edge events with \(bias.rawValue)",
                                    reason: LinuxError.reason(errno: e, kind: .gpio) + "; the kernel may be older than 5.5 (no bias flags): set the pull in config.txt (gpio=N=ip,pu) and use bias as-is", errno: e)
            }
            throw LinuxError.make(what, "request both-edge events", errno: e, kind: .gpio)
        }
        let fd = gpiod_line_event_get_fd(line)
        guard fd >= 0 else { throw LinuxError.make(what, "get the event descriptor", errno: errno, kind: .gpio) }
        return (fd, what)
    }

    public func closeAll() { chips.closeAll() }
}

/// Simulated GPIO lines at the kernel's seam: each requested line is a pipe whose read end is the
/// line's event descriptor, and `edge` writes the record the kernel would (a 64-bit timestamp and
/// the event id, rising or falling). What reads them — epoll, libgpiod's decoding, `GPIOButtons` —
/// is the code that runs on a device. Logical levels: `activeLow` is applied here, as the kernel
/// applies it to the line's physical level.
public final class SimulatedEdgeLines: GPIOEdgeLines {
    struct Requested { var read: Int32; var write: Int32; var activeLow: Bool; var bias: GPIOBias }
    private var requested: [GPIOLineID: Requested] = [:]
    /// Lines that refuse to be requested (a line held by another program), with errno.
    public var busy: [GPIOLineID: Int32] = [:]

    public init() {}
    deinit { closeAll() }

    /// The lines requested now, with the bias asked for.
    public var requestedLines: [GPIOLineID: GPIOBias] { requested.mapValues(\.bias) }

    public func requestEdges(chip: String?, _ id: GPIOLineID, bias: GPIOBias, activeLow: Bool,
                             consumer: String) throws(HardwareError) -> (fd: Int32, name: String) {
        let what = GPIOChipSet.describe(chip: chip, id)
        if let e = busy[id] { throw LinuxError.make(what, "request both-edge events", errno: e, kind: .gpio) }
        guard requested[id] == nil else { throw LinuxError.make(what, "request both-edge events", errno: EBUSY, kind: .gpio) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw LinuxError.make(what, "make a simulated line", errno: errno, kind: .other) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        requested[id] = Requested(read: fds[0], write: fds[1], activeLow: activeLow, bias: bias)
        return (fds[0], what)
    }

    /// The line's physical level changed at `ns` (the kernel's timestamp): the event the kernel
    /// reports for it (a rising edge of the logical value is a press on an active-low button
    /// pulled low). False when the line is not requested (nobody listens).
    @discardableResult
    public func edge(_ id: GPIOLineID, physicallyHigh high: Bool, ns: UInt64) -> Bool {
        guard let r = requested[id] else { return false }
        let logicalHigh = high != r.activeLow
        var record = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: ns.littleEndian) { for i in 0..<8 { record[i] = $0[i] } }
        // GPIOEVENT_EVENT_RISING_EDGE = 1, GPIOEVENT_EVENT_FALLING_EDGE = 2 (linux/gpio.h).
        withUnsafeBytes(of: UInt32(logicalHigh ? 1 : 2).littleEndian) { for i in 0..<4 { record[8 + i] = $0[i] } }
        return record.withUnsafeBytes { write(r.write, $0.baseAddress, 16) } == 16
    }

    /// Writes bytes that are not whole records to a line's descriptor (a torn read, for tests).
    public func garbage(_ id: GPIOLineID, _ bytes: [UInt8]) {
        guard let r = requested[id] else { return }
        _ = bytes.withUnsafeBytes { write(r.write, $0.baseAddress, $0.count) }
    }

    public func closeAll() {
        for r in requested.values { close(r.read); close(r.write) }
        requested.removeAll()
    }
}
