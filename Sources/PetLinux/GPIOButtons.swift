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
public final class GPIOButtons: InputSource {
    struct Line {
        var button: Button
        var fd: Int32
        var name: String
    }
    private let chips = GPIOChipSet()
    private var lines: [Line] = []
    private var epollFD: Int32 = -1
    /// For errors: "gpiochip pet-buttons".
    public let name: String

    /// Requests `buttons`' lines. `chip`: the chip's label (nil: find each line by name on every
    /// chip). `activeLow`: pressed = line low (buttons to ground, the usual wiring with pull-ups).
    public init(chip: String?, buttons: [Button: GPIOLineID], bias: GPIOBias = .pullUp, activeLow: Bool = true,
                consumer: String = "deskpet") throws(HardwareError) {
        name = "gpiochip \(chip ?? "(any)")"
        guard !buttons.isEmpty else { throw HardwareError(.invalidArgument, device: name, operation: "request button lines", reason: "no buttons given") }
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw LinuxError.make(name, "create an epoll descriptor", errno: errno, kind: .other) }
        var flags = bias.flag
        if activeLow { flags |= Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        do throws(HardwareError) {
            // A stable order, so errors and fds do not depend on dictionary order.
            for (button, id) in buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
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
        chips.closeAll()
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
