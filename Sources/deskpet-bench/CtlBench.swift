#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim
import PetLinux

// deskpetctl's own offline sync: the built deskpetctl (this binary's sibling) is started with
// `sync` and a queue of `queued` commands in its state folder, against the simulated device on
// loopback TCP served in this thread. The time is spawn → exit: process start, hello, the
// pipelined replay (64 in flight), the durable commit of every command and the queue file's
// rewrites.
func benchCtlSync(queued: Int) throws {
    let dir = tempDir()
    let me = CommandLine.arguments[0]
    let ctl = (me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")) + "/deskpetctl"
    guard access(ctl, X_OK) == 0 else {
        emit([("figure", q("deskpetctl_sync_queued")), ("skipped", q("no deskpetctl beside this binary: swift build --product deskpetctl"))])
        return
    }
    let link = try SocketLink(parsing: "tcp:127.0.0.1:0")
    let device = try SimDevice(dbPath: dir + "/ctl.db", start: start2026, zone: "Europe/Berlin", boot: false,
                               link: link, linkService: LinkService())
    // Pair as the phone would (the bench's own client takes turns with the device).
    let client = try BenchClient(port: link.port)
    let token = try client.pair(device: device, name: "ctl-bench", nonceByte: 2)
    close(client.fd)
    try device.serveLink(waitingUpToMs: 0)

    // The state folder deskpetctl would have after pairing and `queued` offline commands.
    let state = dir + "/state"
    try StateFile.makeDirectory(state)
    try StateFile.writeAtomically(state + "/token.json", Array(#"{"address":"tcp:127.0.0.1:\#(link.port)","phone":"phone-1","token":"\#(token)"}"#.utf8))
    var queue = try OfflineQueue(path: state + "/queue.jsonl")
    try queue.append((0..<queued).map { QueuedCommand(id: "b-\($0)", name: "task.create", fields: ["task": "b\($0)", "title": "Queued \($0)"]) })

    let before = device.app.state.eventCount
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, dir + "/ctl.out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, dir + "/ctl.err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let words: [String] = [ctl, "--state", state, "sync"]
    var cargs = words.map { strdup($0) }
    cargs.append(nil)
    defer { for p in cargs { free(p) } }
    let t0 = monoNs()
    guard posix_spawn(&pid, ctl, &actions, nil, cargs, environ) == 0 else { throw BenchError(message: "cannot start \(ctl)") }
    var status: Int32 = 0
    var rounds = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        try device.serveLink(waitingUpToMs: 5)
        rounds += 1
        if rounds > 2_000_000 { kill(pid, SIGKILL) }
    }
    let seconds = Double(monoNs() - t0) / 1e9
    let left = (try? OfflineQueue(path: state + "/queue.jsonl").count) ?? -1
    emit([("figure", q("deskpetctl_sync_queued")), ("commands", "\(queued)"), ("exit", "\(status)"),
          ("events_stored", "\(device.app.state.eventCount - before)"), ("left_in_queue", "\(left)"), ("seconds", f(seconds)),
          ("includes", q("process start, hello, 64 in flight, durable commit per command, queue file rewrites")), ("target", q("<=1 s"))])
    link.close()
    for s in ["/state/token.json", "/state/queue.jsonl", "/state/last_seq", "/ctl.out", "/ctl.err", "/ctl.db", "/ctl.db-wal", "/ctl.db-shm"] { removeFile(dir + s) }
    rmdir(state)
    rmdir(dir)
}
