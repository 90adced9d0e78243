#if canImport(Glibc)
import Glibc
#endif

/// An error from a hardware backend: which device, what it was doing, why (`kind`, for programs;
/// `reason`, for people) and the errno when a system call failed. Never carries personal text.
///
/// A program matches on `kind` (and `errno` when it needs the exact system error):
///
///     catch let e where e.kind == .permissionDenied { … tell the owner which group to join … }
///     catch let e where e.errno == ENOSPC { … }
public struct HardwareError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why a hardware operation failed, as a program can match on it. The system's errno maps onto
    /// these (`init(errno:)`); errors that are not system errors name theirs where they are made.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No such device, chip, line, node, controller or file (ENOENT, ENODEV, ENXIO).
        case notFound
        /// The user may not use it (EACCES, EPERM): a group or a capability is missing.
        case permissionDenied
        /// Another program or a kernel driver holds it (EBUSY, EADDRINUSE).
        case busy
        /// No answer in time: a BUSY line that stayed high, a reply that did not come (ETIMEDOUT).
        case timedOut
        /// The device cannot do what was asked: a size, rotation or pixel layout it lacks, a clock
        /// that cannot be set, a request the kernel does not know (ENOTTY, EOPNOTSUPP, EAFNOSUPPORT).
        case unsupported
        /// A value or a configuration is out of range or inconsistent (EINVAL, ERANGE, E2BIG).
        case invalidArgument
        /// The device or connection was closed, by us or by the other side (EBADF, EPIPE,
        /// ECONNRESET, ENOTCONN).
        case closed
        /// The device answered, refusing (a Bluetooth management status, a panel that reported an error).
        case refused
        /// A system call failed for another reason; `errno` says which.
        case system
    }

    /// The device or node, e.g. "/dev/spidev0.0", "gpiochip pinctrl-bcm2711 line 6", "sim panel".
    public var device: String
    /// What was being done, e.g. "write 4800 bytes", "wait for BUSY".
    public var operation: String
    /// Why it failed, for a person (errno text and name, "timed out after 5000 ms", advice, ...).
    public var reason: String
    /// Why it failed, for a program.
    public var kind: Kind
    /// The system error number when a system call failed, else 0.
    public var errno: Int32

    /// An error with its `kind` named where it is made (`errno` when a system error lies behind it).
    public init(_ kind: Kind, device: String, operation: String, reason: String, errno code: Int32 = 0) {
        self.device = device; self.operation = operation; self.reason = reason; self.kind = kind; self.errno = code
    }

    /// An error without a kind of its own (`.system`); prefer `init(_:device:operation:reason:)`.
    public init(device: String, operation: String, reason: String) {
        self.init(.system, device: device, operation: operation, reason: reason)
    }

    /// A failed system call: the kind follows from `errno`, the reason is the system's text and
    /// the errno's name ("Permission denied (EACCES)"), then `advice` when there is some.
    public init(device: String, operation: String, errno code: Int32, advice: String? = nil) {
        self.device = device; self.operation = operation
        reason = "\(errnoText(code)) (\(errnoName(code)))" + (advice.map { ": " + $0 } ?? "")
        kind = Kind(errno: code)
        errno = code
    }

    public var description: String { "\(device): \(operation): \(reason)" }
}

extension HardwareError.Kind {
    /// The kind a system error number stands for.
    public init(errno code: Int32) {
        switch code {
        case ENOENT, ENODEV, ENXIO: self = .notFound
        case EACCES, EPERM: self = .permissionDenied
        case EBUSY, EADDRINUSE: self = .busy
        case ETIMEDOUT: self = .timedOut
        case ENOTTY, ENOTSUP, EAFNOSUPPORT, EPROTONOSUPPORT: self = .unsupported
        case EINVAL, ERANGE, E2BIG: self = .invalidArgument
        case EBADF, EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN: self = .closed
        default: self = .system
        }
    }
}
