#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetIO
import PetWire

/// The broker owner's files (docs/circles.md#creating-a-circle-on-the-broker): `deskpet-bridge
/// circle create` and `circle invite --acl --passwd` keep each circle's lines of mosquitto's
/// `acl_file` in one block of their own, and add accounts to its `password_file`. Pure edits of the
/// files' text: other lines (other circles' blocks, the owner's own lines) are never changed; a
/// file these edits cannot read for sure is refused whole, with the line named.
public enum CircleBroker {
    /// A file refused, or a request that breaks a rule: what and where (a line number from 1).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int?
        public var text: String
        public init(line: Int? = nil, _ text: String) { self.line = line; self.text = text }
        public var description: String { line.map { "line \($0): \(text)" } ?? text }
    }

    /// A block's first line: `# deskpet-circle <id> begin <prefix>`.
    static let marker = "# deskpet-circle "

    /// One circle's block as read from an ACL file.
    public struct Block: Sendable, Equatable {
        public var circle: String
        public var prefix: String
        /// The accounts that read the circle, in the file's order.
        public var readers: [String]
        /// The lines the block spans (0-based, `first` is the begin line, `last` the end line).
        var first: Int
        var last: Int
    }

    /// The block of `circle` (begin line, the member-topic pattern, each reader's `user` and
    /// `topic read` lines, end line).
    public static func blockText(circle: String, prefix: String, readers: [String]) -> [String] {
        var out = ["\(marker)\(circle) begin \(prefix)",
                   "# written by deskpet-bridge circle create/invite: edit outside this block (docs/circles.md#the-brokers-acl)",
                   "pattern readwrite \(prefix)/%u/#"]
        for r in readers { out += ["user \(r)", "topic read \(prefix)/#"] }
        out.append("\(marker)\(circle) end")
        return out
    }

    /// Whether `s` is a name these files may hold for an account: 1–64 printable ASCII characters,
    /// none of `/ + # :` (topic and password-file syntax) — a member id always is.
    public static func isAccount(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count)
            && s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != 0x2f && $0 != 0x2b && $0 != 0x23 && $0 != 0x3a }
    }

    /// Whether two prefixes overlap: the same, or one inside the other (a reader of one would read
    /// the other).
    public static func overlap(_ a: String, _ b: String) -> Bool {
        a == b || a.hasPrefix(b + "/") || b.hasPrefix(a + "/")
    }

    /// The text's lines (a final newline ends the last line; `\r` before it is kept with the line).
    static func lines(_ text: String) -> [String] {
        // By bytes: "\r\n" is one Character, which a split on "\n" would not see.
        var l = text.utf8.split(separator: 0x0a, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if l.last == "" { l.removeLast() }
        return l
    }

    /// Checks the raw bytes of a file these edits will rewrite: UTF-8 text with no NUL.
    public static func text(_ bytes: [UInt8]) throws(Problem) -> String {
        if let i = bytes.firstIndex(of: 0) {
            throw Problem(line: bytes[..<i].filter { $0 == 0x0a }.count + 1, "a NUL byte: not a text file, changed nothing")
        }
        guard let s = String(validating: bytes, as: UTF8.self) else { throw Problem("not UTF-8 text, changed nothing") }
        return s
    }

    /// Every circle block of an ACL file, checked: each begun block ends before another begins,
    /// every line inside is one these edits write, one block per circle, no two prefixes overlap.
    public static func blocks(_ acl: String) throws(Problem) -> [Block] {
        let ls = lines(acl)
        var out: [Block] = []
        var i = 0
        while i < ls.count {
            let line = ls[i].trimmed(" \t\r")
            if line.hasPrefix(marker) {
                let w = line.dropFirst(marker.count).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard w.count == 3, w[1] == "begin", CircleLedgerRules.isID(w[0]) else {
                    throw Problem(line: i + 1, "a deskpet-circle line that begins no block (it must be '\(marker)ID begin PREFIX')")
                }
                let circle = w[0], prefix = w[2]
                var readers: [String] = []
                var j = i + 1
                var ended = false
                var patternSeen = false
                while j < ls.count {
                    let l = ls[j].trimmed(" \t\r")
                    if l == "\(marker)\(circle) end" { ended = true; break }
                    if l.hasPrefix(marker) { throw Problem(line: j + 1, "circle \(circle)'s block (from line \(i + 1)) has no end line before this one") }
                    if l.isEmpty || (l.hasPrefix("#") && !l.hasPrefix(marker)) { j += 1; continue }
                    if l == "pattern readwrite \(prefix)/%u/#" && !patternSeen { patternSeen = true; j += 1; continue }
                    let u = l.split(separator: " ", omittingEmptySubsequences: true)
                    if u.count == 2, u[0] == "user", isAccount(String(u[1])), j + 1 < ls.count, ls[j + 1].trimmed(" \t\r") == "topic read \(prefix)/#" {
                        guard !readers.contains(String(u[1])) else { throw Problem(line: j + 1, "circle \(circle)'s block names \(u[1]) twice") }
                        readers.append(String(u[1])); j += 2; continue
                    }
                    throw Problem(line: j + 1, "inside circle \(circle)'s block, a line circle create does not write (move it outside the block)")
                }
                guard ended else { throw Problem(line: i + 1, "circle \(circle)'s block has no end line ('\(marker)\(circle) end')") }
                guard patternSeen else { throw Problem(line: i + 1, "circle \(circle)'s block lacks its member-topic pattern") }
                if out.contains(where: { $0.circle == circle }) { throw Problem(line: i + 1, "a second block for circle \(circle)") }
                if let o = out.first(where: { overlap($0.prefix, prefix) }) {
                    throw Problem(line: i + 1, "circle \(circle)'s prefix \(prefix) overlaps circle \(o.circle)'s \(o.prefix)")
                }
                out.append(Block(circle: circle, prefix: prefix, readers: readers, first: i, last: j))
                i = j + 1
                continue
            }
            i += 1
        }
        return out
    }

    /// The ACL file with `circle`'s block made or brought up to date: created (appended at the end,
    /// so no `topic` line of the owner's falls under its `user` lines) or its readers extended by
    /// `readers` (those already there stay, in their order). Refused: a circle already there with
    /// another prefix, a prefix overlapping another circle's. Returns the new text (equal to `acl`
    /// when nothing changes) and notes for the owner (lines outside the blocks naming the prefix).
    public static func acl(_ acl: String, circle: String, prefix: String, readers: [String]) throws(Problem) -> (text: String, notes: [String]) {
        let all = try blocks(acl)
        for r in readers where !isAccount(r) { throw Problem("an account name must be 1–64 printable characters, none of / + # :") }
        var ls = lines(acl)
        var notes: [String] = []
        let inBlocks = Set(all.flatMap { Array($0.first...$0.last) })
        for (k, l) in ls.enumerated() where !inBlocks.contains(k) && (l.contains(" \(prefix)/") || l.hasSuffix(" \(prefix)")) && !l.hasPrefix("#") {
            notes.append("line \(k + 1) outside circle \(circle)'s block names its prefix: check it by hand")
        }
        if let b = all.first(where: { $0.circle == circle }) {
            guard b.prefix == prefix else { throw Problem(line: b.first + 1, "circle \(circle) is already on this broker with prefix \(b.prefix), not \(prefix)") }
            var merged = b.readers
            for r in readers where !merged.contains(r) { merged.append(r) }
            if merged == b.readers { return (acl, notes) }
            ls.replaceSubrange(b.first...b.last, with: blockText(circle: circle, prefix: prefix, readers: merged))
        } else {
            if let o = all.first(where: { overlap($0.prefix, prefix) }) {
                throw Problem(line: o.first + 1, "prefix \(prefix) overlaps circle \(o.circle)'s \(o.prefix): a reader of one would read the other")
            }
            var unique: [String] = []
            for r in readers where !unique.contains(r) { unique.append(r) }
            if !ls.isEmpty && ls.last?.trimmed(" \t\r") != "" { ls.append("") }
            ls += blockText(circle: circle, prefix: prefix, readers: unique)
        }
        return (ls.joined(separator: "\n") + "\n", notes)
    }

    /// What a password file holds for `user`.
    public enum Account: Sendable, Equatable {
        case absent
        /// Its line's hash (after the first `:`), as it is.
        case present(hash: String)
    }

    /// The account `user` in a mosquitto password file (`user:hash` lines); a user with two lines
    /// is refused (which one mosquitto takes is not for these edits to guess).
    public static func account(_ passwd: String, user: String) throws(Problem) -> Account {
        var found: (Int, String)?
        for (k, l) in lines(passwd).enumerated() {
            guard let colon = l.firstIndex(of: ":"), String(l[..<colon]) == user else { continue }
            if let f = found { throw Problem(line: k + 1, "\(user) has a second line (the first is line \(f.0 + 1)): remove one by hand") }
            found = (k, String(l[l.index(after: colon)...]).trimmed("\r"))
        }
        return found.map { .present(hash: $0.1) } ?? .absent
    }

    /// The password file with `user:hash` added at the end; an account already there is refused.
    public static func addAccount(_ passwd: String, user: String, hash: String) throws(Problem) -> String {
        guard isAccount(user), CirclePassword.isHash(hash) else { throw Problem("not an account line these edits write") }
        if case .present = try account(passwd, user: user) { throw Problem("\(user) is already an account") }
        var ls = lines(passwd)
        ls.append("\(user):\(hash)")
        return ls.joined(separator: "\n") + "\n"
    }

    /// Replaces the file at `path` with `bytes` atomically (PetIO's `writeFile`: a temporary file
    /// beside it, every write checked, fsync, rename, fsync of the folder), with the old file's owner
    /// and mode (a new file: this process's, `newMode`). A failure (a full disk) leaves the old file
    /// as it was and no temporary file behind. A symbolic link or anything but a regular file is refused
    /// (renaming over a link would replace the link, not the file the broker reads).
    public static func replace(_ path: String, _ bytes: [UInt8], newMode: mode_t = 0o600, calls: FileWriteCalls = .system) throws(FileError) {
        var st = stat()
        var mode = newMode
        var owner: (uid: uid_t, gid: gid_t)?
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFREG else { throw FileError(path: path, message: "is not a regular file (a link or a folder): give the file itself") }
            mode = st.st_mode & 0o7777
            owner = (uid: st.st_uid, gid: st.st_gid)
        } else if errno != ENOENT {
            let e = errno; throw FileError(path: path, message: "cannot stat (\(errnoText(e)))", code: e)
        }
        do {
            try writeFile(path, bytes, mode: mode, owner: owner, calls: calls)
        } catch {
            throw FileError(path: path, message: "\(error.message); the file is as it was", code: error.code)
        }
    }
}

extension CirclePassword {
    /// Whether `hash` (`$7$N$SALT$HASH`) is the hash of `password`.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard isHash(hash) else { return false }
        let p = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard let n = Int(p[2]), let salt = Base64.decode(String(p[3])) else { return false }
        return self.hash(password, salt: salt, iterations: n) == hash
    }
}
