#if canImport(Glibc)
import Glibc
#endif
import PetIO

/// The bonding keys the kernel hands out when a phone pairs (New Long Term Key, New Identity
/// Resolving Key), kept in a text file (mode 0600) and loaded back at start (Load Long Term Keys,
/// Load Identity Resolving Keys) so a returning phone, even with a new random address, is known.
///
/// One key per line, hex fields separated by spaces (addresses as the kernel gives them,
/// little-endian):
///     ltk ADDRESS ADDRTYPE KEYTYPE CENTRAL ENCSIZE EDIV RAND VALUE
///     irk ADDRESS ADDRTYPE VALUE
/// A newer key for the same address (and, for LTKs, the same central flag) replaces the older one.
public struct BondingKeys: Sendable, Equatable {
    public var longTermKeys: [LongTermKey] = []
    public var identityResolvingKeys: [IdentityResolvingKey] = []
    public init() {}

    public mutating func add(_ k: LongTermKey) {
        longTermKeys.removeAll { $0.address == k.address && $0.addressType == k.addressType && $0.central == k.central }
        longTermKeys.append(k)
    }

    public mutating func add(_ k: IdentityResolvingKey) {
        identityResolvingKeys.removeAll { $0.address == k.address && $0.addressType == k.addressType }
        identityResolvingKeys.append(k)
    }

    /// Forgets a phone (unpairing).
    public mutating func remove(address: [UInt8]) {
        longTermKeys.removeAll { $0.address == address }
        identityResolvingKeys.removeAll { $0.address == address }
    }

    static func hex(_ b: [UInt8]) -> String { b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
    static func unhex(_ s: Substring, _ n: Int) -> [UInt8]? {
        guard s.count == 2 * n else { return nil }
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            guard let v = UInt8(s[i..<j], radix: 16) else { return nil }
            out.append(v); i = j
        }
        return out
    }

    public var text: String {
        var lines: [String] = []
        for k in longTermKeys {
            lines.append("ltk \(Self.hex(k.address)) \(Self.hex([k.addressType])) \(Self.hex([k.keyType])) \(Self.hex([k.central])) \(Self.hex([k.encryptionSize])) \(Self.hex([UInt8(k.diversifier & 0xFF), UInt8(k.diversifier >> 8)])) \(Self.hex(k.random)) \(Self.hex(k.value))")
        }
        for k in identityResolvingKeys { lines.append("irk \(Self.hex(k.address)) \(Self.hex([k.addressType])) \(Self.hex(k.value))") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Parses the file's text; lines it cannot read are skipped and counted.
    public init(text: String) {
        var bad = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
            let f = line.split(separator: " ")
            if f.count == 9, f[0] == "ltk", let a = Self.unhex(f[1], 6), let t = Self.unhex(f[2], 1), let kt = Self.unhex(f[3], 1),
               let c = Self.unhex(f[4], 1), let es = Self.unhex(f[5], 1), let ed = Self.unhex(f[6], 2), let r = Self.unhex(f[7], 8),
               let v = Self.unhex(f[8], 16) {
                add(LongTermKey(address: a, addressType: t[0], keyType: kt[0], central: c[0], encryptionSize: es[0],
                                diversifier: UInt16(ed[0]) | UInt16(ed[1]) << 8, random: r, value: v))
            } else if f.count == 4, f[0] == "irk", let a = Self.unhex(f[1], 6), let t = Self.unhex(f[2], 1), let v = Self.unhex(f[3], 16) {
                add(IdentityResolvingKey(address: a, addressType: t[0], value: v))
            } else { bad += 1 }
        }
        skippedLines = bad
    }

    /// Lines `init(text:)` could not read.
    public private(set) var skippedLines = 0

    /// Reads the file; a missing file is no keys.
    public static func load(path: String) throws(HardwareError) -> BondingKeys {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return BondingKeys() }
            throw HardwareError(device: path, operation: "open the bonding keys", errno: errno)
        }
        defer { close(fd) }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw HardwareError(device: path, operation: "read the bonding keys", errno: errno) }
            if n == 0 { break }
            data += buf[0..<n]
        }
        return BondingKeys(text: String(decoding: data, as: UTF8.self))
    }

    /// Writes the file atomically (a temporary file, fsync, rename), mode 0600.
    public func save(path: String) throws(HardwareError) {
        do { try writeFile(path, Array(text.utf8), mode: 0o600) } catch {
            throw HardwareError(device: path, operation: "write the bonding keys", errno: error.code == 0 ? EIO : error.code)
        }
    }
}
