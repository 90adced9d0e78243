import CLinux
#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// Where pairing codes, challenges and tokens come from. The device uses the kernel's
/// (`SystemRandom`, getrandom(2)); tests inject a seeded one.
public protocol SecureRandom: AnyObject {
    func bytes(_ count: Int) throws(LinkError) -> [UInt8]
}

extension SecureRandom {
    /// A uniform number in 0..<bound (rejection sampling, no modulo bias).
    public func uniform(below bound: UInt32) throws(LinkError) -> UInt32 {
        guard bound > 0 else { return 0 }
        let limit = UInt32.max - UInt32.max % bound
        while true {
            let b = try bytes(4)
            let v = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
            if v < limit { return v % bound }
        }
    }
}

/// The kernel's random numbers through getrandom(2) (blocks only before the pool is first
/// initialised at boot).
public final class SystemRandom: SecureRandom {
    public init() {}
    public func bytes(_ count: Int) throws(LinkError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let r = out.withUnsafeMutableBytes { getrandom($0.baseAddress! + filled, count - filled, 0) }
            if r < 0 {
                if errno == EINTR { continue }
                throw .system(what: "getrandom", reason: errnoText())
            }
            filled += r
        }
        return out
    }
}

/// A deterministic generator for tests and the simulator's scripted runs (SplitMix64): never
/// for a real device.
public final class SeededRandom: SecureRandom {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public func bytes(_ count: Int) throws(LinkError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            for i in 0..<8 where out.count < count { out.append(UInt8(truncatingIfNeeded: z >> (UInt64(i) * 8))) }
        }
        return out
    }
}
