#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import PetDevice

/// The service manager's notification protocol (sd_notify(3)) without libsystemd: datagrams of
/// newline-separated `KEY=value` lines to the AF_UNIX socket named by $NOTIFY_SOCKET (a path, or an
/// abstract name written with a leading '@'). Without NOTIFY_SOCKET (not started by systemd, or
/// `Type=simple`) every call does nothing.
///
/// The daemon sends READY=1 once the first frame is on the panel and the link listens, WATCHDOG=1
/// at least every `watchdogIntervalUs / 2` when the unit sets WatchdogSec=, STATUS= with a short
/// phrase (never personal text), and STOPPING=1 when asked to stop.
public final class SystemdNotify {
    public enum Message: Sendable, Equatable {
        case ready, stopping, watchdog, reloading
        case status(String)

        public var line: String {
            switch self {
            case .ready: "READY=1"
            case .stopping: "STOPPING=1"
            case .watchdog: "WATCHDOG=1"
            case .reloading: "RELOADING=1"
            // One line: a newline would start another assignment.
            case .status(let s): "STATUS=" + s.map { $0 == "\n" || $0 == "\r" ? " " : String($0) }.joined()
            }
        }
    }

    /// The socket address as given ("/run/systemd/notify" or "@name"); nil: notifications are off.
    public let socketName: String?
    /// The watchdog interval the unit asks for (WATCHDOG_USEC), if it is meant for this process.
    public let watchdogIntervalUs: UInt64?
    private var fd: Int32 = -1

    /// Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID from `environment` (default: the process's).
    public init(environment: [String: String]? = nil) {
        let env = environment ?? Self.processEnvironment()
        let name = env["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketName = name
        if let usec = env["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
           env["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true {
            watchdogIntervalUs = usec
        } else {
            watchdogIntervalUs = nil
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    public var isEnabled: Bool { socketName != nil }

    /// Sends the messages in one datagram. Nothing happens when notifications are off.
    public func send(_ messages: [Message]) throws(HardwareError) {
        guard let name = socketName, !messages.isEmpty else { return }
        let text = messages.map(\.line).joined(separator: "\n") + "\n"
        guard var addr = Self.address(name) else {
            throw HardwareError(.invalidArgument, device: "NOTIFY_SOCKET \(name)", operation: "send \(messages.map(\.line).first ?? "")",
                                reason: "not an absolute path or @abstract name of at most 107 bytes")
        }
        if fd < 0 {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw LinuxError.make("NOTIFY_SOCKET \(name)", "create a socket", errno: errno, kind: .other) }
        }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + Self.pathLength(name))
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, b.baseAddress, b.count, Int32(MSG_NOSIGNAL), $0, len) }
            }
        }
        guard n == bytes.count else {
            throw LinuxError.make("NOTIFY_SOCKET \(name)", "send \(messages.map(\.line).joined(separator: " "))", errno: n < 0 ? errno : EIO, kind: .other)
        }
    }

    public func send(_ message: Message) throws(HardwareError) { try send([message]) }

    /// The sockaddr_un for a name: a path, or '@' + an abstract name (a leading NUL byte).
    static func address(_ name: String) -> sockaddr_un? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@"), bytes.count <= 107 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { p in
            for (i, b) in bytes.enumerated() { p[i] = (i == 0 && b == UInt8(ascii: "@")) ? 0 : b }
        }
        return addr
    }

    /// Bytes of sun_path used: a path with its terminating NUL; an abstract name exactly.
    static func pathLength(_ name: String) -> Int {
        name.utf8.first == UInt8(ascii: "@") ? name.utf8.count : name.utf8.count + 1
    }

    static func processEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let c = p.pointee {
            let s = String(cString: c)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}

/// A logger for the daemon: one line per message on stderr. When stderr is the journal (systemd
/// sets JOURNAL_STREAM to its device and inode), each line starts with the syslog priority
/// (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) so journald files it at that level and
/// `journalctl -p` filters it; on a terminal or in a file the prefix would be noise, so lines are
/// `deskpet: warning: ...` instead. Messages must never contain personal text.
public struct SystemLog: Sendable {
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
        var word: String {
            switch self { case .error: "error"; case .warning: "warning"; case .notice: "notice"; case .info: "info"; case .debug: "debug" }
        }
    }

    /// Prefix lines with `<N>` (stderr goes to the journal).
    public var journal: Bool
    /// Messages less important than this are dropped.
    public var threshold: Priority
    public var tag: String

    public init(journal: Bool, threshold: Priority = .info, tag: String = "deskpet") {
        self.journal = journal; self.threshold = threshold; self.tag = tag
    }

    /// Decides from the process's environment and stderr.
    public static func forStderr(threshold: Priority = .info, tag: String = "deskpet") -> SystemLog {
        var st = stat()
        let isJournal = fstat(2, &st) == 0 && stderrIsJournal(journalStream: SystemdNotify.processEnvironment()["JOURNAL_STREAM"],
                                                              device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        return SystemLog(journal: isJournal, threshold: threshold, tag: tag)
    }

    /// JOURNAL_STREAM is "<device>:<inode>" of the stream systemd connected; it only counts if
    /// stderr is still that stream (not redirected by a wrapper script).
    public static func stderrIsJournal(journalStream: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let parts = journalStream?.split(separator: ":"), parts.count == 2,
              let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return false }
        return d == device && i == inode
    }

    /// The line for a message (nil when below the threshold). Newlines become spaces: one
    /// message, one line.
    public func format(_ priority: Priority, _ message: String) -> String? {
        guard priority <= threshold else { return nil }
        let flat = String(message.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        return journal ? "<\(priority.rawValue)>\(flat)" : "\(tag): \(priority.word): \(flat)"
    }

    public func log(_ priority: Priority, _ message: String) {
        guard let line = format(priority, message) else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    public func error(_ m: String) { log(.error, m) }
    public func warning(_ m: String) { log(.warning, m) }
    public func info(_ m: String) { log(.info, m) }
    public func debug(_ m: String) { log(.debug, m) }
}
