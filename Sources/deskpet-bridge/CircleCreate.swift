#if canImport(Glibc)
import Glibc
#endif
import PetBridge
import PetCore
import PetIO
import PetWire

/// `circle create` and `circle invite --acl --passwd` (docs/circles.md#creating-a-circle-on-the-broker):
/// the broker owner's files, edited through `CircleBroker` (pure) and replaced atomically.

/// A broker file's text, or "" when it does not exist yet; refused whole when it is not UTF-8 text.
func brokerFile(_ path: String) -> String {
    do {
        return try CircleBroker.text(try readRegularFile(path, limit: 16 << 20))
    } catch let e as FileError where e.code == ENOENT {
        return ""
    } catch let e as CircleBroker.Problem {
        fail("\(path): \(e) (see docs/circles.md#creating-a-circle-on-the-broker)", 1)
    } catch { fail("\(error)", 1) }
}

func replaceBrokerFile(_ path: String, _ text: String) {
    do { try CircleBroker.replace(path, Array(text.utf8)) } catch { fail(error.description, 1) }
}

func checkedPrefix(_ prefix: String, circle: String) {
    let probe = CircleInvite(broker: "mqtt://localhost", prefix: prefix, circle: circle, member: "probe", password: "probe-password-x")
    switch probe.problem() {
    case "prefix"?: fail("--prefix: 1–128 of a-z 0-9 - _ /, no empty level, not starting or ending with / (docs/circles.md#the-brokers-acl)", 2)
    case "circle"?: fail("--circle: 1–48 of a-z 0-9 -", 2)
    default: break
    }
}

/// SIGHUP to the broker, so it reads its files again.
func reloadBroker(_ opts: [String: String]) -> String {
    guard let p = opts["pid"] else { return "; reload the broker (SIGHUP) for it to take effect" }
    guard let pid = Int32(p), pid > 1 else { fail("--pid: the broker's process id", 2) }
    if kill(pid, SIGHUP) != 0 { fail("the broker (pid \(pid)) could not be told to reload (errno \(errno)); the files are written", 1) }
    return "; the broker (pid \(pid)) reloads them"
}

/// `circle create --prefix P --circle ID --acl FILE --passwd FILE [--leader NAME --leader-password-file FILE] [--pid PID]`
func circleCreateMain(_ opts: [String: String]) -> Never {
    guard let prefix = opts["prefix"], let circle = opts["circle"], let aclPath = opts["acl"], let passwdPath = opts["passwd"] else {
        fail("circle create needs --prefix, --circle, --acl and --passwd", 2)
    }
    checkedPrefix(prefix, circle: circle)
    var readers: [String] = []
    var leaderLine: (user: String, hash: String)?
    if let leader = opts["leader"] {
        guard CircleBroker.isAccount(leader), !CircleRules.isMemberID(leader) else {
            fail("--leader: 1–64 printable characters (none of / + # :) that are no member id — e.g. course_leader: the _ keeps it apart from the members (docs/circles.md#the-brokers-acl)", 2)
        }
        guard let pwPath = opts["leader-password-file"] else { fail("--leader needs --leader-password-file (read if it exists, else made)", 2) }
        var password: String
        do {
            if let t = try StateFile.read(pwPath, limit: 4096) {
                password = String(t.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                guard (12...128).contains(password.utf8.count), password.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
                    fail("--leader-password-file: its first line must be 12–128 printable characters", 2)
                }
            } else {
                password = try CircleInvite.newPassword()
                try StateFile.writeAtomically(pwPath, Array((password + "\n").utf8), mode: 0o600)
                say("made the leader's password in \(pwPath) (0600)")
            }
        } catch { fail("--leader-password-file: \(error)", 1) }
        let passwd = brokerFile(passwdPath)
        do {
            switch try CircleBroker.account(passwd, user: leader) {
            case .present(let h) where CirclePassword.verify(password, hash: h): break
            case .present:
                fail("\(passwdPath): \(leader) is already an account with another password: give its password in --leader-password-file, or remove its line", 1)
            case .absent:
                leaderLine = (leader, CirclePassword.hash(password, salt: try SystemRandom().bytes(12)))
            }
        } catch let e as CircleBroker.Problem { fail("\(passwdPath): \(e)", 1) } catch { fail("no random bytes: \(error)", 1) }
        readers.append(leader)
    } else if opts["leader-password-file"] != nil { fail("--leader-password-file needs --leader", 2) }

    let acl = brokerFile(aclPath)
    let edited: (text: String, notes: [String])
    do { edited = try CircleBroker.acl(acl, circle: circle, prefix: prefix, readers: readers) }
    catch { fail("\(aclPath): \(error); changed nothing", 1) }
    for n in edited.notes { say("\(aclPath): \(n)") }
    // The ACL first: a reader line for an account not made yet grants nothing; the other order
    // could leave an account that reads nothing.
    if edited.text != acl { replaceBrokerFile(aclPath, edited.text) }
    if let (u, h) = leaderLine {
        do { replaceBrokerFile(passwdPath, try CircleBroker.addAccount(brokerFile(passwdPath), user: u, hash: h)) }
        catch { fail("\(passwdPath): \(error)", 1) }
    }
    let changed = edited.text != acl || leaderLine != nil
    let reload = changed ? reloadBroker(opts) : ""
    print(changed ? "circle \(circle) on \(prefix): \(aclPath) and \(passwdPath) written\(reload)"
                  : "circle \(circle) on \(prefix): already set up, nothing changed")
    print("# mosquitto.conf needs, once per broker (docs/circles.md#the-brokers-acl):")
    print("#   allow_anonymous false")
    print("#   password_file \(absolute(passwdPath))")
    print("#   acl_file \(absolute(aclPath))")
    print("# then each member: deskpet-bridge circle invite --broker URL --prefix \(prefix) --circle \(circle) --member ID --acl \(aclPath) --passwd \(passwdPath)")
    exit(0)
}

/// `circle invite … --acl FILE --passwd FILE [--pid PID]`: the member's ACL lines and account,
/// the account's password the invite's.
func circleInviteFiles(_ invite: CircleInvite, opts: [String: String]) {
    guard let aclPath = opts["acl"], let passwdPath = opts["passwd"] else { fail("--acl and --passwd go together", 2) }
    let passwd = brokerFile(passwdPath)
    let acl = brokerFile(aclPath)
    do {
        guard try CircleBroker.blocks(acl).contains(where: { $0.circle == invite.circle && $0.prefix == invite.prefix }) else {
            fail("\(aclPath): circle \(invite.circle) on \(invite.prefix) is not there: run circle create first", 1)
        }
        if case .present = try CircleBroker.account(passwd, user: invite.member) {
            fail("\(passwdPath): \(invite.member) is already an account: an invite makes a new member (choose another --member)", 1)
        }
    } catch let e as CircleBroker.Problem { fail("\(e); changed nothing", 1) } catch { fail("\(error)", 1) }
    let hash: String
    do { hash = CirclePassword.hash(invite.password, salt: try SystemRandom().bytes(12)) } catch { fail("no random bytes: \(error)", 1) }
    do {
        let edited = try CircleBroker.acl(acl, circle: invite.circle, prefix: invite.prefix, readers: [invite.member])
        if edited.text != acl { replaceBrokerFile(aclPath, edited.text) }
        replaceBrokerFile(passwdPath, try CircleBroker.addAccount(passwd, user: invite.member, hash: hash))
    } catch { fail("\(error); see docs/circles.md#creating-a-circle-on-the-broker", 1) }
}

func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    var buf = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buf, buf.count) != nil else { return path }
    return String(cString: buf) + "/" + path
}
