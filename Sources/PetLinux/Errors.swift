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
        HardwareError(device: device, operation: operation, errno: e, advice: advice(errno: e, kind: kind))
    }

    /// "permission denied (EACCES): add the user to the gpio group ..." and the like.
    static func reason(errno e: Int32, kind: Kind) -> String {
        "\(errnoText(e)) (\(errnoName(e)))" + (advice(errno: e, kind: kind).map { ": " + $0 } ?? "")
    }

    /// What to do about the usual causes, or nil.
    static func advice(errno e: Int32, kind: Kind) -> String? {
        switch (e, kind) {
        case (ENOENT, .gpio), (ENODEV, .gpio):
            return "no such GPIO chip or line; check the label or line name (gpiodetect, gpioinfo), and on a Raspberry Pi enable the overlay that provides it in /boot/firmware/config.txt"
        case (EACCES, .gpio), (EPERM, .gpio):
            return "add the user to the gpio group (sudo usermod -aG gpio $USER) and log in again"
        case (EBUSY, .gpio):
            return "another program or a kernel driver holds the line (see /sys/kernel/debug/gpio or gpioinfo); stop it or pick another line"
        case (ENOENT, .input), (ENODEV, .input):
            return "no such input device; check /proc/bus/input/devices, and on a Raspberry Pi enable the gpio-key overlay in /boot/firmware/config.txt"
        case (EACCES, .input), (EPERM, .input):
            return "add the user to the input group (sudo usermod -aG input $USER) and log in again"
        case (ENOENT, .pwm), (ENODEV, .pwm):
            return "no such PWM channel; enable it in /boot/firmware/config.txt (dtoverlay=pwm or pwm-2chan) and reboot"
        case (EACCES, .pwm), (EPERM, .pwm):
            return "the PWM files are root's; add a udev rule giving the gpio group write access to /sys/class/pwm (Raspberry Pi OS has one) and add the user to that group"
        case (EBUSY, .pwm):
            return "the channel is already exported or used by a driver"
        default:
            return nil
        }
    }
}
