#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetDevice

/// Buttons on GPIO lines through the kernel's GPIO uAPI v2: the lines of one chip are requested
/// together (one descriptor) for both-edge events, with a bias (pull-up by default: buttons wired to
/// ground), active-low (the kernel reports a press as a rising edge of the line's logical value) and
/// the board's debounce period done by the kernel (GPIO_V2_LINE_ATTR_ID_DEBOUNCE). A kernel that
/// refuses the debounce attribute gets the request without it: the gesture recognizer's own
/// debounce (the board's `debounce-ms`, which it applies in any case) then does the work
/// (`kernelDebounce` says which). The request descriptors sit in one epoll descriptor, which is what
/// the device loop polls.
///
/// Edges carry the kernel's timestamp, put on the CLOCK_MONOTONIC time line (`EventTime`), and are
/// returned oldest first across all lines. An edge that repeats a button's last direction (an
/// opposite edge was lost, or a bounce faster than the interrupt) is dropped; when the kernel's
/// per-line sequence numbers show it dropped events (its buffer of 16 per line was full), the
/// lines' levels are read again and a corrective edge, stamped now, brings a button to its level.
///
/// The lines come from a `GPIOEdgeLines`: the kernel's (`KernelEdgeLines`), or `SimulatedEdgeLines`,
/// whose descriptors carry the same `gpio_v2_line_event` records, so everything above the line
/// request (epoll, non-blocking reads, decoding, sequence gaps, ordering, the clocks) runs in
/// `swift test` too.
public final class GPIOButtons: InputSource {
    final class Request {
        let fd: Int32
        let name: String
        let request: GPIOEdgeRequest
        var decoder = GPIOEventDecoder()
        var logic: GPIOButtonLogic
        init(_ r: GPIOEdgeRequest, buttons: [UInt32: Button]) {
            request = r; fd = r.fd; name = r.name; logic = GPIOButtonLogic(buttons: buttons)
        }
    }
    private let source: GPIOEdgeLines
    private var requests: [Request] = []
    private var epollFD: Int32 = -1
    /// An error found while reading edges that were returned: thrown by the next read.
    private var pending: HardwareError?
    /// For errors: "gpiochip pet-buttons".
    public let name: String
    /// True when the kernel debounces every line; false when it refused the debounce attribute (or
    /// none was asked for) and the gesture recognizer's debounce alone filters bounces.
    public private(set) var kernelDebounce = false
    /// Events the kernel dropped (full buffer), over the buttons' life.
    public private(set) var missedEvents = 0
    /// Edges dropped because they repeated a button's direction.
    public var repeatedEdges: Int { requests.reduce(0) { $0 + $1.logic.repeated } }

    /// Requests `buttons`' lines. `chip`: the chip's label (nil: find each line by name on every
    /// chip). `activeLow`: pressed = line low (buttons to ground, the usual wiring with pull-ups).
    /// `debounceMs`: the kernel's debounce period (0: none). `lines`: where the line requests go
    /// (the kernel unless a test simulates the lines).
    public init(chip: String?, buttons: [Button: GPIOLineID], bias: GPIOBias = .pullUp, activeLow: Bool = true,
                debounceMs: Int = 0, consumer: String = "deskpet", lines source: GPIOEdgeLines = KernelEdgeLines()) throws(HardwareError) {
        self.source = source
        name = "gpiochip \(chip ?? "(any)")"
        guard !buttons.isEmpty else { throw HardwareError(.invalidArgument, device: name, operation: "request button lines", reason: "no buttons given") }
        guard (0...1000).contains(debounceMs) else {
            throw HardwareError(.invalidArgument, device: name, operation: "request button lines", reason: "debounce \(debounceMs) ms is outside 0-1000 ms")
        }
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw LinuxError.make(name, "create an epoll descriptor", errno: errno, kind: .other) }
        do throws(HardwareError) {
            // A stable order, so errors and offsets do not depend on dictionary order.
            let sorted = buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            let made = try source.requestEdges(chip: chip, sorted.map(\.value), bias: bias, activeLow: activeLow,
                                               debounceUs: UInt32(debounceMs) * 1000, consumer: consumer)
            kernelDebounce = debounceMs > 0 && made.allSatisfy(\.kernelDebounce)
            for r in made {
                // Reads must never block the loop.
                let fl = fcntl(r.fd, F_GETFL)
                guard fl >= 0, fcntl(r.fd, F_SETFL, fl | O_NONBLOCK) == 0 else { throw LinuxError.make(r.name, "make the event descriptor non-blocking", errno: errno, kind: .other) }
                var ev = epoll_event()
                ev.events = EPOLLIN.rawValue
                ev.data.u32 = UInt32(requests.count)
                guard epoll_ctl(epollFD, EPOLL_CTL_ADD, r.fd, &ev) == 0 else { throw LinuxError.make(r.name, "watch the event descriptor", errno: errno, kind: .other) }
                requests.append(Request(r, buttons: r.lines.mapValues { sorted[$0].key }))
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
        requests.removeAll()
        source.closeAll()
    }

    public var fileDescriptor: Int32? { epollFD >= 0 ? epollFD : nil }

    /// The descriptors of the line requests (one per chip).
    public var lineDescriptors: [Int32] { requests.map(\.fd) }

    public func readEdges() throws(HardwareError) -> [InputEdge] {
        if let e = pending { pending = nil; throw e }
        guard epollFD >= 0 else { return [] }
        var ready = [epoll_event](repeating: epoll_event(), count: max(1, requests.count))
        let n = ready.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress!, Int32($0.count), 0) }
        if n < 0 {
            if errno == EINTR { return [] }
            throw LinuxError.make(name, "check the button lines", errno: errno, kind: .other)
        }
        var raw: [(edge: InputEdge, seq: Int)] = []
        var corrections: [InputEdge] = []
        for i in 0..<Int(n) {
            let index = Int(ready[i].data.u32)
            guard index < requests.count else { continue }
            let r = requests[index]
            let (edges, resync) = try read(r)
            for e in edges { raw.append((e, raw.count)) }
            if resync {
                let levels = try source.levels(r.request)
                corrections += r.logic.resync(levels: levels, ns: EventTime.now().monoNs)
            }
        }
        guard !raw.isEmpty || !corrections.isEmpty else {
            if let e = pending { pending = nil; throw e }
            return []
        }
        let clocks = EventTime.now()
        return raw.sorted { ($0.edge.ns, $0.seq) < ($1.edge.ns, $1.seq) }.map {
            InputEdge($0.edge.button, pressed: $0.edge.pressed,
                      ns: EventTime.monotonic(eventNs: $0.edge.ns, realNowNs: clocks.realNs, monoNowNs: clocks.monoNs))
        } + corrections
    }

    /// Every event waiting on one request (until the descriptor would block), as edges with the
    /// kernel's timestamps, and whether events were lost (the levels must be read again).
    private func read(_ r: Request) throws(HardwareError) -> (edges: [InputEdge], resync: Bool) {
        var edges: [InputEdge] = []
        var resync = false
        let chunk = 16 * GPIOUAPI.Size.lineEvent
        var buf = [UInt8](repeating: 0, count: chunk)
        while true {
            let got = buf.withUnsafeMutableBytes { Glibc.read(r.fd, $0.baseAddress, chunk) }
            if got < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                throw LinuxError.make(r.name, "read edge events", errno: errno, kind: .gpio)
            }
            if got == 0 { break }
            let batch = r.decoder.decode(buf[0..<got])
            missedEvents += batch.missed
            let (e, again) = r.logic.edges(from: batch)
            edges += e
            resync = resync || again
            if batch.tornBytes > 0 {
                pending = HardwareError(.system, device: r.name, operation: "read edge events",
                                        reason: "a read returned \(got) bytes, not whole \(GPIOUAPI.Size.lineEvent)-byte events; the last \(batch.tornBytes) were dropped")
            }
            if got < chunk { break }
        }
        return (edges, resync)
    }
}

/// The button logic on decoded events, for one line request: offsets to buttons, the direction each
/// button last reported, repeated directions dropped, and after lost events the levels read again.
/// Timestamps are the kernel's (`GPIOButtons` puts them on the monotonic time line).
public struct GPIOButtonLogic: Sendable {
    public let buttons: [UInt32: Button]
    /// What each button last reported (absent: nothing yet; a line not pressed at the start reports
    /// nothing until pressed).
    public private(set) var pressed: [UInt32: Bool] = [:]
    /// Edges dropped because they repeated their button's last direction.
    public private(set) var repeated = 0

    public init(buttons: [UInt32: Button]) { self.buttons = buttons }

    /// The edges of a decoded batch, in the kernel's order; `resync` when the kernel dropped events
    /// of a button's line (then `resync(levels:ns:)` with the lines' levels now).
    public mutating func edges(from batch: GPIOEventDecoder.Batch) -> (edges: [InputEdge], resync: Bool) {
        var out: [InputEdge] = []
        var resync = false
        for d in batch.events {
            guard let button = buttons[d.event.offset] else { continue }
            if d.missedBefore > 0 { resync = true }
            if pressed[d.event.offset] == d.event.rising { repeated += 1; continue }
            // A release with nothing pressed before (the first edge is a release) is not reported.
            if pressed[d.event.offset] == nil && !d.event.rising { pressed[d.event.offset] = false; repeated += 1; continue }
            pressed[d.event.offset] = d.event.rising
            out.append(InputEdge(button, pressed: d.event.rising, ns: d.event.timestampNs))
        }
        return (out, resync)
    }

    /// Brings every button to its line's logical level (offset → high) with an edge stamped `ns`
    /// where they differ.
    public mutating func resync(levels: [UInt32: Bool], ns: UInt64) -> [InputEdge] {
        var out: [InputEdge] = []
        for (offset, level) in levels.sorted(by: { $0.key < $1.key }) {
            guard let button = buttons[offset], (pressed[offset] ?? false) != level else { continue }
            pressed[offset] = level
            out.append(InputEdge(button, pressed: level, ns: ns))
        }
        return out
    }
}

/// One request of edge-detecting lines: its descriptor (reads `gpio_v2_line_event` records), a
/// name for errors, each line's offset with its index among the lines asked for, and whether the
/// kernel debounces them.
public struct GPIOEdgeRequest: Sendable {
    public var fd: Int32
    public var name: String
    /// Offset on the chip → index in the `ids` given to `requestEdges`.
    public var lines: [UInt32: Int]
    public var kernelDebounce: Bool
    public init(fd: Int32, name: String, lines: [UInt32: Int], kernelDebounce: Bool) {
        self.fd = fd; self.name = name; self.lines = lines; self.kernelDebounce = kernelDebounce
    }
}

/// Where `GPIOButtons` requests its lines.
public protocol GPIOEdgeLines: AnyObject {
    /// Requests lines `ids` (on the chip labelled `chip`; nil: each found by name on every chip) for
    /// both-edge events with `bias`, active-low when `activeLow` (pressed reads as a rising edge),
    /// debounced by the kernel for `debounceUs` (0: not) if it can: one request per chip.
    func requestEdges(chip: String?, _ ids: [GPIOLineID], bias: GPIOBias, activeLow: Bool, debounceUs: UInt32,
                      consumer: String) throws(HardwareError) -> [GPIOEdgeRequest]
    /// The logical levels of a request's lines now, by offset.
    func levels(_ request: GPIOEdgeRequest) throws(HardwareError) -> [UInt32: Bool]
    /// Releases every line requested (their descriptors close).
    func closeAll()
}

/// The kernel's lines (GPIO_V2_GET_LINE_IOCTL).
public final class KernelEdgeLines: GPIOEdgeLines {
    private var handles: [Int32: (handle: GPIOLineHandle, offsets: [UInt32])] = [:]
    public init() {}

    public func requestEdges(chip: String?, _ ids: [GPIOLineID], bias: GPIOBias, activeLow: Bool, debounceUs: UInt32,
                             consumer: String) throws(HardwareError) -> [GPIOEdgeRequest] {
        var out: [GPIOEdgeRequest] = []
        do throws(HardwareError) {
            for (c, lines) in try GPIOLines.resolve(chip: chip, ids) {
                let what = GPIOLines.describe(chip: chip ?? c.info.label, lines.map { ids[$0.index] })
                var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
                flags.formUnion(bias.flags)
                if activeLow { flags.insert(.activeLow) }
                let r = GPIOLineRequest(offsets: lines.map(\.offset), consumer: consumer, flags: flags, debounceUs: debounceUs)
                let (fd, debounced) = try c.request(r, what: what, operation: "request both-edge events")
                handles[fd] = (GPIOLineHandle(fd: fd, name: what, count: lines.count), r.offsets)
                var byOffset: [UInt32: Int] = [:]
                for l in lines { byOffset[l.offset] = l.index }
                out.append(GPIOEdgeRequest(fd: fd, name: what, lines: byOffset, kernelDebounce: debounced && debounceUs > 0))
            }
        } catch {
            closeAll()
            throw error
        }
        return out
    }

    public func levels(_ request: GPIOEdgeRequest) throws(HardwareError) -> [UInt32: Bool] {
        guard let held = handles[request.fd] else {
            throw HardwareError(.closed, device: request.name, operation: "read the levels", reason: "the lines were released")
        }
        let mask: UInt64 = held.offsets.count >= 64 ? .max : (1 << UInt64(held.offsets.count)) - 1
        let bits = try held.handle.values(mask: mask)
        var out: [UInt32: Bool] = [:]
        for (i, o) in held.offsets.enumerated() { out[o] = bits & (1 << UInt64(i)) != 0 }
        return out
    }

    public func closeAll() {
        for h in handles.values { h.handle.close() }
        handles.removeAll()
    }
}

/// Simulated GPIO lines at the kernel's seam: each request is a pipe whose read end is the
/// request's event descriptor, and `edge` writes the `gpio_v2_line_event` the kernel would (its
/// timestamp, rising or falling, the line's offset and sequence numbers). What reads them — epoll,
/// the decoding, `GPIOButtons` — is the code that runs on a device. Logical levels: `activeLow` is
/// applied here, as the kernel applies it to the line's physical level. The request goes through
/// `GPIOLineRequest.request`, as the kernel's does, so a kernel refusing debounce (`refusesDebounce`)
/// exercises the same fallback.
public final class SimulatedEdgeLines: GPIOEdgeLines {
    struct Line { var request: Int32; var offset: UInt32; var activeLow: Bool; var bias: GPIOBias; var physicallyHigh: Bool; var lineSeqno: UInt32 = 0 }
    struct Pipe { var write: Int32; var seqno: UInt32 = 0 }
    private var lines: [GPIOLineID: Line] = [:]
    private var pipes: [Int32: Pipe] = [:]
    private var nextOffset: UInt32 = 0
    /// Lines that refuse to be requested (a line held by another program), with errno.
    public var busy: [GPIOLineID: Int32] = [:]
    /// The kernel answers EINVAL to a request with the debounce attribute.
    public var refusesDebounce = false
    /// Every request made, as the kernel would receive it (the refused ones too).
    public private(set) var requests: [GPIOLineRequest] = []

    public init() {}
    deinit { closeAll() }

    /// The lines requested now, with the bias asked for.
    public var requestedLines: [GPIOLineID: GPIOBias] { lines.mapValues(\.bias) }

    /// The offset a simulated line has: its own for `.offset`, else the next free one from 100.
    private var named: [String: UInt32] = [:]
    private func offset(_ id: GPIOLineID) -> UInt32 {
        switch id {
        case .offset(let o): return o
        case .name(let n):
            if let o = named[n] { return o }
            let o = 100 + UInt32(named.count)
            named[n] = o
            return o
        }
    }

    public func requestEdges(chip: String?, _ ids: [GPIOLineID], bias: GPIOBias, activeLow: Bool, debounceUs: UInt32,
                             consumer: String) throws(HardwareError) -> [GPIOEdgeRequest] {
        let what = GPIOLines.describe(chip: chip, ids)
        for id in ids {
            if let e = busy[id] { throw LinuxError.make(what, "request both-edge events", errno: e, kind: .gpio) }
            guard lines[id] == nil else { throw LinuxError.make(what, "request both-edge events", errno: EBUSY, kind: .gpio) }
        }
        var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
        flags.formUnion(bias.flags)
        if activeLow { flags.insert(.activeLow) }
        let offsets = ids.map(offset)
        let r = GPIOLineRequest(offsets: offsets, consumer: consumer, flags: flags, debounceUs: debounceUs)
        if let problem = r.problem { throw HardwareError(.invalidArgument, device: what, operation: "request both-edge events", reason: problem) }
        let (result, debounced) = GPIOLineRequest.request(r) { req in
            requests.append(req)
            if refusesDebounce && req.debounceUs > 0 { return .failure(GPIOErrno(EINVAL)) }
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { return .failure(GPIOErrno(errno)) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            pipes[fds[0]] = Pipe(write: fds[1])
            return .success(fds[0])
        }
        let fd: Int32
        switch result {
        case .success(let f): fd = f
        case .failure(let e): throw LinuxError.make(what, "request both-edge events", errno: e.code, kind: .gpio)
        }
        var byOffset: [UInt32: Int] = [:]
        for (i, id) in ids.enumerated() {
            // Released buttons: the pull holds the line at its idle level.
            lines[id] = Line(request: fd, offset: offsets[i], activeLow: activeLow, bias: bias, physicallyHigh: bias == .pullUp)
            byOffset[offsets[i]] = i
        }
        return [GPIOEdgeRequest(fd: fd, name: what, lines: byOffset, kernelDebounce: debounced && debounceUs > 0)]
    }

    public func levels(_ request: GPIOEdgeRequest) throws(HardwareError) -> [UInt32: Bool] {
        var out: [UInt32: Bool] = [:]
        for l in lines.values where l.request == request.fd { out[l.offset] = l.physicallyHigh != l.activeLow }
        guard !out.isEmpty else { throw HardwareError(.closed, device: request.name, operation: "read the levels", reason: "the lines were released") }
        return out
    }

    /// The line's physical level changed at `ns` (the kernel's timestamp): the event the kernel
    /// reports for it (a rising edge of the logical value is a press on an active-low button
    /// pulled low). False when the line is not requested (nobody listens).
    @discardableResult
    public func edge(_ id: GPIOLineID, physicallyHigh high: Bool, ns: UInt64) -> Bool {
        guard var l = lines[id], var p = pipes[l.request] else { return false }
        l.physicallyHigh = high
        l.lineSeqno &+= 1; p.seqno &+= 1
        lines[id] = l; pipes[l.request] = p
        let record = GPIOLineEvent(timestampNs: ns, rising: high != l.activeLow, offset: l.offset, seqno: p.seqno, lineSeqno: l.lineSeqno).encoded()
        return record.withUnsafeBytes { write(p.write, $0.baseAddress, $0.count) } == record.count
    }

    /// The line's level changed but the kernel's buffer was full: the event is counted in the
    /// sequence numbers and never written (as the kernel drops it).
    @discardableResult
    public func dropped(_ id: GPIOLineID, physicallyHigh high: Bool) -> Bool {
        guard var l = lines[id], var p = pipes[l.request] else { return false }
        l.physicallyHigh = high
        l.lineSeqno &+= 1; p.seqno &+= 1
        lines[id] = l; pipes[l.request] = p
        return true
    }

    /// Writes bytes that are not whole records to a line's descriptor (a torn read, for tests).
    public func garbage(_ id: GPIOLineID, _ bytes: [UInt8]) {
        guard let l = lines[id], let p = pipes[l.request] else { return }
        _ = bytes.withUnsafeBytes { write(p.write, $0.baseAddress, $0.count) }
    }

    public func closeAll() {
        for (r, p) in pipes { close(r); close(p.write) }
        pipes.removeAll(); lines.removeAll()
    }
}
