import PetCore
import PetDevice

/// Pairing (docs/protocol.md#pairing): `pair.begin` shows a fresh 6-digit code and sends a
/// 16-byte challenge; `pair.finish` proves the code with HMAC-SHA-256(code, challenge ‖ nonce).
/// A challenge is used once, right or wrong, so a replayed proof fails. Five wrong codes in a
/// row lock pairing for 10 minutes: the lockout is a journal event (`phone.pairing-locked`), so
/// a restart does not lift it, and the pairing screen says so. The phone's 32-byte token is
/// stored only as its SHA-256 (`phone.paired`).
extension LinkService {
    func pairBegin(from c: Int, loop: LinkHost) -> [LinkFrame] {
        let now = loop.now
        if let retry = lockRemaining(loop) {
            return reply(c, ErrorMessage(code: ErrorCode.pairingLocked, message: "pairing is locked after \(PhoneRules.wrongCodesBeforeLock) wrong codes", retryAfter: retry))
        }
        guard loop.state.phones.paired.count < PhoneRules.maxPhones else {
            return reply(c, ErrorMessage(code: ErrorCode.tooManyPhones, message: "\(PhoneRules.maxPhones) phones are paired: unpair one first"))
        }
        let code: String, challenge: [UInt8]
        do {
            let n = try random.uniform(below: 1_000_000)
            let digits = String(n)
            code = String(repeating: "0", count: 6 - digits.count) + digits
            challenge = try random.bytes(16)
        } catch {
            return reply(c, ErrorMessage(code: ErrorCode.internalError, message: error.description))
        }
        // A newer pairing attempt replaces an older one on screen.
        if let other = codeShownFor, other != c { sessions[other]?.challenge = nil }
        sessions[c]?.challenge = Session.Challenge(bytes: challenge, code: code,
                                                   expiresMs: loop.nowMs &+ Int64(config.challengeSeconds) * 1000)
        codeShownFor = c
        effects.append(.pairingCode(code))
        log?("link: client \(c): pairing code shown until \(now.seconds + Int64(config.challengeSeconds))")
        return reply(c, PairChallenge(challenge: challenge, expiresIn: config.challengeSeconds))
    }

    func pairFinish(_ p: PairFinish, from c: Int, loop: LinkHost) -> [LinkFrame] {
        // The challenge is spent whatever happens next: a proof is checked at most once.
        guard let ch = sessions[c]?.challenge else {
            return reply(c, ErrorMessage(code: ErrorCode.noChallenge, message: "no pairing challenge is open on this connection (send pair.begin)"))
        }
        sessions[c]?.challenge = nil
        let shown = hideCode(ifShownFor: c)
        if loop.nowMs >= ch.expiresMs {
            if shown { effects.append(.pairingEnded(.expired)) }
            return reply(c, ErrorMessage(code: ErrorCode.noChallenge, message: "the pairing challenge expired (send pair.begin)"))
        }
        if let retry = lockRemaining(loop) {
            return reply(c, ErrorMessage(code: ErrorCode.pairingLocked, message: "pairing is locked", retryAfter: retry))
        }
        guard let nonce = Hex.decode(p.nonce), nonce.count == 16 else {
            return reply(c, ErrorMessage(code: ErrorCode.malformed, message: "malformed message: pair.finish: 'nonce' must be 32 hex digits"))
        }
        guard let mac = Hex.decode(p.mac), mac.count == 32 else {
            return reply(c, ErrorMessage(code: ErrorCode.malformed, message: "malformed message: pair.finish: 'mac' must be 64 hex digits"))
        }
        let expected = PairFinish.proof(code: ch.code, challenge: ch.bytes, nonce: nonce)
        guard constantTimeEqual(mac, expected) else { return wrongCode(from: c, loop: loop, shown: shown) }
        wrongCodes = 0
        let token: [UInt8], commandID: String
        do {
            token = try random.bytes(32)
            commandID = "link-pair-" + Hex.encode(try random.bytes(8))
        } catch {
            return reply(c, ErrorMessage(code: ErrorCode.internalError, message: error.description))
        }
        let phone = loop.state.phones.nextID
        let action = Action.phone(.pair(id: phone, name: p.name, tokenHash: Hex.encode(SHA256.hash(token))))
        switch journal(Command(id: commandID, at: loop.now, action: action), loop: loop) {
        case .failure(let e): return reply(c, e)
        case .success:
            sessions[c]?.phone = phone
            effects.append(.pairingEnded(.paired(name: p.name)))
            log?("link: client \(c) paired as \(phone)")
            return reply(c, Paired(phone: phone, token: token))
        }
    }

    private func wrongCode(from c: Int, loop: LinkHost, shown: Bool) -> [LinkFrame] {
        wrongCodes += 1
        log?("link: client \(c): wrong pairing code (\(wrongCodes) in a row)")
        guard wrongCodes >= PhoneRules.wrongCodesBeforeLock else {
            if shown { effects.append(.pairingEnded(.wrongCode)) }
            return reply(c, ErrorMessage(code: ErrorCode.wrongCode, message: "the code does not match",
                                         attemptsLeft: PhoneRules.wrongCodesBeforeLock - wrongCodes))
        }
        wrongCodes = 0
        let until = loop.now + PhoneRules.lockSeconds
        let id = "link-lock-\(until.seconds)-\(loop.state.phones.lockouts + 1)"
        if case .failure(let e) = journal(Command(id: id, at: loop.now, action: .phone(.lockPairing(until: until))), loop: loop) {
            return reply(c, e)
        }
        effects.append(.pairingEnded(.locked))
        log?("link: pairing locked for \(PhoneRules.lockSeconds) s")
        return reply(c, ErrorMessage(code: ErrorCode.pairingLocked, message: "\(PhoneRules.wrongCodesBeforeLock) wrong codes: pairing is locked",
                                     retryAfter: PhoneRules.lockSeconds))
    }

    func unpair(_ phone: String, from c: Int, loop: LinkHost) -> [LinkFrame] {
        let id: String
        do { id = "link-unpair-" + Hex.encode(try random.bytes(8)) } catch {
            return reply(c, ErrorMessage(code: ErrorCode.internalError, message: error.description))
        }
        // The session asking keeps its connection (unauthenticated) and hears `unpaired`.
        let was = sessions[c]?.phone
        if was == phone { sessions[c]?.phone = nil }
        switch journal(Command(id: id, at: loop.now, action: .phone(.unpair(id: phone))), loop: loop) {
        case .failure(let e):
            sessions[c]?.phone = was
            return reply(c, e)
        case .success:
            log?("link: \(phone) unpaired by client \(c)")
            return reply(c, Unpaired(phone: phone))
        }
    }

    /// Seconds left of a pairing lockout (nil: not locked).
    func lockRemaining(_ loop: LinkHost) -> Int64? {
        guard let until = loop.state.phones.lockedUntil, loop.now < until else { return nil }
        return until - loop.now
    }

    /// Stores a link-made command through the host (durable before this returns; its events
    /// pushed); the error message to send if it was refused or the journal failed.
    func journal(_ command: Command, loop: LinkHost) -> Result<Reply, ErrorMessage> {
        do {
            let outcome = try commitOne(command, loop: loop)
            switch outcome.result {
            case .success(let r): return .success(r)
            case .failure(let e): return .failure(ErrorMessage(code: e.code, message: e.description))
            }
        } catch {
            log?("link: journal failed: \(error)")
            return .failure(ErrorMessage(code: ErrorCode.journal, message: "the journal could not store this"))
        }
    }
}
