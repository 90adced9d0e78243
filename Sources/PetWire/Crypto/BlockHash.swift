/// What SHA-1 and SHA-256 (both FIPS 180-4) share: bytes fed in 64-byte blocks to the
/// hash's own `compress`, then the padding (0x80, zeros, the message length in bits, big-endian)
/// and the state words written big-endian as the digest. Each hash keeps only its constants, its
/// state and its compression function.
protocol BlockHash {
    /// Bytes not yet compressed (fewer than 64).
    var buffer: [UInt8] { get set }
    /// Bytes fed so far.
    var length: UInt64 { get set }
    /// One 64-byte block into the state.
    mutating func compress(_ block: [UInt8])
}

extension BlockHash {
    mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for b in bytes {
            buffer.append(b)
            length &+= 1
            if buffer.count == 64 {
                compress(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The padding and the length, compressed: afterwards the state is the digest.
    mutating func pad() {
        let bits = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            while buffer.count < 64 { buffer.append(0) }
            compress(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        while buffer.count < 56 { buffer.append(0) }
        for i in (0..<8).reversed() { buffer.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        compress(buffer)
        buffer.removeAll()
    }

    /// State words as the digest's bytes, big-endian.
    static func digest(_ words: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(words.count * 4)
        for w in words {
            out.append(UInt8(truncatingIfNeeded: w >> 24)); out.append(UInt8(truncatingIfNeeded: w >> 16))
            out.append(UInt8(truncatingIfNeeded: w >> 8)); out.append(UInt8(truncatingIfNeeded: w))
        }
        return out
    }
}
