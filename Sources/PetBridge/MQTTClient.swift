#if canImport(Glibc)
import Glibc
#endif
import CMosquitto

/// What libmosquitto's network thread reported, handed to the bridge's thread through a pipe
/// (the bridge waits on its read end beside the device link).
public enum MQTTEvent: Sendable, Equatable {
    case connected(rc: Int32, sessionPresent: Bool)
    case disconnected(rc: Int32)
    case message(topic: String, payload: [UInt8], mid: Int32)
    /// A payload over the limit: not copied.
    case oversized(topic: String, bytes: Int, mid: Int32)
    case published(mid: Int32)
}

/// The queue between libmosquitto's thread and the bridge's: a mutex-guarded array and a pipe
/// whose read end becomes readable when something is waiting.
final class MQTTInbox: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var items: [MQTTEvent] = []
    let readFD: Int32
    let writeFD: Int32
    let maxPayload: Int

    init(maxPayload: Int) throws(BridgeError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .mqtt(what: "pipe", reason: String(cString: strerror(errno))) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]; writeFD = fds[1]
        self.maxPayload = maxPayload
        pthread_mutex_init(&mutex, nil)
    }

    deinit { close(readFD); close(writeFD); pthread_mutex_destroy(&mutex) }

    func push(_ e: MQTTEvent) {
        pthread_mutex_lock(&mutex)
        items.append(e)
        pthread_mutex_unlock(&mutex)
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)   // a full pipe already wakes the reader
    }

    func drain() -> [MQTTEvent] {
        var buf = [UInt8](repeating: 0, count: 512)
        while buf.withUnsafeMutableBytes({ read(readFD, $0.baseAddress, $0.count) }) > 0 {}
        pthread_mutex_lock(&mutex)
        let out = items
        items = []
        pthread_mutex_unlock(&mutex)
        return out
    }
}

/// One libmosquitto client: MQTT 3.1.1, a persistent session (clean session off), QoS 1, TLS
/// when asked, the will `offline` (retained) on the status topic, reconnects by the library
/// (1 s doubling to 30 s) on its own network thread.
public final class MQTTClient {
    private let mosq: OpaquePointer
    let inbox: MQTTInbox
    public var wakeFD: Int32 { inbox.readFD }
    public let host: String
    public let port: Int32
    private var started = false

    public init(config: BridgeConfig, password: String?, willTopic: String, maxPayload: Int) throws(BridgeError) {
        inbox = try MQTTInbox(maxPayload: maxPayload)
        mosquitto_lib_init()
        guard let m = mosquitto_new(config.effectiveClientID, false, Unmanaged.passUnretained(inbox).toOpaque()) else {
            throw .mqtt(what: "client", reason: "mosquitto_new failed: \(String(cString: strerror(errno)))")
        }
        mosq = m
        host = config.brokerHost
        port = Int32(config.brokerPort)
        func check(_ rc: Int32, _ what: String) throws(BridgeError) {
            guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .mqtt(what: what, reason: String(cString: mosquitto_strerror(rc))) }
        }
        try check(mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "protocol version")
        if let u = config.username { try check(mosquitto_username_pw_set(m, u, password), "username") }
        if config.tls {
            let capath: String? = config.caFile == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(m, config.caFile, capath, nil, nil, nil), "TLS (ca_file \(config.caFile ?? "the system's"))")
        }
        let offline = Array("offline".utf8)
        try check(mosquitto_will_set(m, willTopic, Int32(offline.count), offline, 1, true), "last will")
        try check(mosquitto_reconnect_delay_set(m, 1, 30, true), "reconnect delay")
        mosquitto_connect_with_flags_callback_set(m) { _, obj, rc, flags in
            guard let obj else { return }
            Unmanaged<MQTTInbox>.fromOpaque(obj).takeUnretainedValue().push(.connected(rc: rc, sessionPresent: flags & 1 == 1))
        }
        mosquitto_disconnect_callback_set(m) { _, obj, rc in
            guard let obj else { return }
            Unmanaged<MQTTInbox>.fromOpaque(obj).takeUnretainedValue().push(.disconnected(rc: rc))
        }
        mosquitto_publish_callback_set(m) { _, obj, mid in
            guard let obj else { return }
            Unmanaged<MQTTInbox>.fromOpaque(obj).takeUnretainedValue().push(.published(mid: mid))
        }
        mosquitto_message_callback_set(m) { _, obj, msg in
            guard let obj, let msg else { return }
            let inbox = Unmanaged<MQTTInbox>.fromOpaque(obj).takeUnretainedValue()
            let topic = msg.pointee.topic.map { String(cString: $0) } ?? ""
            let n = Int(max(0, msg.pointee.payloadlen))
            if n > inbox.maxPayload {
                inbox.push(.oversized(topic: topic, bytes: n, mid: msg.pointee.mid))
                return
            }
            var payload = [UInt8](repeating: 0, count: n)
            if n > 0, let p = msg.pointee.payload { payload.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: p, count: n)) } }
            inbox.push(.message(topic: topic, payload: payload, mid: msg.pointee.mid))
        }
    }

    deinit {
        if started { mosquitto_loop_stop(mosq, true) }
        mosquitto_destroy(mosq)
    }

    /// Starts the network thread and the first connection (later ones are the library's).
    /// Returns a note when the first attempt failed (the thread keeps trying).
    public func start(keepalive: Int) throws(BridgeError) -> String? {
        let rc = mosquitto_connect_async(mosq, host, port, Int32(keepalive))
        // The network thread inherits a mask without SIGINT/SIGTERM: the signals stop the
        // bridge's own thread (which then says offline and disconnects cleanly), never its I/O.
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block); sigaddset(&block, SIGINT); sigaddset(&block, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        let lrc = mosquitto_loop_start(mosq)
        pthread_sigmask(SIG_SETMASK, &old, nil)
        guard lrc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .mqtt(what: "network thread", reason: String(cString: mosquitto_strerror(lrc))) }
        started = true
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            // The library's loop reconnects; mosquitto_connect_async returned before it could.
            if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return "first connection to \(host):\(port) failed: \(String(cString: strerror(errno))); retrying" }
            return "first connection to \(host):\(port) failed: \(String(cString: mosquitto_strerror(rc))); retrying"
        }
        return nil
    }

    public func drain() -> [MQTTEvent] { inbox.drain() }

    /// Publishes (QoS 1); the message id, or nil when the library refused it.
    public func publish(topic: String, payload: [UInt8], retain: Bool) -> (mid: Int32?, error: String?) {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { mosquitto_publish(mosq, &mid, topic, Int32($0.count), $0.baseAddress, 1, retain) }
        // Not connected: libmosquitto has queued the QoS 1 message (with its id) all the same and
        // sends it on reconnect — publishing it again then would deliver it twice.
        guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) || (rc == Int32(MOSQ_ERR_NO_CONN.rawValue) && mid != 0) else {
            return (nil, String(cString: mosquitto_strerror(rc)))
        }
        return (mid, nil)
    }

    /// Subscribes at QoS 1, or 0 (`qos: 0`: retained messages a reader takes in by the thousand —
    /// a broker queues at most `max_queued_messages` QoS 1 messages per client, 1000 by default,
    /// and drops the rest; docs/circles.md#scale).
    public func subscribe(_ topics: [String], qos: Int32 = 1) -> String? {
        for t in topics {
            let rc = mosquitto_subscribe(mosq, nil, t, qos)
            if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) { return "subscribe: \(String(cString: mosquitto_strerror(rc)))" }
        }
        return nil
    }

    public static func connackText(_ rc: Int32) -> String { String(cString: mosquitto_connack_string(rc)) }

    /// A clean disconnect (the will is not sent) and the thread stopped.
    public func stop() {
        mosquitto_disconnect(mosq)
        if started { mosquitto_loop_stop(mosq, false); started = false }
    }
}
