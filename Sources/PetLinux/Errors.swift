#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// Builds the `HardwareError`s of the Linux backends: the system's reason (errno text and name)
/// followed by what to do about the usual causes.
enum LinuxError {
    /// What kind of device failed, for the advice.
    enum Kind {
        /// A GPIO chip or line (libgpiod).
        case gpio
        /// An evdev node (/dev/input/eventN).
        case input
        /// A PWM channel in /sys/class/pwm.
        case pwm
        /// Anything else (sockets, files).
        case other
    }

    static func make(_ device: String, _ operation: String, errno e: Int32, kind: Kind) -> HardwareError {
        HardwareError(device: device, operation: operation, reason: reason(errno: e, kind: kind))
    }

    /// "permission denied (EACCES): add the user to the gpio group ..." and the like.
    static func reason(errno e: Int32, kind: Kind) -> String {
        let text = "\(String(cString: strerror(e))) (\(name(e)))"
        switch (e, kind) {
        case (ENOENT, .gpio), (ENODEV, .gpio):
            return text + ": no such GPIO chip or line; check the label or line name (gpiodetect, gpioinfo), and on a Raspberry Pi enable the overlay that provides it in /boot/firmware/config.txt"
        case (EACCES, .gpio), (EPERM, .gpio):
            return text + ": add the user to the gpio group (sudo usermod -aG gpio $USER) and log in again"
        case (EBUSY, .gpio):
            return text + ": another program or a kernel driver holds the line (see /sys/kernel/debug/gpio or gpioinfo); stop it or pick another line"
        case (ENOENT, .input), (ENODEV, .input):
            return text + ": no such input device; check /proc/bus/input/devices, and on a Raspberry Pi enable the gpio-key overlay in /boot/firmware/config.txt"
        case (EACCES, .input), (EPERM, .input):
            return text + ": add the user to the input group (sudo usermod -aG input $USER) and log in again"
        case (ENOENT, .pwm), (ENODEV, .pwm):
            return text + ": no such PWM channel; enable it in /boot/firmware/config.txt (dtoverlay=pwm or pwm-2chan) and reboot"
        case (EACCES, .pwm), (EPERM, .pwm):
            return text + ": the PWM files are root's; add a udev rule giving the gpio group write access to /sys/class/pwm (Raspberry Pi OS has one) and add the user to that group"
        case (EBUSY, .pwm):
            return text + ": the channel is already exported or used by a driver"
        default:
            return text
        }
    }

    /// The errno's symbolic name for the usual suspects.
    static func name(_ e: Int32) -> String {
        switch e {
        case EPERM: "EPERM"; case ENOENT: "ENOENT"; case EIO: "EIO"; case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"; case EACCES: "EACCES"; case EBUSY: "EBUSY"; case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"; case ENOTTY: "ENOTTY"; case ENOSPC: "ENOSPC"; case ENOTSUP: "EOPNOTSUPP"
        case ECONNREFUSED: "ECONNREFUSED"; case ENAMETOOLONG: "ENAMETOOLONG"; case EINTR: "EINTR"
        default: "errno \(e)"
        }
    }
}
