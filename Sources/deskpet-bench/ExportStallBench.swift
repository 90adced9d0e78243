#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim
import PetLinux

// Exports against the device loop (docs/protocol.md#limits-and-timeouts): a phone asks for `exports` exports
// of a journal whose export is about `targetBytes`, in one write, and reads promptly; the figure
// is the loop's longest single step (one wake-up: the buttons and the other phones wait that
// long), how many exports arrived whole, and whether the connection survived.

func benchExportStall(targetBytes: Int, exports: Int) throws {
    let dir = tempDir()
    let link = try SocketLink(parsing: "tcp:127.0.0.1:0")
    let service = LinkService()
    let device = try SimDevice(dbPath: dir + "/export.db", start: start2026, zone: "Europe/Berlin", boot: false,
                               link: link, linkService: service)
    // 500 open tasks with notes of 500 emoji (2,000 bytes), their notes edited in rounds until the export is
    // about `targetBytes` (state and journal both carry the notes).
    var round = 0
    var size = 0
    while size < targetBytes && round < 50 {
        var commands: [Command] = []
        for i in 0..<500 {
            let fields = round == 0
                ? ["task": "t\(i)", "title": "Task \(i)", "notes": String(repeating: "😀", count: 500)]
                : ["task": "t\(i)", "notes": String(repeating: Character(Unicode.Scalar(0x1F600 + UInt32(round % 60))!), count: 500)]
            commands.append(try CommandParser.parse(name: round == 0 ? "task.create" : "task.edit", fields: fields, id: "seed-\(round)-\(i)",
                                                    at: device.now, clock: device.app.state.clock))
        }
        _ = try device.app.handleBatch(commands)
        round += 1
        size = try Export.document(device.app, now: device.now).count
    }
    let client = try BenchClient(port: link.port)
    _ = try client.pair(device: device, name: "bench", nonceByte: 1)

    var burst: [UInt8] = []
    for i in 0..<exports { burst += Frame.encode(Array(#"{"type":"command","id":"e\#(i)","name":"export"}"#.utf8)) }
    var off = 0
    var longestNs: UInt64 = 0
    var steps = 0
    func step() throws {
        let s = monoNs()
        try device.serveLink(waitingUpToMs: 0)
        longestNs = max(longestNs, monoNs() - s)
        steps += 1
    }
    let t0 = monoNs()
    while off < burst.count {
        let n = burst[off...].withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n > 0 { off += n } else { try step() }
    }
    // Read promptly until every export is answered (a reply or an error) or the stream ends.
    var decoder = FrameDecoder(maxBody: 1 << 24)
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    var partBytes: [String: Int] = [:]
    var whole = 0, busy = 0, failed = 0, answered = 0
    var closed = false
    outer: for _ in 0..<2_000_000 where answered < exports {
        try step()
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(client.fd, $0.baseAddress, $0.count) }
            if n == 0 { closed = true; break outer }
            if n < 0 { break }
            for body in try decoder.feed(Array(buf[0..<n])) {
                guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(body)),
                      case .string(let type) = o["type"] else { continue }
                let id: String = if case .string(let s) = o["id"] { s } else { "" }
                switch type {
                case "export.part":
                    if case .string(let d) = o["data"] { partBytes[id, default: 0] += d.utf8.count }
                case "reply":
                    answered += 1
                    if case .int(let b) = o["bytes"], Int(b) == partBytes[id, default: -1] { whole += 1 } else { failed += 1 }
                case "error":
                    answered += 1
                    if o["code"] == .string(ErrorCode.busy) { busy += 1 } else { failed += 1 }
                default: break
                }
            }
        }
        var p = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 1)
    }
    let seconds = Double(monoNs() - t0) / 1e9
    emit([("figure", q("link_export_stall")), ("transport", q("tcp loopback")), ("export_bytes", "\(size)"),
          ("exports_asked", "\(exports)"), ("exports_whole", "\(whole)"), ("busy", "\(busy)"), ("failed", "\(failed)"),
          ("unanswered", "\(exports - answered)"), ("connection_closed", closed ? "true" : "false"),
          ("longest_loop_step_ms", f(Double(longestNs) / 1e6)), ("loop_steps", "\(steps)"), ("seconds", f(seconds)),
          ("target", q("every export asked for answered (whole or busy); longest step <= one 100 ms frame"))])
    close(client.fd)
    link.close()
    for s in ["", "-wal", "-shm"] { removeFile(dir + "/export.db" + s) }
    rmdir(dir)
}
