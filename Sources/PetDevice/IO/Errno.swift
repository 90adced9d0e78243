#if canImport(Glibc)
import Glibc
#endif

// The one errno-to-text helper: every "what the system said" in DeskPet's errors (files, panels,
// GPIO, sockets, Bluetooth, the tools) is written by these two functions, so the wording and the
// names are the same everywhere. `HardwareError(device:operation:errno:)` and `FileError` keep the
// number itself for programs that match on it.

/// The system's text for an errno value ("No such file or directory"); by default the current errno
/// (read where the call is written, so read it right after the failing call).
public func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// The symbolic name of an errno value ("ENOENT"), or "errno N" for the uncommon ones.
public func errnoName(_ code: Int32) -> String {
    switch code {
    case EPERM: "EPERM"; case ENOENT: "ENOENT"; case EIO: "EIO"; case ENXIO: "ENXIO"; case EBADF: "EBADF"
    case EAGAIN: "EAGAIN"; case ENOMEM: "ENOMEM"; case EACCES: "EACCES"; case EBUSY: "EBUSY"
    case ENODEV: "ENODEV"; case EINVAL: "EINVAL"; case ENOTTY: "ENOTTY"; case ENOSPC: "ENOSPC"
    case EPIPE: "EPIPE"; case ERANGE: "ERANGE"; case ENOTSUP: "EOPNOTSUPP"; case EAFNOSUPPORT: "EAFNOSUPPORT"
    case EADDRINUSE: "EADDRINUSE"; case ECONNRESET: "ECONNRESET"; case ENOTCONN: "ENOTCONN"
    case ETIMEDOUT: "ETIMEDOUT"; case ECONNREFUSED: "ECONNREFUSED"; case EHOSTDOWN: "EHOSTDOWN"
    case EHOSTUNREACH: "EHOSTUNREACH"; case ENAMETOOLONG: "ENAMETOOLONG"; case EINTR: "EINTR"
    default: "errno \(code)"
    }
}
