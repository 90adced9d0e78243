#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
import PetLink
import PetUI
import PetLinux

/// `deskpet-sim --web PORT`: the simulator's device, headless, in real time, serving the
/// companion web app and its WebSocket (`WebLink`) on one loopback port
/// (docs/companion.md, "Serving the app from the device"). The journal lives in a folder kept
/// between runs, so a restart continues it (as the device does after a power cut). The pairing
/// code is printed when the screen shows it (`pairing code: NNNNNN`), as an owner reads it off the
/// display, and the screen's text can be written to a file whenever it changes (for tests).
public final class WebServe {
    public struct Options: Sendable {
        /// `PORT` or `HOST:PORT` (loopback unless `allowRemote`).
        public var address = "8080"
        public var webRoot: String?
        public var origins: [String] = []
        public var allowRemote = false
        /// The folder of the journal (`DIR/deskpet.db`), created 0700 if missing, kept.
        public var dataDir = "out/web"
        /// The pet's time zone for a new journal (an existing one keeps its own).
        public var zone = "UTC"
        public var profile: DisplayProfile = .square240
        public var layout: InputLayout = .threeButtons
        /// Write the screen's text runs (one a line) here whenever they change.
        public var screenText: String?
        /// Read key presses from this FIFO (made 0600 if missing): lines `tap B`, `double B`,
        /// `hold B` — the board's keys pressed as the owner would (for tests).
        public var keys: String?
        /// Print the link's notes (client numbers, codes; never content).
        public var verbose = false
        /// More transports served beside the WebSocket (`--link unix:PATH`, `tcp:…`), as the daemon's
        /// `--link` (docs/protocol.md#transports).
        public var links: [String] = []
        public init() {}
    }

    public let options: Options
    public let device: SimDevice
    public let link: WebLink
    public let service: LinkService
    public let database: String
    private let print: (String) -> Void
    private var shownCode: String?
    private var writtenText: String?
    private var keysFD: Int32 = -1
    private var keysPending: [UInt8] = []

    public init(options: Options, print: @escaping (String) -> Void) throws(AppError) {
        self.options = options
        self.print = print
        do { try makePrivateDirectory(options.dataDir) } catch {
            throw .hardware(HardwareError(HardwareError.Kind(errno: error.code), device: "data folder", operation: "create \(options.dataDir)", reason: error.description, errno: error.code))
        }
        database = options.dataDir + "/deskpet.db"
        var o = WebLink.Options()
        o.allowRemote = options.allowRemote
        o.origins = options.origins
        o.webRoot = options.webRoot
        do { link = try WebLink(parsing: options.address, options: o) } catch {
            throw .hardware(HardwareError(device: "web link", operation: "serve on \(options.address)", reason: error.description))
        }
        service = LinkService()
        if options.verbose {
            service.log = { [print] in print("  " + $0) }
            link.log = { [print] in print("  " + $0) }
        }
        var phoneLink: PhoneLink = link
        if !options.links.isEmpty {
            var transports: [PhoneLink] = [link]
            for a in options.links {
                do { transports.append(try SocketLink(parsing: a, allowRemote: options.allowRemote)) } catch {
                    throw .hardware(HardwareError(device: "phone link", operation: "serve on \(a)", reason: error.description))
                }
            }
            do { phoneLink = try MultiLink(transports) } catch { throw .hardware(error) }
        }
        let start = Instant(SystemClock().wallMs / 1000)
        device = try SimDevice(dbPath: database, start: start, zone: options.zone, profile: options.profile,
                               layout: options.layout, boot: false, link: phoneLink, linkService: service)
    }

    /// The address to open in a browser.
    public var url: String { "http://\(shownHost):\(link.port)/" }
    /// The WebSocket's address.
    public var socketURL: String { "ws://\(shownHost):\(link.port)/link" }
    private var shownHost: String { link.host == "0.0.0.0" ? "127.0.0.1" : link.host }

    /// Serves until `stop()` says so: waits on the link's descriptor (at most 50 ms), then lets
    /// the virtual clock catch up with the real time that passed (deadlines on the way happen at
    /// their instants), prints a new pairing code and writes the screen's text.
    public func run(until stop: () -> Bool) throws(AppError) {
        let clock = SystemClock()
        var last = clock.monotonicNs
        try openKeys()
        defer { if keysFD >= 0 { close(keysFD); keysFD = -1 } }
        try observe()
        while !stop() {
            try device.serveLink(waitingUpToMs: 50)
            try pressKeys()
            let elapsedMs = (clock.monotonicNs &- last) / 1_000_000
            if elapsedMs > 0 {
                try device.wait(ms: Int64(elapsedMs))
                last &+= elapsedMs &* 1_000_000
            }
            try observe()
        }
    }

    private func openKeys() throws(AppError) {
        guard let path = options.keys else { return }
        if mkfifo(path, 0o600) != 0 && errno != EEXIST {
            throw .hardware(HardwareError(device: "keys", operation: "mkfifo \(path)", errno: errno))
        }
        // Read and write: the FIFO then never reads as closed between two writers.
        keysFD = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard keysFD >= 0 else { throw .hardware(HardwareError(device: "keys", operation: "open \(path)", errno: errno)) }
    }

    /// Presses the keys of the whole lines written to `--keys` so far (an unknown line is
    /// reported and skipped).
    private func pressKeys() throws(AppError) {
        guard keysFD >= 0 else { return }
        var buf = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buf.withUnsafeMutableBytes { read(keysFD, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            keysPending += buf[0..<n]
            if keysPending.count > 4096 { keysPending.removeAll(); print("keys: a line over 4096 bytes: dropped") }
        }
        while let nl = keysPending.firstIndex(of: 0x0A) {
            let line = String(decoding: keysPending[..<nl], as: UTF8.self)
            keysPending.removeFirst(nl + 1)
            let words = line.split(separator: " ")
            guard words.count == 2, let b = Button.allCases.first(where: { $0.rawValue.lowercased() == words[1].lowercased() }),
                  device.layout.buttons.contains(b) else {
                print("keys: not 'tap|double|hold KEY' with a key of this board: skipped"); continue
            }
            switch words[0] {
            case "tap": try device.press(b)
            case "double": try device.doubleTap(b)
            case "hold": try device.hold(b)
            default: print("keys: not 'tap|double|hold KEY' with a key of this board: skipped")
            }
        }
    }

    private func observe() throws(AppError) {
        if device.ui.pairingCode != shownCode {
            shownCode = device.ui.pairingCode
            if let code = shownCode { print("pairing code: \(code)") }
        }
        guard let path = options.screenText else { return }
        let text = device.canvas.textRuns.map(\.text).joined(separator: "\n") + "\n"
        guard text != writtenText else { return }
        writtenText = text
        // Replaced whole (a reader never sees half a screen); a test file: no fsync.
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .hardware(HardwareError(device: "screen text", operation: "open \(tmp)", errno: errno))
        }
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard n == bytes.count, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw .hardware(HardwareError(device: "screen text", operation: "write \(path)", errno: errno))
        }
    }

    /// The web app's folder when none is given: the repository's `web/` above the executable or
    /// under the current folder, else the packaged `/usr/share/deskpet/web`; nil when none holds
    /// an `index.html`.
    public static func defaultWebRoot() -> String? {
        var candidates: [String] = []
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 {
            var dir = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for _ in 0..<6 {
                guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { break }
                dir = String(dir[..<slash])
                candidates.append(dir + "/web")
            }
        }
        if getcwd(&buf, buf.count) != nil { candidates.append(String(cString: buf) + "/web") }
        candidates.append("/usr/share/deskpet/web")
        return candidates.first { access($0 + "/index.html", R_OK) == 0 }
    }
}
